import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { bareCheckpointName, foldEvents, type BatonEvent, type WorkflowState } from '../core/index.js';
import { readEventLog, type ReadProblem } from './event-log-reader.js';
import { readJsonFile } from './read-json.js';
import { runPaths } from './run-paths.js';
import { describeRanges, planRestoration } from './run-recovery.js';

export type { ReadProblem };

/** An artifact the run folder should hold but does not, with the step that produces it. */
export interface MissingArtifact {
  file: string;
  produced_by: string;
}

export interface RunRead {
  dir: string;
  workflow_id: string;
  /**
   * What can be folded and imported, without a gap: the events from seq 1 up to the first gap, or, when the log
   * lost events and an intact checkpoint or snapshot reaches further, a `workflow.restored` event holding the state
   * rebuilt from it followed by the readable events after it (see `recovered_with_gaps`).
   */
  events: BatonEvent[];
  /** Every event recovered, gaps or not, one per seq in seq order. */
  recovered: BatonEvent[];
  /** Events read beyond a gap (not imported: the state between is unknown). */
  stranded: number;
  /** How many of `recovered` were read from lines whose checksum matched (the others: an earlier version's lines). */
  verified: number;
  /** Set when `events` begin with a `workflow.restored` event: rebuilt from `source`, the `lost` seqs missing. */
  recovered_with_gaps: { source: string; lost: { from: number; to: number }[]; base: number } | null;
  /** The state the events fold to, or null when there is no `workflow.created`. */
  state: WorkflowState | null;
  problems: ReadProblem[];
  missing: MissingArtifact[];
  duplicates: number;
  /** True when anything was skipped, lost or missing: resume with care. */
  flagged: boolean;
}

const MIRROR =
  'the disk mirror after every commit (any baton command catches it up while the database has the run)';

const manifestLastSeq = (value: unknown): number | null => {
  const n = (value as { last_seq?: unknown } | null)?.last_seq;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
};

/**
 * Reads a run folder the Resume Protocol's way: everything readable is used, everything else is reported (file
 * and line for a bad event line, the producing step for a missing artifact). Never throws.
 */
export function readRun(dir: string, expected?: string | null): RunRead {
  const p = runPaths(dir);
  const manifest = readJsonFile(p.manifest);
  const manifestId = manifest.ok ? (manifest.value as { workflow_id?: unknown } | null)?.workflow_id : null;
  // Whose run this is: as told, else as its verified lines say, else its manifest and folder name (null: its lines).
  const log = readEventLog(dir, expected, {
    manifest: typeof manifestId === 'string' ? manifestId : null,
    folder: basename(dir),
  });
  const expectedId = log.workflowId;
  const problems = [...log.problems];
  const missing: MissingArtifact[] = [];

  // The readable start of the log: from workflow.created (seq 1), or from the workflow.restored a recovered run
  // begins with, to the first gap.
  const prefix: BatonEvent[] = [];
  const start = log.events[0];
  if (start && (start.type === 'workflow.restored' || start.seq === 1))
    for (const e of log.events) {
      if (e.seq !== start.seq + prefix.length) break;
      prefix.push(e);
    }
  const restoration =
    expectedId !== null && start?.type !== 'workflow.restored'
      ? planRestoration(dir, expectedId, log.events, prefix)
      : null;
  const contiguous = restoration ? restoration.events : prefix;
  const lastUsed = contiguous[contiguous.length - 1]?.seq ?? 0;
  const stranded = restoration ? restoration.unused : log.events.filter((e) => e.seq > lastUsed).length;
  const first = log.events[0];
  if (!existsSync(p.events))
    missing.push({
      file: 'events/',
      produced_by: '`baton create` (workflow.created) and every later command',
    });
  else if (!first)
    problems.push({ file: 'events/', line: null, problem: 'no readable event: the run cannot be rebuilt' });
  if (first && first.seq !== 1 && first.type !== 'workflow.restored')
    problems.push({ file: 'events/', line: null, problem: `events 1..${first.seq - 1} are missing` });
  if (restoration)
    problems.push({
      file: 'events/',
      line: null,
      problem: `recovered with gaps: event(s) ${describeRanges(restoration.lost)} are lost; the run is rebuilt from ${restoration.source} (as its state at seq ${restoration.base})${restoration.end > restoration.base ? ` and events ${restoration.base + 1}..${restoration.end}` : ''}`,
    });
  if (stranded) {
    const gapAt = restoration ? prefix.length + 1 : lastUsed + 1;
    problems.push({
      file: 'events/',
      line: null,
      problem: `event ${gapAt} is missing: the ${stranded} event(s) after it are not used`,
    });
  }

  if (!manifest.ok && manifest.reason === 'missing')
    missing.push({ file: 'manifest.json', produced_by: MIRROR });
  else if (!manifest.ok)
    problems.push({ file: 'manifest.json', line: null, problem: `unreadable: ${manifest.message}` });
  const lastSeq = manifest.ok ? manifestLastSeq(manifest.value) : null;
  const maxRead = log.events[log.events.length - 1]?.seq ?? 0;
  if (lastSeq !== null && lastSeq > maxRead)
    problems.push({
      file: 'manifest.json',
      line: null,
      problem: `the manifest lists events up to ${lastSeq}, the logs end at ${maxRead}: events were lost`,
    });

  for (const [file, path] of [
    ['workflow-state.json', p.workflowState],
    ['task-graph.json', p.taskGraph],
    ['state.json', p.liveState],
  ] as const) {
    const r = readJsonFile(path);
    if (!r.ok && r.reason === 'missing') missing.push({ file, produced_by: MIRROR });
    else if (!r.ok) problems.push({ file, line: null, problem: `unreadable: ${r.message}` });
  }
  if (!existsSync(p.plan))
    missing.push({ file: 'plan.md', produced_by: `${MIRROR}; from \`baton create --plan\`` });

  let state: WorkflowState | null = null;
  if (contiguous.length) {
    try {
      state = foldEvents(contiguous).state;
    } catch (e) {
      problems.push({
        file: 'events/',
        line: null,
        problem: `cannot fold the events: ${(e as Error).message}`,
      });
    }
  }
  const seen = new Map<number, { seq: number; trigger: string }>();
  for (const e of contiguous) {
    if (e.type === 'checkpoint.created') {
      const name = e.data.checkpoint.name;
      if (!existsSync(p.checkpoint(name)))
        missing.push({
          file: `checkpoints/${name}.json`,
          produced_by: `\`baton checkpoint --name ${bareCheckpointName(name)}\` (checkpoint.created, seq ${e.seq})`,
        });
    }
    if (e.type === 'snapshot.taken')
      seen.set(e.data.snapshot.session_number, { seq: e.seq, trigger: e.data.snapshot.trigger });
  }
  for (const [session, e] of seen) {
    if (!existsSync(p.snapshot(session)))
      missing.push({
        file: `snapshots/${session}.json`,
        produced_by: `the ${e.trigger} snapshot of session ${session} (snapshot.taken, seq ${e.seq})`,
      });
  }
  if (state?.status === 'interrupted' && !existsSync(p.recovery)) {
    const at = contiguous.findLast((e) => e.type === 'workflow.interrupted');
    missing.push({
      file: 'recovery.json',
      produced_by: `\`baton interrupt\` (workflow.interrupted${at ? `, seq ${at.seq}` : ''})`,
    });
  }

  return {
    dir,
    workflow_id: expectedId ?? first?.workflow_id ?? basename(dir),
    events: contiguous,
    recovered: log.events,
    stranded,
    state,
    problems,
    missing,
    duplicates: log.duplicates,
    verified: log.verified,
    recovered_with_gaps: restoration
      ? { source: restoration.source, lost: restoration.lost, base: restoration.base }
      : start?.type === 'workflow.restored'
        ? { source: start.data.source, lost: start.data.lost, base: start.seq }
        : null,
    flagged: problems.length > 0 || missing.length > 0,
  };
}

/** The last seq the folder holds without a gap: where the mirror resumes appending when the manifest is lost. */
export const lastContiguousSeq = (dir: string, workflowId?: string): number =>
  readRun(dir, workflowId).events.at(-1)?.seq ?? 0;
