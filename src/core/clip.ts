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

/**
 * `text` cut to at most `max` characters at a word's end, an ellipsis marking the cut (the one way to shorten a text
 * for display): a word is cut only when it is too long to keep the text's first 60% (a path, a URL).
 */
export const clip = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const room = Math.max(0, max - 1);
  return `${text.slice(0, headEnd(text, room, Math.ceil(room * 0.6))).replace(dangling, '')}…`;
};

/**
 * `text` cut to at most `max` characters keeping both ends: its first 40% (or its first `head` characters when more)
 * and its last words, " … " between, each end cut at a word's end as `clip` cuts. A request's ask, a command line's
 * last step, can be at either end.
 */
export function clipEnds(text: string, max: number, head = 0): string {
  if (text.length <= max) return text;
  const start = Math.min(Math.max(Math.ceil(max * 0.4), head), max - 12);
  const kept = text.slice(0, headEnd(text, start, Math.ceil(start * 0.6))).replace(dangling, '');
  // the tail has the room the head left, so a head cut back to a word lets the tail keep its first word whole
  const end = max - kept.length - 3;
  const from = tailStart(text, text.length - end, Math.floor(end * 0.4));
  return `${kept} … ${text.slice(from).trimStart()}`;
}
