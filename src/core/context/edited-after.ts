import { fileChangeOf } from './file-change.js';

/**
 * The file an open error names that the session changed after it: a fix was made (`hooks.go:312:24: undefined:
 * strings`, then an Edit of hooks.go), but nothing run since says whether it worked. The next session checks it
 * rather than fixing it again (adding the import twice breaks the build anew).
 */

/** Paths and file names in an error's text: `src/hooks.go:312:24`, `(app.test.ts)`, `"./lib/x.py", line 3`. */
const namedFile = /(?:^|[\s"'(`[])((?:[\w.@~-]+\/)*[\w@-][\w.@-]*\.[A-Za-z][\w]{0,5})(?=[:\s"')`\],]|$)/g;

/** Whether `path` (as the ledger wrote it) is the file `named` (a file name alone, or a path ending it). */
function isFile(path: string, named: string): boolean {
  const p = path.replace(/\\/g, '/');
  const n = named.replace(/^\.\//, '');
  return p === n || p.endsWith(`/${n}`);
}

/** The first file the error names that a file change after it (`at`) touched; null when none did. */
export function editedAfter(
  error: { error_message: string; timestamp: string },
  effects: readonly { kind: string; timestamp: string; summary: string }[],
): string | null {
  const since = Date.parse(error.timestamp);
  const later = effects.flatMap((e) => {
    const path =
      e.kind === 'file_write' && Date.parse(e.timestamp) > since ? fileChangeOf(e.summary)?.path : null;
    return path ? [path] : [];
  });
  if (!later.length) return null;
  for (const m of error.error_message.matchAll(namedFile)) {
    const named = m[1] as string;
    if (/^\d/.test(named) || /^(?:e\.g|i\.e|etc)\./i.test(named)) continue;
    if (later.some((path) => isFile(path, named))) return named;
  }
  return null;
}
