/**
 * Baton's instructions block, as `baton init` puts it in CLAUDE.md / AGENTS.md: its markers, and the text of a file
 * with it put in or taken out (pure: the files are read and written by the caller).
 */
export const BLOCK_BEGIN = '<!-- baton:begin (added by `baton init`; `baton init --undo` removes it) -->';
export const BLOCK_END = '<!-- baton:end -->';

/** The file's text with `block` in it (replacing the one between the markers, else appended), or without it (null). */
export function replaceBlock(text: string, block: string | null): { text: string; found: boolean } {
  const start = text.indexOf(BLOCK_BEGIN);
  const end = text.indexOf(BLOCK_END, start);
  if (start < 0 || end < 0) {
    if (block === null) return { text, found: false };
    const sep = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    return { text: `${text}${sep}${block}\n`, found: false };
  }
  const before = text.slice(0, start);
  const after = text.slice(end + BLOCK_END.length).replace(/^\n/, '');
  if (block !== null) return { text: `${before}${block}\n${after}`, found: true };
  return { text: (before.replace(/\n+$/, '\n') + after).replace(/^\n$/, ''), found: true };
}

/**
 * Whether two versions of a file differ, and only by Baton's block (put in, changed or taken out): the same text
 * once the block is out of both (the blank lines `replaceBlock` adds before it aside). Null stands for no file.
 */
export function onlyBlockDiffers(a: string | null, b: string | null): boolean {
  if (a === b) return false;
  const rest = (t: string | null) => replaceBlock(t ?? '', null).text.replace(/\n+$/, '');
  return rest(a) === rest(b);
}
