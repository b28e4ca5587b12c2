/** `text` cut to at most `max` characters, an ellipsis marking the cut (the one way to shorten a text for display). */
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…` : text;
