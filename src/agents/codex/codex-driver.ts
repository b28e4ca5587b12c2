import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentDriver } from '../../service/runtime/runtime-ports.js';
import { isPostgresUrl } from '../../core/database-url.js';
import { TranscriptSignals } from '../runtime/transcript-signals.js';
import { CodexRolloutParser } from './rollout.js';

/**
 * Codex CLI: `codex exec --json -` (prompt on stdin) and `codex exec --json resume <thread id> -`. Its JSONL is
 * read by the Codex parser (exec --json events, or rollout lines with `token_count` and `model_context_window`).
 */
export const codexDriver: AgentDriver = {
  adapter: 'codex',
  command(profile, input) {
    const args = ['exec', '--json', ...writableRoots(input.env), ...profile.args];
    if (input.resumeToken) args.push('resume', input.resumeToken);
    args.push('-');
    return { bin: profile.bin, args, cwd: input.cwd, env: {}, stdin: input.prompt };
  },
  parser: () => new TranscriptSignals(new CodexRolloutParser()),
};

/**
 * Under `--sandbox workspace-write` Codex writes only in its workspace: the folder of Baton's SQLite database is
 * made writable too, so the `baton record ...` commands the prompt offers the agent can write (a PostgreSQL store
 * needs no folder). A `-c` value replaces the user's own list, so the roots their config.toml names are kept in it.
 */
function writableRoots(env: Record<string, string> | undefined): string[] {
  const db = env?.BATON_DATABASE_URL;
  if (!db || isPostgresUrl(db)) return [];
  const roots = [...new Set([...userWritableRoots(process.env), dirname(db)])];
  return ['-c', `sandbox_workspace_write.writable_roots=${JSON.stringify(roots)}`];
}

/** The `writable_roots` of `[sandbox_workspace_write]` in `$CODEX_HOME/config.toml` (a dotted key too), if any. */
export function userWritableRoots(env: NodeJS.ProcessEnv): string[] {
  let text: string;
  try {
    text = readFileSync(join(env.CODEX_HOME || join(env.HOME || homedir(), '.codex'), 'config.toml'), 'utf8');
  } catch {
    return [];
  }
  let table = '';
  let list: string | null = null;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const key = /^(?:sandbox_workspace_write\s*\.\s*)?writable_roots\s*=\s*(\[.*)$/.exec(line);
    const dotted = /^sandbox_workspace_write\s*\./.test(line);
    if (key && (table === 'sandbox_workspace_write' || (table === '' && dotted))) {
      // the array, over as many lines as it takes
      list = [key[1], ...text.split('\n').slice(i + 1)].join('\n');
      break;
    }
  }
  if (list === null) return [];
  const body = list.slice(0, list.indexOf(']') + 1);
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) =>
    m[2] !== undefined ? m[2] : m[1]!.replace(/\\(["\\])/g, '$1'),
  );
}
