import type { AgentDriver } from '../../service/runtime/runtime-ports.js';
import { TranscriptSignals, type SignalOptions } from '../runtime/transcript-signals.js';
import { StreamJsonParser } from './stream-json.js';

/**
 * Claude Code headless: `claude -p --output-format stream-json --verbose`, the prompt on stdin, and
 * `--resume <session_id>` to continue the same driver session.
 */
export const claudeCodeDriver = {
  adapter: 'claude-code',
  command(profile, input) {
    const args = [...profile.args, '-p', '--output-format', 'stream-json', '--verbose'];
    if (input.resumeToken) args.push('--resume', input.resumeToken);
    return { bin: profile.bin, args, cwd: input.cwd, env: {}, stdin: input.prompt };
  },
  parser: (opts?: SignalOptions) => new TranscriptSignals(new StreamJsonParser(), opts),
} satisfies AgentDriver;
