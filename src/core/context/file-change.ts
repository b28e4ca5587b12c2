/** What a tool call did to a file, as the side-effect ledger says it. */
export type FileChange = 'created' | 'edited' | 'deleted';

/**
 * A file change as the side-effect ledger says it (`edited src/hooks.go`): the one way it is written, by a transcript's
 * import and by `baton run` alike, and read back by fileChangeOf.
 */
export const fileChangeSummary = (change: FileChange, path: string): string => `${change} ${path}`;

/** A file change as the side-effect ledger says it (`edited src/hooks.go`): its change and its path; null otherwise. */
export function fileChangeOf(summary: string): { change: FileChange; path: string } | null {
  const m = /^(created|edited|deleted) (.+)$/.exec(summary);
  return m ? { change: m[1] as FileChange, path: (m[2] as string).trim() } : null;
}

/**
 * A file's path relative to the worktree when inside it (a path outside it stays as it is), as the agent's tools name
 * a file either way (an edit tool by its absolute path, `rm test/run.js` relative to the worktree it runs in).
 */
export function pathInWorktree(path: string, worktree: string | null): string {
  const root = worktree?.replace(/\/+$/, '');
  const inside = root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  return inside.replace(/^(?:\.\/)+/, '');
}

/** `path` as an absolute one: itself, or read from `base` (`../w` from `/a/b` is `/a/w`). */
export function absoluteFrom(base: string, path: string): string {
  const parts: string[] = [];
  for (const part of `${path.startsWith('/') ? '' : base}/${path}`.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}
