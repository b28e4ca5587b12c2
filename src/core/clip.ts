/** `text` cut to at most `max` characters, an ellipsis marking the cut (the one way to shorten a text for display). */
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…` : text;

/**
 * `text` cut to at most `max` characters keeping both ends, for a user's request: the ask may follow a pasted brief
 * or log ("<brief> ... now build step by step ...") or precede it, so the middle goes. The first `head` characters
 * stay whole (a request's first line names it).
 */
export function clipEnds(text: string, max: number, head = Math.ceil(max * 0.4)): string {
  if (text.length <= max) return text;
  const start = Math.min(head, max - 12);
  const end = max - start - 3;
  return `${text.slice(0, start).trimEnd()} … ${text.slice(text.length - end).trimStart()}`;
}
