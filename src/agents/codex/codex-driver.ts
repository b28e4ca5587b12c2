import type { AgentDriver } from '../../service/runtime/runtime-ports.js';
import { TranscriptSignals } from '../runtime/transcript-signals.js';
import { CodexRolloutParser } from './rollout.js';

/**
 * Codex CLI: `codex exec --json -` (prompt on stdin) and `codex exec --json resume <thread id> -`. Its JSONL is
 * read by the Codex parser (exec --json events, or rollout lines with `token_count` and `model_context_window`).
 */
export const codexDriver: AgentDriver = {
  adapter: 'codex',
  command(profile, input) {
    const args = ['exec', '--json', ...profile.args];
    if (input.resumeToken) args.push('resume', input.resumeToken);
    args.push('-');
    return { bin: profile.bin, args, cwd: input.cwd, env: {}, stdin: input.prompt };
  },
  parser: () => new TranscriptSignals(new CodexRolloutParser()),
};
