import { accessSync, constants, existsSync } from 'node:fs';
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
  return failure('open', location, e);
}

/**
 * Why a write to an open SQLite database failed, as a BatonError, when the reason is one to say: another process held
 * its lock all the time this one waited (else the error as it is). A bare "database is locked" names neither the file
 * nor what to do.
 */
export function writeFailure(location: string, e: unknown): unknown {
  return isBusy(e) ? failure('write to', location, e) : e;
}

/** SQLite's answer that another connection holds the lock this one needs (SQLITE_BUSY and its extended codes). */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function failure(doing: 'open' | 'write to', location: string, e: unknown): BatonError {
  const code = (e as { code?: unknown })?.code;
  const denied = typeof code === 'string' && (refused.has(code) || code.startsWith('SQLITE_READONLY'));
  const cause = denied
    ? 'denied'
    : isBusy(e)
      ? 'busy'
      : typeof code === 'string' && damaged.has(code)
        ? 'damaged'
        : null;
  const refusing = denied ? unwritable(location) : '';
  const hint =
    cause === 'denied'
      ? `: this process may not write to ${refusing}. Inside an agent's sandbox (Codex lets a command write only in its workspace), use Baton's MCP server (\`baton mcp\`) instead, or run the command outside the sandbox; otherwise give this user write access to ${refusing}, or set BATON_HOME to a folder it can write`
      : cause === 'busy'
        ? `: another process kept it locked all the time this one waited (a \`sqlite3\` shell or another program with a transaction open on it, a long \`baton rebuild\`): end that transaction or close it (\`lsof ${location}\` names the processes that have it open), then try again`
        : cause === 'damaged'
          ? `: the file is damaged or is not Baton's database. Move it aside (\`mv ${location} ${location}.damaged\`): the next command starts a new one, and \`baton rebuild --from-disk <worktree>\` brings a worktree's workflows back from their run folders (<worktree>/.baton/runs)`
          : '';
  return new BatonError(
    'unavailable',
    `cannot ${doing} the SQLite database ${location}: ${(e as Error).message}${hint}`,
    // a cause named here is one the message already says what to do about (a hook's reminder names the file again)
    cause ? { cause, database: location } : {},
    { cause: e },
  );
}

/**
 * What this process may not write, of the database's folder and its files (the database, its WAL and shared-memory
 * files, those that exist): all that refuse it (a file made read-only in a folder it may write is named, not the
 * folder), else the folder (a sandbox's refusal that the modes do not show).
 */
function unwritable(location: string): string {
  const folder = dirname(location);
  const refuses = [folder, location, `${location}-wal`, `${location}-shm`].filter((path) => {
    if (!existsSync(path)) return false;
    try {
      accessSync(path, constants.W_OK);
      return false;
    } catch {
      return true;
    }
  });
  return refuses.length ? refuses.join(' and ') : folder;
}
