import { dirname } from 'node:path';
import { BatonError } from '../../core/index.js';

/** Refusals to write: the file system's (a mode, a read-only mount, a sandbox) or SQLite's own. */
const refused = new Set(['EACCES', 'EPERM', 'EROFS']);

/** A file that is not a SQLite database, or one whose pages are damaged: no mode or folder makes it open. */
const damaged = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/**
 * Why a SQLite database could not be opened, as a BatonError. A process that may read Baton's home but not write it
 * is most often a command an agent runs in its sandbox (Codex's `workspace-write` lets commands write only in the
 * workspace, and every Baton command writes its database, reads too): said so, with the ways out, since the bare
 * "permission denied" sends the agent looking for a fault in the file. A damaged file is said so, with the way back:
 * a new database, refilled from the run folders beside the work (docs/files-on-disk.md).
 */
export function openFailure(location: string, e: unknown): BatonError {
  const code = (e as { code?: unknown })?.code;
  const denied = typeof code === 'string' && (refused.has(code) || code.startsWith('SQLITE_READONLY'));
  const cause = denied ? 'denied' : typeof code === 'string' && damaged.has(code) ? 'damaged' : null;
  const folder = dirname(location);
  const hint =
    cause === 'denied'
      ? `: this process may not write to ${folder}. Inside an agent's sandbox (Codex lets a command write only in its workspace), use Baton's MCP server (\`baton mcp\`) instead, or run the command outside the sandbox; otherwise give this user write access to ${folder}, or set BATON_HOME to a folder it can write`
      : cause === 'damaged'
        ? `: the file is damaged or is not Baton's database. Move it aside (\`mv ${location} ${location}.damaged\`): the next command starts a new one, and \`baton rebuild --from-disk <worktree>\` brings a worktree's workflows back from their run folders (<worktree>/.baton/runs)`
        : '';
  return new BatonError(
    'unavailable',
    `cannot open the SQLite database ${location}: ${(e as Error).message}${hint}`,
    // a cause named here is one the message already says what to do about
    cause ? { cause } : {},
    { cause: e },
  );
}
