import { readFile } from 'node:fs/promises';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import { invalidInput } from '../../core/index.js';
import type { Extractor } from '../../extraction/index.js';
import { importTranscript, type Known, type TranscriptSource } from './transcript-import.js';

interface StatusView {
  workflow: { id: string };
  imports: Known['imports'];
  recent_decisions: { description: string }[];
  open_errors: { error_message: string }[];
  recent_resolved_errors: { error_message: string }[];
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
  try {
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
  if (r.records.length || r.newEntries) await client.recordBatch(target, r.records, r.marker);
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
  };
}
