import { dirname } from 'node:path';
import { BatonError } from '../../core/index.js';

/** Refusals to write: the file system's (a mode, a read-only mount, a sandbox) or SQLite's own. */
const refused = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Why a SQLite database could not be opened, as a BatonError. A process that may read Baton's home but not write it
 * is most often a command an agent runs in its sandbox (Codex's `workspace-write` lets commands write only in the
 * workspace, and every Baton command writes its database, reads too): said so, with the ways out, since the bare
 * "permission denied" sends the agent looking for a fault in the file.
 */
export function openFailure(location: string, e: unknown): BatonError {
  const code = (e as { code?: unknown })?.code;
  const denied = typeof code === 'string' && (refused.has(code) || code.startsWith('SQLITE_READONLY'));
  const folder = dirname(location);
  const hint = denied
    ? `: this process may not write to ${folder}. Inside an agent's sandbox (Codex lets a command write only in its workspace), use Baton's MCP server (\`baton mcp\`) instead, or run the command outside the sandbox; otherwise give this user write access to ${folder}, or set BATON_HOME to a folder it can write`
    : '';
  return new BatonError(
    'unavailable',
    `cannot open the SQLite database ${location}: ${(e as Error).message}${hint}`,
    {},
    { cause: e },
  );
}
