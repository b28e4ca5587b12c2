import { detectTranscriptFormat } from '../../agents/index.js';
import { readAgentOutput } from '../../agents/runtime/read-agent-output.js';
import { failed } from '../../extraction/rules/errors/failure.js';
import type { WorkflowState } from '../../core/index.js';
import type { RecordInput } from '../../service/index.js';
import { importTranscript, knownOf } from './transcript-import.js';

/** What of a run's reading the runner does not record live: the rest (tool calls, effects, words) it records as they come. */
const readAfter = new Set<RecordInput['kind']>(['decision', 'error', 'resolution', 'test', 'ci']);

/**
 * What an agent run that `baton run` drove did, read from its whole output as a transcript's import reads it (one
 * reader): its errors with their causes and fates (a probe's expected failure is none; a failure fixed later in the
 * run is fixed, and so is an earlier error a later run fixes), its test runs, its decisions. Claude Code's stream-json
 * and Codex's `exec --json`; any other output (a `command` agent's) gives nothing, the runner recording its failed
 * calls itself. The tool calls, side effects, the agent's words and its usage are recorded by the runner as they come.
 */
export async function readRunWork(output: string, s: WorkflowState, taskId: string): Promise<RecordInput[]> {
  const format = detectTranscriptFormat(output);
  if (format !== 'claude-code-stream-json' && format !== 'codex-exec-json') return [];
  const source = format === 'codex-exec-json' ? 'codex' : 'claude-code';
  const r = await importTranscript(output, source, format, knownOf(s, s.open_errors), {
    taskId,
    worktree: s.worktree,
  });
  return r.records.filter((x) => readAfter.has(x.kind));
}

/**
 * A lost run's task log read as `baton run` reads its agent's output (src/agents `readAgentOutput`), its last calls
 * judged as the errors of this reading are: the crash snapshot's Last State says what the live run would have said.
 */
export const readLostOutput = (output: string, opts: { fromStart: boolean }) =>
  readAgentOutput(output, { ...opts, failed });
