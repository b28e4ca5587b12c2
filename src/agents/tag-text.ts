/** The trimmed text inside the first `<name>...</name>` of a text (a notification's `<status>`, `<result>`), or null. */
export const tagText = (text: string, name: string): string | null =>
  new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text)?.[1]?.trim() ?? null;
