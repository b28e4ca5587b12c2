import type { AgentSignal } from '../../service/runtime/runtime-ports.js';
import { StreamJsonParser } from '../claude-code/stream-json.js';
import { CodexRolloutParser } from '../codex/rollout.js';
import { detectTranscriptFormat } from '../parse-transcript.js';
import { TranscriptSignals } from './transcript-signals.js';

/**
 * Reads what an agent run printed, after the fact (its task log, once a crash lost `baton run`), with the reader
 * `baton run` follows it with live: the format is recognised from its lines (Claude Code's stream-json, Codex's
 * `exec --json`; the log's `[stderr]` lines are not JSON and are passed over), and the signals are those the run
 * would have had at its end, its summaries among them. Output in no known format (a `command` agent's) gives none.
 */
export function readAgentOutput(output: string, opts: { fromStart?: boolean } = {}): AgentSignal[] {
  const format = detectTranscriptFormat(output);
  const parser =
    format === 'claude-code-stream-json'
      ? new StreamJsonParser()
      : format === 'codex-exec-json'
        ? new CodexRolloutParser()
        : null;
  if (!parser) return [];
  const signals = new TranscriptSignals(parser, opts);
  return [...signals.push(output), ...signals.end()];
}
