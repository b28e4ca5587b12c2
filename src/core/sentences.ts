/**
 * A text's sentences and lines, in order: split after a sentence's end (`.`, `!` or `?` and white space) and at line
 * breaks. How the rules read a request or a reply a sentence at a time; an agent's prose, with its lists, headings and
 * code blocks, is read by src/extraction/rules/decisions/prose-sentences.ts.
 */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/);
}
