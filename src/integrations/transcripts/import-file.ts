import { readFile } from 'node:fs/promises';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import { BatonError, invalidInput, type AgentTaskCall } from '../../core/index.js';
import type { Extractor } from '../../extraction/index.js';
import { agentTaskCallsOf } from './agent-task-calls.js';
import { importTranscript, type Known, type TranscriptSource } from './transcript-import.js';
import { readTail, type TranscriptResume } from './transcript-resume.js';

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

/**
 * Reads a transcript file and appends what is new in it to the workflow, in one commit. With `from` (where the last
 * import stopped, as it returned it) only the bytes after it are read, when the workflow's watermark for that
 * transcript still says the same; otherwise the whole file is read (the workflow is the truth).
 */
export async function importTranscriptFile(
  client: BatonClient,
  ref: Ref,
  path: string,
  format: TranscriptSource,
  opts: { extractor?: Extractor; taskId?: string | null; from?: TranscriptResume } = {},
) {
  const status = (await client.status(ref)) as StatusView;
  const known: Known = {
    imports: status.imports ?? {},
    decisions: status.recent_decisions ?? [],
    errors: [...(status.open_errors ?? []), ...(status.recent_resolved_errors ?? [])],
  };
  const f = opts.from;
  const from = f && known.imports[f.session_key]?.through_line === f.line && f.byte > 0 ? f : undefined;
  let text: string;
  let bytes: number;
  try {
    if (from) ({ text, end: bytes } = await readTail(path, from.byte));
    else {
      // Counted on what was read (the file may grow meanwhile): the resume point must match the lines parsed.
      const buf = await readFile(path);
      bytes = buf.length;
      text = buf.toString('utf8');
    }
  } catch (e) {
    throw invalidInput(
      `cannot read the transcript ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  const { from: _from, ...rest } = opts;
  const r = await importTranscript(text, format, known, { path, ...rest, ...(from ? { from } : {}) });
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
    /** Where the next import may start reading (null when the file did not end with a complete line). */
    resume:
      from || text.endsWith('\n')
        ? ({
            byte: bytes,
            line: r.marker.through_line,
            session_key: r.marker.transcript_session_id,
            usage: r.parsed.usage,
            model: r.parsed.model,
            started_at: r.parsed.started_at,
          } satisfies TranscriptResume)
        : null,
    agent_tasks: tasks,
  };
}
