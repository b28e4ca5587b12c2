import { dirname, join } from 'node:path';
import type { AgentDriver } from '../../service/runtime/runtime-ports.js';
import { isPostgresUrl } from '../../core/database-url.js';
import { TranscriptSignals, type SignalOptions } from '../runtime/transcript-signals.js';
import { codexHome, userWritableRoots } from './codex-config.js';
import { CodexRolloutParser } from './rollout.js';
import { ExecWithRollout } from './rollout-context.js';

/**
 * Codex CLI: `codex exec --json -` (prompt on stdin) and `codex exec --json resume <thread id> -`. Its JSONL is
 * read by the Codex parser; how full the context is comes from the thread's rollout (rollout-context.ts).
 */
export const codexDriver = {
  adapter: 'codex',
  // `turn.completed` reports the thread's totals: a resumed thread's count every earlier run's tokens too
  sessionTotals: true,
  command(profile, input) {
    const args = ['exec', '--json', ...writableRoots(input.env), ...profile.args];
    if (input.resumeToken) args.push('resume', input.resumeToken);
    args.push('-');
    return { bin: profile.bin, args, cwd: input.cwd, env: {}, stdin: input.prompt };
  },
  parser: (opts?: SignalOptions) =>
    new TranscriptSignals(
      new ExecWithRollout(new CodexRolloutParser(), join(codexHome(process.env), 'sessions')),
      opts,
    ),
} satisfies AgentDriver;

/**
 * Under `--sandbox workspace-write` Codex writes only in its workspace: the folder of Baton's SQLite database is
 * made writable too, so the `baton record ...` commands the prompt offers the agent can write (a PostgreSQL store
 * needs no folder). A `-c` value replaces the user's own list, so the roots their config.toml names are kept in it.
 */
function writableRoots(env: Record<string, string> | undefined): string[] {
  const db = env?.BATON_DATABASE_URL;
  if (!db || isPostgresUrl(db)) return [];
  const roots = [...new Set([...userWritableRoots(codexHome(process.env)), dirname(db)])];
  return ['-c', `sandbox_workspace_write.writable_roots=${JSON.stringify(roots)}`];
}
