const space = /\s/;
/** Punctuation that ends a word when a space (or the end) follows it: "tests;" is the word "tests". */
const closing = /[,;:.!?)\]'"]/;

/** Whether `at` is between words: a space on either side, or the closing punctuation of the word before. */
function between(text: string, at: number): boolean {
  const next = text[at] ?? ' ';
  return (
    space.test(next) ||
    space.test(text[at - 1] ?? ' ') ||
    (closing.test(next) && space.test(text[at + 1] ?? ' '))
  );
}

/**
 * Where to end a text's head cut at `at` without splitting a word: at the last space before it, unless that would
 * keep less than `least` characters (one long path or URL is cut where it must be).
 */
function headEnd(text: string, at: number, least: number): number {
  if (at <= 0 || between(text, at)) return at;
  const before = text.slice(0, at).search(/\s\S*$/);
  return before >= least ? before : at;
}

/** Where to start a text's tail cut at `at` without splitting a word: after the next space, unless past `most`. */
function tailStart(text: string, at: number, most: number): number {
  if (at <= 0 || at >= text.length || space.test(text[at] ?? '') || space.test(text[at - 1] ?? '')) return at;
  const after = text.slice(at).search(/\s/);
  return after >= 0 && after <= most ? at + after : at;
}

/** What a cut leaves dangling before the ellipsis: spaces and a separating comma, semicolon or colon. */
const dangling = /[\s,;:]+$/;

/** A line opening or closing a fenced code block (```ts, ```). */
const fenceLine = /^[ \t]*```[^\n]*$/gm;
const oneFence = new RegExp(fenceLine.source);
/** Whether one line opens or closes a fenced code block. */
export const isFenceLine = (line: string) => oneFence.test(line);
const fencesIn = (text: string) => text.match(fenceLine)?.length ?? 0;

/** A row of a markdown table (`| a | b |`). */
const tableRow = /^[ \t]*\|/;

/**
 * The head cut at a word's end (`room` characters at most, the ellipsis included); a cut inside a row of a markdown
 * table ends at the row before, the ellipsis on a line of its own (half a row reads as a broken table), unless that
 * keeps less of the text than a word's cut must (one long row).
 */
const headCut = (text: string, room: number) => {
  const at = Math.max(0, room - 1);
  const least = Math.ceil(at * 0.6);
  const end = headEnd(text, at, least);
  const kept = text.slice(0, end).trimEnd();
  const row = kept.lastIndexOf('\n');
  if (tableRow.test(kept.slice(row + 1))) {
    // the row whole when it ends there and the ellipsis's line still has room; else the rows before it
    if (text[kept.length] === '\n' && kept.length + 2 <= room) return `${kept}\n…`;
    if (row >= least) return `${kept.slice(0, row).trimEnd()}\n…`;
  }
  return `${text.slice(0, end).replace(dangling, '')}…`;
};

/**
 * A head (ending with its ellipsis) cut inside a fenced code block, made to end outside it, so that what follows it
 * in the briefing is not read as code: the block is closed after the ellipsis, or, when none of its code is kept
 * (the fence's line is all the head has of it), the head ends before the fence instead (never an empty block).
 */
function outOfCode(head: string): string {
  const fences = [...head.matchAll(fenceLine)];
  const open = fences.length % 2 === 1 ? fences.at(-1) : undefined;
  if (!open) return head;
  if (
    !head
      .slice(open.index + open[0].length)
      .replace(/…$/, '')
      .trim()
  )
    return `${head.slice(0, open.index).replace(dangling, '')}…`;
  return `${head}\n\`\`\``;
}

/**
 * `text` cut to at most `max` characters at a word's end, an ellipsis marking the cut (the one way to shorten a text
 * for display): a word is cut only when it is too long to keep the text's first 60% (a path, a URL). A cut inside a
 * fenced code block closes it (`outOfCode`).
 */
export const clip = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const head = outOfCode(headCut(text, max));
  // the closing fence takes room from the text
  return head.length <= max ? head : outOfCode(headCut(text, max - 4));
};

/** A word that turns what follows it around ("do not commit", "never push", "without touching"). */
const negation =
  /\b(?:not|never|no|don'?t|doesn'?t|won'?t|can'?t|cannot|mustn'?t|shouldn'?t|without|avoid)\b/i;
/** Where a sentence ends: its closing punctuation (a quote or bracket after it) and the space after, or a line break. */
const sentenceEnd = /[.!?]["')\]]?\s+(?=\S)|\n\s*(?=\S)/g;

/**
 * Where a tail may start: `at`, unless the part of its sentence left out (after the head) holds a negation, whose
 * object the tail would then read as an order ("… commit/push/open PR" of "do not rerun, commit/push/open PR"): the
 * tail starts at the next sentence instead (the end of the text when none follows: then the head is all).
 */
function unnegated(text: string, at: number, headLength: number): number {
  let start = 0;
  for (const m of text.slice(0, at).matchAll(sentenceEnd)) start = m.index + m[0].length;
  if (!negation.test(text.slice(Math.max(start, headLength), at))) return at;
  // searched in a slice, never by setting the shared expression's lastIndex: matchAll starts a copy where the
  // expression was left, so an exec here would make the next text's sentences start after a stale position
  const next = text.slice(at).matchAll(sentenceEnd).next().value;
  return next ? at + next.index + next[0].length : text.length;
}

/**
 * `text` cut to at most `max` characters keeping both ends: its first 40% (or its first `head` characters when more)
 * and its last words, " … " between, each end cut at a word's end as `clip` cuts. A request's ask, a command line's
 * last step, can be at either end. Neither end leaves a code block open: a head cut inside one closes it, and a tail
 * that starts inside one starts after its closing fence.
 */
export function clipEnds(text: string, max: number, head = 0): string {
  if (text.length <= max) return text;
  const cut = bothEnds(text, max, head);
  return cut.length <= max ? cut : bothEnds(text, max - 4, head);
}

/**
 * Whether `at` is inside a word (not at its start) of printable ASCII without a path separator: a name, a hash, an
 * identifier (not a path, whose end names its file; not a text written without spaces, as Chinese or Japanese is).
 */
function inNameAt(text: string, at: number): boolean {
  if (at <= 0 || space.test(text[at] ?? ' ') || space.test(text[at - 1] ?? ' ')) return false;
  const word = `${/\S*$/.exec(text.slice(0, at))?.[0] ?? ''}${/^\S*/.exec(text.slice(at))?.[0] ?? ''}`;
  return /^[!-~]+$/.test(word) && !/[/\\]/.test(word);
}

/** The head of a text in `room` characters, cut back to a word's end as `clip` cuts (no ellipsis yet). */
const headIn = (text: string, room: number) =>
  text.slice(0, headEnd(text, room, Math.ceil(room * 0.6))).replace(dangling, '');

function bothEnds(text: string, max: number, head: number): string {
  const start = Math.min(Math.max(Math.ceil(max * 0.4), head), max - 12);
  let kept = headIn(text, start);
  // the tail has the room the head left, so a head cut back to a word lets the tail keep its first word whole
  const end = max - kept.length - 3;
  // its first word is cut only when too long for most of the whole room (a path), as `clip` cuts: a tail of a few
  // words, all a long head left room for, starts at a word all the same
  const most = Math.floor(max * 0.4);
  let at = tailStart(text, text.length - end, most);
  // no word starts after it within reach (the text's last word, "… Y_OPTOUT." of "ENTIRE_TELEMETRY_OPTOUT."): the
  // tail starts at its word, whole when no longer than that, and the head gives it the room
  const word = text.slice(0, at).search(/\S+$/);
  if (word >= 0 && !space.test(text[at] ?? ' ') && text.length - word <= most) {
    at = word;
    kept = headIn(text, max - (text.length - word) - 3);
  }
  const from = unnegated(text, at, kept.length);
  // no sentence follows a negation the tail would cut: the head alone, in all the room; so too when the tail would
  // start inside a word that is no path ("Y_OPTOUT." of ENTIRE_TELEMETRY_OPTOUT, too long for the tail's room): a
  // path's end names its file, a name's end names nothing
  if (from >= text.length || inNameAt(text, from)) return clip(text, max);
  let tail = text.slice(from).trimStart();
  if (fencesIn(text.slice(0, from)) % 2 === 1) {
    // the tail starts inside a code block, whose closing fence would open one: it starts after that fence
    const close = new RegExp(fenceLine.source, 'm').exec(tail);
    tail = close ? tail.slice(close.index + close[0].length).trimStart() : tail;
  }
  const shown = outOfCode(`${kept}…`);
  if (!tail) return shown;
  // after a closed block, the tail on a line of its own (the fence's line holds nothing else)
  return shown.endsWith('```') ? `${shown}\n${tail}` : `${shown.slice(0, -1)} … ${tail}`;
}
