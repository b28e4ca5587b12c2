import { applyEvent, foldEvents, type BatonEvent, type RecordRow } from '../core/index.js';
import {
  createdFromDocuments,
  documents,
  RESTORE_ACTOR,
  snapshots,
  stateFromSnapshot,
  type Base,
} from './run-recovery-bases.js';

export { RESTORE_ACTOR };

/** How a run whose log lost events is rebuilt: a `workflow.restored` event, then the readable events after it. */
export interface Restoration {
  /** The events to import: `workflow.restored` at `base`, then base+1..end. */
  events: BatonEvent[];
  source: string;
  /** The seqs up to `end` whose events are unreadable. */
  lost: { from: number; to: number }[];
  base: number;
  end: number;
  /** Readable events neither in the rebuilt log nor in its base (after a hole no checkpoint or snapshot bridges). */
  unused: number;
}

/** Inclusive ranges of the seqs in 1..end that `have` lacks. */
export function missingRanges(have: ReadonlySet<number>, end: number) {
  const out: { from: number; to: number }[] = [];
  for (let s = 1; s <= end; s++) {
    if (have.has(s)) continue;
    const last = out[out.length - 1];
    if (last && last.to === s - 1) last.to = s;
    else out.push({ from: s, to: s });
  }
  return out;
}

export const describeRanges = (r: readonly { from: number; to: number }[]) =>
  r.map((x) => (x.from === x.to ? `${x.from}` : `${x.from}..${x.to}`)).join(', ');

/** What is known of the workflow before a snapshot: the readable start of its log, else its documents. */
function skeletonOf(dir: string, workflowId: string, prefix: readonly BatonEvent[], before: number) {
  const head = prefix.filter((e) => e.seq < before);
  if (head.length) return foldEvents(head);
  const created = createdFromDocuments(dir, workflowId);
  return created ? { state: created.state, writes: [] as RecordRow[] } : null;
}

const STATELESS = new Set([
  'decision.recorded',
  'error.recorded',
  'history.recorded',
  'feedback.recorded',
  'test_run.recorded',
  'usage.recorded',
  'snapshot.taken',
  'checkpoint.created',
  // Its `import` record is where a later import of that transcript finds its byte offset.
  'transcript.imported',
]);

/**
 * Plans the rebuild of a run whose log has a hole (or lost its first line): from the newest base that reaches
 * furthest (an intact checkpoint or snapshot, or a workflow.created rebuilt from the run's JSON documents) plus
 * the readable events after it. Null when the readable start of the log (`prefix`) reaches as far.
 */
export function planRestoration(
  dir: string,
  workflowId: string,
  recovered: readonly BatonEvent[],
  prefix: readonly BatonEvent[],
): Restoration | null {
  const bySeq = new Map(recovered.map((e) => [e.seq, e]));
  const reach = (from: number) => {
    let end = from;
    while (bySeq.has(end + 1)) end++;
    return end;
  };
  const prefixEnd = prefix.length;
  const found = snapshots(dir, workflowId, recovered);
  const checkpoints = found.flatMap((f) => (f.checkpoint ? [f.checkpoint] : []));
  for (const e of recovered) if (e.type === 'checkpoint.created') checkpoints.push(e.data.checkpoint);
  const uniqueCheckpoints = [...new Map(checkpoints.map((c) => [c.name, c])).values()].sort(
    (a, b) => a.number - b.number,
  );
  const doc = documents(dir, workflowId).state;

  // Candidate bases, cheapest first: a rebuilt workflow.created, then the snapshots by seq.
  const candidates: { seq: number; build: () => Base | null }[] = [];
  if (!bySeq.has(1)) candidates.push({ seq: 1, build: () => createdFromDocuments(dir, workflowId) });
  for (const f of [...found].sort((a, b) => a.seq - b.seq)) {
    if (f.seq <= prefixEnd) continue;
    candidates.push({
      seq: f.seq,
      build: () => {
        const skeleton = skeletonOf(dir, workflowId, prefix, f.seq);
        if (!skeleton) return null;
        const state = stateFromSnapshot(skeleton.state, f, uniqueCheckpoints, doc, reach(f.seq));
        return state ? { seq: f.seq, source: f.source, state } : null;
      },
    });
  }
  let best: { base: Base; end: number } | null = null;
  for (const c of candidates) {
    const end = reach(c.seq);
    if (end <= prefixEnd || (best && end <= best.end)) continue;
    const base = c.build();
    if (base) best = { base, end };
  }
  const last = recovered[recovered.length - 1]?.seq ?? 0;
  let unused = 0;
  if (!best) {
    // No base bridges the hole: the readable start of the log is the state, standing at the last seq the folder
    // holds, so the workflow's next events never take a seq that the folder's unused lines already claim.
    if (prefix[0]?.type !== 'workflow.created' || last <= prefixEnd) return null;
    const source = `events 1..${prefixEnd} (the readable start of the log)`;
    best = { base: { seq: last, source, state: foldEvents(prefix).state }, end: last };
    unused = recovered.filter((e) => e.seq > prefixEnd).length;
  }
  const { base, end } = best;
  // What the base stands for: everything up to its seq, or (no base bridged the hole) only the readable start.
  const covered = unused ? prefixEnd : base.seq;
  const records = new Map<string, RecordRow>();
  const keep = (rows: readonly RecordRow[]) => rows.forEach((r) => records.set(`${r.kind}/${r.id}`, r));
  keep(skeletonOf(dir, workflowId, prefix, base.seq)?.writes ?? []);
  for (const e of recovered)
    if (e.seq > prefixEnd && e.seq <= covered && STATELESS.has(e.type))
      keep(applyEvent(base.state, e).writes);
  for (const f of found)
    if (f.seq <= covered)
      keep([
        {
          workflow_id: workflowId,
          kind: 'snapshot',
          id: f.snapshot.id,
          seq: f.snapshot.through_seq + 1,
          task_id: null,
          session_number: f.snapshot.session_number,
          created_at: f.snapshot.created_at,
          data: f.snapshot,
        },
      ]);
  for (const c of uniqueCheckpoints)
    if (c.seq <= covered)
      keep([
        {
          workflow_id: workflowId,
          kind: 'checkpoint',
          id: c.name,
          seq: c.seq,
          task_id: null,
          session_number: null,
          created_at: c.created_at,
          data: c,
        },
      ]);
  const have = new Set(recovered.map((e) => e.seq));
  const lost = missingRanges(have, end);
  const restored = {
    v: 1 as const,
    workflow_id: workflowId,
    seq: base.seq,
    at: base.state.updated_at,
    actor: RESTORE_ACTOR,
    session_number: null,
    task_id: null,
    type: 'workflow.restored' as const,
    data: {
      state: base.state,
      records: [...records.values()].map(({ workflow_id: _, ...r }) => r),
      source: base.source,
      lost,
    },
  };
  const tail = recovered.filter((e) => e.seq > base.seq && e.seq <= end);
  return { events: [restored, ...tail], source: base.source, lost, base: base.seq, end, unused };
}
