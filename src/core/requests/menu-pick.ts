/**
 * A request that picks from the list the agent's message before it offered: "5 seems like a great one to tackle" after
 * a table of todos, "let's go with option 2", "B please", "the second one". Its words name nothing of the goal; the
 * item they point at does, so the Goal says it beside them.
 */

/** The longest request read as a pick: a pick is a short answer, a longer text says what it wants itself. */
const PICK_MAX_CHARS = 80;
/** The most of an item kept: its title and a few of its columns. */
const ITEM_MAX_CHARS = 160;

const ordinals = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** "option 2", "#3", "number 4", "item B", "choice c": the label named as one, anywhere in the request. */
const namedLabel = /(?:\b(?:option|item|number|choice)\s*|#)#?(\d{1,2}|[a-h])(?![\w-])/i;
/**
 * A label the request opens with, after a go-ahead or a verb of choosing: "5 seems like a great one", "ok 3",
 * "let's do 2", "go with B", "B please", "2.". A number followed by a noun ("3 tests fail") is no pick.
 */
const leadingLabel =
  /^(?:(?:ok(?:ay)?|yes|yeah|yep|sure|great|cool|nice|hmm+|i think|i'?d say|maybe|let'?s|lets|please|pls)[\s,!.]+)*(?:(?:go with|go for|do|take|pick|choose|tackle|start with|work on|try|implement)\s+)?(\d{1,2}|[a-h])(?=[.)!,:]?\s*$|[.)!,:]?\s+(?:seems|sounds|looks|is|it|please|pls|then|first|would|makes|and|for|too|one|as|now|looks|i think)\b|[.)!,:]\s)/i;
/** A letter alone ("d", "p."): a menu's key, whichever letter it offered ("[d] Done", "[p] Proceed"). */
const letterAlone = /^([a-z])[.!]?$/i;
/** "the second one", "the last option", "first approach". */
const ordinalLabel =
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\s+(?:one|option|item|choice|approach|idea|suggestion)\b/i;

/** The label a request picks by ("5", "b", "last"), or null when it picks nothing. */
export function pickedLabel(request: string): string | null {
  const text = request.trim();
  if (text.length === 0 || text.length > PICK_MAX_CHARS || text.includes('\n')) return null;
  const named = namedLabel.exec(text) ?? leadingLabel.exec(text) ?? letterAlone.exec(text);
  if (named) return (named[1] ?? '').toLowerCase();
  const ordinal = ordinalLabel.exec(text)?.[1]?.toLowerCase();
  if (!ordinal) return null;
  return ordinal === 'last' ? 'last' : String(ordinals.indexOf(ordinal) + 1);
}

/** An item of a list: its label (a number or a letter) and its words. */
interface Item {
  label: string;
  text: string;
}

/**
 * "1. x", "2) x", "- **3.** x", "**Option B:** x", "### 4. x", "B) x", "- **[d] Done** - x": a list item's label
 * (a number, a letter, or a menu's key in brackets) and its words.
 */
const listLine =
  /^[ \t]*(?:[-*+][ \t]+)?(?:#{1,4}[ \t]+)?(?:\*\*|__)?(?:option[ \t]+)?(?:(\d{1,2}|[A-Ha-h])(?:[.):]|[ \t]*[-\u2013\u2014])|\[([\w-]{1,24})\])(?:\*\*|__)?[ \t]+(.+)$/i;
/** "| 5 | Fix the rename | desktop |": a table row whose first cell is its number. */
const tableRow = /^[ \t]*\|[ \t]*(?:\*\*)?(\d{1,2}|[A-Ha-h])(?:\*\*)?[ \t]*\|(.+)$/;

/** The markdown marks that only dress an item's words. */
const plain = (text: string) =>
  text
    .replace(/\*\*|__/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();

function itemsOf(message: string): Item[] {
  const items: Item[] = [];
  for (const line of message.split('\n')) {
    const row = tableRow.exec(line);
    if (row) {
      const cells = (row[2] ?? '')
        .split('|')
        .map((c) => plain(c))
        .filter(Boolean);
      if (cells.length) items.push({ label: (row[1] ?? '').toLowerCase(), text: cells.join(' | ') });
      continue;
    }
    const item = listLine.exec(line);
    if (item) items.push({ label: (item[1] ?? item[2] ?? '').toLowerCase(), text: plain(item[3] ?? '') });
  }
  return items;
}

const clipped = (text: string) =>
  text.length <= ITEM_MAX_CHARS ? text : `${text.slice(0, ITEM_MAX_CHARS - 1).trimEnd()}\u2026`;

/**
 * The item of the agent's list that a request picks by its label, as "label: words" ("5: Fix FUSE rename on SMB
 * backend | desktop | 3d ago"), or null when the request picks nothing or the message before it lists no such item.
 * A list counts when it has at least two items of the same kind (numbers, or letters); of several lists the last one
 * that holds the label is meant (the options come at the end of a message).
 */
export function pickedItem(request: string, agentMessage: string | null | undefined): string | null {
  if (!agentMessage) return null;
  const label = pickedLabel(request);
  if (!label) return null;
  const items = itemsOf(agentMessage);
  const numbered = /^\d+$/.test(label) || label === 'last';
  const sameKind = items.filter((i) => /^\d+$/.test(i.label) === numbered);
  if (sameKind.length < 2) return null;
  const found = label === 'last' ? sameKind.at(-1) : sameKind.filter((i) => i.label === label).at(-1);
  return found ? `${found.label.toUpperCase()}: ${clipped(found.text)}` : null;
}
