import { readFile, stat } from 'node:fs/promises';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import { BatonError, invalidInput, type AgentTaskCall } from '../../core/index.js';
import type { Extractor } from '../../extraction/index.js';
import { agentTaskCallsOf } from './agent-task-calls.js';
import { importTranscript, type Known, type TranscriptSource } from './transcript-import.js';

interface StatusView {
  workflow: { id: string };
  imports: Known['imports'];
  recent_decisions: { description: string }[];
  open_errors: { error_message: string }[];
  recent_resolved_errors: { error_message: string }[];
}

const noTasks = (note: string | null) => ({
  added: [] as string[],
  started: [] as string[],
  completed: [] as string[],
  skipped: [] as string[],
  note,
});

/** The agent's own task list into the task graph; a finished workflow cannot take it, and the result says so. */
async function followTaskList(
  client: BatonClient,
  ref: Ref,
  source: TranscriptSource,
  calls: AgentTaskCall[],
) {
  try {
    const r = await client.syncAgentTasks(ref, { source, calls });
    return { added: r.added, started: r.started, completed: r.completed, skipped: r.skipped, note: null };
  } catch (e) {
    if (BatonError.isInstance(e) && e.code === 'invalid_transition') return noTasks(e.message);
    throw e;
  }
}

/** Reads a transcript file and appends what is new in it to the workflow, in one commit. */
export async function importTranscriptFile(
  client: BatonClient,
  ref: Ref,
  path: string,
  format: TranscriptSource,
  opts: { extractor?: Extractor; taskId?: string | null } = {},
) {
  let text: string;
  let bytes: number;
  try {
    bytes = (await stat(path)).size;
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw invalidInput(
      `cannot read the transcript ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  const status = (await client.status(ref)) as StatusView;
  const known: Known = {
    imports: status.imports ?? {},
    decisions: status.recent_decisions ?? [],
    errors: [...(status.open_errors ?? []), ...(status.recent_resolved_errors ?? [])],
  };
  const r = await importTranscript(text, format, known, { path, ...opts });
  const target = { ...ref, workflowId: status.workflow.id };
  // An import that finds nothing new writes nothing (a hook on every turn must not grow the log).
  if (r.newEntries) await client.recordBatch(target, r.records, r.marker);
  const calls = agentTaskCallsOf(r.fresh);
  const tasks = calls.length ? await followTaskList(client, target, format, calls) : noTasks(null);
  return {
    workflow_id: status.workflow.id,
    format,
    transcript_session_id: r.marker.transcript_session_id,
    lines: r.parsed.lines,
    entries: r.parsed.entries.length,
    new_entries: r.newEntries,
    skipped: r.parsed.skipped,
    records: r.counts,
    compactions: r.parsed.compactions.length,
    usage: r.usage,
    /** The file's size when it was read: everything before it is imported. */
    bytes,
    agent_tasks: tasks,
  };
}
