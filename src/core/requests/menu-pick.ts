import { clip } from '../clip.js';

/**
 * A request that names an item of the list the agent's message before it offered, by the item's number or letter:
 * "5 seems like a great one to tackle" after a table of todos, "let's go with option 2", "B please", "the second one",
 * "option 1 is not acceptable". Its words say little of the goal without the item, so the Goal says the item beside
 * them; the words say what the user made of it (a pick, a refusal).
 */

/** An item of the agent's list a request names: its label as the list wrote it ("5", "B", "d") and its words. */
export interface ListItem {
  label: string;
  item: string;
}

/** The longest request read as naming an item: such a request is a short answer; a longer one says what it wants. */
const REQUEST_MAX_CHARS = 80;
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

/** "option 2", "number 4", "item B", "choice c": the label named as one, anywhere in the request. */
const namedLabel =
  /\b(?:option|item|number|choice|approach)\s+#?(\d{1,2}|[a-h]|one|two|three|four|five|six|seven|eight|nine|ten)(?![\w-])/i;
/**
 * A label the request opens with, after a go-ahead or a verb of choosing: "5 seems like a great one", "ok 3",
 * "let's do 2", "go with B", "B please", "#2", "2.". Only some words may follow it: "3 tests fail" counts tests.
 */
const leadingLabel =
  /^(?:(?:ok(?:ay)?|yes|yeah|yep|sure|great|cool|nice|hmm+|i think|i'?d say|maybe|let'?s|lets|please|pls)[\s,!.]+)*(?:(?:i'?d |i'?ll |i |we'?ll |let'?s )?(?:go with|go for|do|take|pick|choose|prefer|tackle|start with|work on|try|implement)\s+)?#?(\d{1,2}|[a-h])(?=[.)!,:]?\s*$|[.)!,:]?\s+(?:seems|sounds|looks|is|it|please|pls|then|first|would|makes|for|too|one|as|now|i think)\b|[.)!,:]\s)/i;
/** A letter alone ("d", "p."): a menu's key, whichever letter it offered ("[d] Done", "[p] Proceed"). */
const letterAlone = /^([a-z])[.!]?$/i;
/** "the second one", "the last option", "first approach", "let's go with the first", "second". */
const ordinalLabel =
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\s+(?:one|option|item|choice|approach|idea|suggestion)\b|^(?:(?:ok(?:ay)?|yes|let'?s|i'?d)[\s,]+)*(?:(?:go with|do|take|pick|choose|prefer)\s+)?(?:the\s+)?(first|second|third|fourth|fifth|last)[.!]?$/i;
const numberWords = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** A number standing alone in a request ("1 and 2": two of them name two items, which no one item says). */
const aloneNumber = /(?<![\w.#-])\d{1,2}(?![\w.])/g;

/**
 * The same request in words the patterns read: "2nd" is "second", a keycap "2️⃣" and a circled "②" are
 * "2".
 */
function spelledOut(request: string): string {
  return request
    .replace(/\b(\d{1,2})(?:st|nd|rd|th)\b/gi, (whole, n: string) => ordinals[Number(n) - 1] ?? whole)
    .replace(/(\d)\uFE0F?\u20E3/g, '$1')
    .replace(/[\u2460-\u2469]/g, (c) => String(c.charCodeAt(0) - 0x245f));
}

/** The label a request names an item by ("5", "b", "last"), or null when it names none, or several. */
export function pickedLabel(request: string): string | null {
  const text = spelledOut(request).trim();
  if (text.length === 0 || text.length > REQUEST_MAX_CHARS || /[\r\n]/.test(text)) return null;
  if (new Set(text.match(aloneNumber) ?? []).size > 1) return null;
  const named = namedLabel.exec(text) ?? leadingLabel.exec(text) ?? letterAlone.exec(text);
  if (named) {
    const label = (named[1] ?? '').toLowerCase();
    const word = numberWords.indexOf(label);
    return word >= 0 ? String(word + 1) : label;
  }
  const ordinalMatch = ordinalLabel.exec(text);
  const ordinal = (ordinalMatch?.[1] ?? ordinalMatch?.[2])?.toLowerCase();
  if (!ordinal) return null;
  return ordinal === 'last' ? 'last' : String(ordinals.indexOf(ordinal) + 1);
}

interface Listed {
  label: string;
  text: string;
  /** How far the line is indented: an item of a nested list is indented more than its parent's. */
  indent: number;
}

/**
 * "1. x", "2) x", "3 - x", "- **3.** x", "### 4. x", "B) x", "**Option B:** x", "- **[d] Done** - x": a list item's
 * label (a number, a letter, or a menu's key in brackets) and its words. A letter takes ")" or "." ("A: because" is a
 * line of a dialogue); after "Option" any label takes ":".
 */
const listLine =
  /^([ \t]*)(?:[-*+][ \t]+)?(?:#{1,4}[ \t]+)?(?:\*\*|__)?(?:option[ \t]+([A-Ha-h]|\d{1,2})[.):]?|(\d{1,2})(?:[.):]|[ \t]*[-\u2013\u2014])|([A-Ha-h])(?:[.)]|[ \t]*[-\u2013\u2014])|\[([\w-]{1,24})\])(?:\*\*|__)?[ \t]+(.+)$/i;
/** "| 5 | Fix the rename | desktop |": a table row whose first cell is its number. */
const tableRow = /^([ \t]*)\|[ \t]*(?:\*\*)?(\d{1,2}|[A-Ha-h])(?:\*\*)?[ \t]*\|(.+)$/;
const fence = /^[ \t]*(?:```|~~~)/;

/** The markdown marks that only dress an item's words. */
const plain = (text: string) =>
  text
    .replace(/\*\*|__/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();

/** The items of the lists and tables a message holds, outside its code blocks. */
function itemsOf(message: string): Listed[] {
  const items: Listed[] = [];
  let code = false;
  for (const line of message.split(/\r?\n/)) {
    if (fence.test(line)) code = !code;
    if (code) continue;
    const row = tableRow.exec(line);
    if (row) {
      const cells = (row[3] ?? '')
        .split('|')
        .map((c) => plain(c))
        .filter(Boolean);
      if (cells.length)
        items.push({ label: row[2] ?? '', text: cells.join(' | '), indent: (row[1] ?? '').length });
      continue;
    }
    const item = listLine.exec(line);
    if (item)
      items.push({
        label: item[2] ?? item[3] ?? item[4] ?? item[5] ?? '',
        text: plain(item[6] ?? ''),
        indent: (item[1] ?? '').length,
      });
  }
  // a nested list's items are steps of their parent's: the labels a user names are the outer ones
  const outer = Math.min(...items.map((i) => i.indent));
  return items.filter((i) => i.indent === outer);
}

const numbered = (label: string) => /^\d+$/.test(label);

/**
 * The item of the agent's list that a request names by its label, or null when the request names none or the message
 * before it lists no such item. A list counts when it has at least two items of the same kind (numbers, or letters
 * and keys); of several lists the last one that holds the label is meant (the options come at the end of a message),
 * and "the last one" is the last item of the last list.
 */
export function pickedItem(request: string, agentMessage: string | null | undefined): ListItem | null {
  if (!agentMessage) return null;
  const label = pickedLabel(request);
  if (!label) return null;
  const items = itemsOf(agentMessage);
  const last = items.at(-1);
  const kind = label === 'last' ? (last ? numbered(last.label) : true) : numbered(label);
  const sameKind = items.filter((i) => numbered(i.label) === kind);
  if (sameKind.length < 2) return null;
  const found = label === 'last' ? last : sameKind.filter((i) => i.label.toLowerCase() === label).at(-1);
  return found ? { label: found.label, item: clip(found.text, ITEM_MAX_CHARS) } : null;
}

/** How the Goal says the item a request named, after the request's words. */
export const itemSaid = (named: ListItem) =>
  `item ${named.label} of the agent's list before it: ${named.item}`;
