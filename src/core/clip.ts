/** `text` cut to at most `max` characters, an ellipsis marking the cut (the one way to shorten a text for display). */
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…` : text;

/**
 * `text` cut to at most `max` characters keeping both ends: its first 40% (or its first `head` characters when more)
 * and its last words, " … " between. A request's ask, a command line's last step, can be at either end.
 */
export function clipEnds(text: string, max: number, head = 0): string {
  if (text.length <= max) return text;
  const start = Math.min(Math.max(Math.ceil(max * 0.4), head), max - 12);
  const end = max - start - 3;
  return `${text.slice(0, start).trimEnd()} … ${text.slice(text.length - end).trimStart()}`;
}
