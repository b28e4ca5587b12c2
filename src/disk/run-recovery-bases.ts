import { readdirSync } from 'node:fs';
import {
  applyEvent,
  CheckpointRef,
  OPEN_ERRORS_LIMIT,
  RECENT_LIMIT,
  SessionSnapshot,
  TaskSpec,
  WorkflowState,
  type BatonEvent,
  type EventOf,
} from '../core/index.js';
import { readJsonFile, readRegularFile } from './read-json.js';
import { runPaths } from './run-paths.js';

/** A state a damaged run can be rebuilt from, and the seq it stands at. */
export interface Base {
  seq: number;
  source: string;
  state: WorkflowState;
}

export const RESTORE_ACTOR = 'baton-rebuild';

/** The JSON documents of a run folder that describe its workflow, when readable and the run's own. */
export function documents(dir: string, workflowId: string) {
  const p = runPaths(dir);
  const own = (path: string) => {
    const r = readJsonFile(path);
    const v = r.ok ? (r.value as Record<string, unknown> | null) : null;
    return v && typeof v === 'object' && v.workflow_id === workflowId ? v : null;
  };
  const plan = readRegularFile(p.plan);
  return {
    state: own(p.workflowState),
    graph: own(p.taskGraph),
    manifest: own(p.manifest),
    plan: plan.ok ? plan.text : null,
  };
}

/** A workflow.created rebuilt from workflow-state.json, task-graph.json and plan.md (its actor is not known). */
export function createdFromDocuments(dir: string, workflowId: string): Base | null {
  const d = documents(dir, workflowId);
  if (!d.state || !d.graph || !Array.isArray(d.graph.tasks) || d.plan === null) return null;
  const tasks = d.graph.tasks.map((t) => TaskSpec.safeParse(t));
  if (tasks.some((t) => !t.success)) return null;
  const event = {
    v: 1,
    workflow_id: workflowId,
    seq: 1,
    at: String(d.state.created_at),
    actor: RESTORE_ACTOR,
    session_number: null,
    task_id: null,
    type: 'workflow.created',
    data: {
      title: d.state.title,
      issue: d.state.issue ?? null,
      worktree: d.state.worktree,
      plan: d.plan,
      tasks: tasks.map((t) => t.data),
      git_start: d.state.git_start ?? null,
    },
  };
  try {
    const state = applyEvent(null, event as EventOf<'workflow.created'>).state;
    const parsed = WorkflowState.safeParse(state);
    return parsed.success
      ? { seq: 1, source: 'workflow-state.json, task-graph.json and plan.md', state: parsed.data }
      : null;
  } catch {
    return null;
  }
}

/** Every intact snapshot of the run: from readable `snapshot.taken` lines, `checkpoints/` and `snapshots/`. */
export function snapshots(dir: string, workflowId: string, recovered: readonly BatonEvent[]) {
  const p = runPaths(dir);
  const out: { seq: number; source: string; snapshot: SessionSnapshot; checkpoint: CheckpointRef | null }[] =
    [];
  for (const e of recovered)
    if (e.type === 'snapshot.taken')
      out.push({
        seq: e.seq,
        source: `the snapshot.taken event (seq ${e.seq})`,
        snapshot: e.data.snapshot,
        checkpoint: null,
      });
  const list = (folder: string) => {
    try {
      return readdirSync(folder)
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch {
      return [];
    }
  };
  for (const name of list(p.checkpoints)) {
    const r = readJsonFile(`${p.checkpoints}/${name}`);
    if (!r.ok) continue;
    const v = r.value as { checkpoint?: unknown; snapshot?: unknown };
    const cp = CheckpointRef.safeParse(v.checkpoint);
    const snap = SessionSnapshot.safeParse(v.snapshot);
    if (!cp.success || !snap.success || snap.data.workflow_id !== workflowId) continue;
    out.push({ seq: cp.data.seq, source: `checkpoints/${name}`, snapshot: snap.data, checkpoint: cp.data });
  }
  for (const name of list(p.snapshots)) {
    const snap = SessionSnapshot.safeParse(
      (readJsonFile(`${p.snapshots}/${name}`) as { value?: unknown }).value,
    );
    if (!snap.success || snap.data.workflow_id !== workflowId) continue;
    out.push({
      seq: snap.data.through_seq + 1,
      source: `snapshots/${name}`,
      snapshot: snap.data,
      checkpoint: null,
    });
  }
  return out;
}

/** The status a snapshot's workflow had: the run's workflow-state.json when it is as new, else from its tasks. */
function statusAt(snapshot: SessionSnapshot, doc: Record<string, unknown> | null, end: number) {
  const pause = doc?.pause as { at?: string; reason?: string | null; trigger?: string | null } | null;
  const interruption = doc?.interruption as { at?: string; reason?: string | null } | null;
  if (doc && doc.version === end && typeof doc.status === 'string')
    return {
      status: doc.status,
      paused_at: pause?.at ?? null,
      pause_reason: pause?.reason ?? null,
      pause_trigger: pause?.trigger ?? null,
      interrupted_at: interruption?.at ?? null,
      interrupt_reason: interruption?.reason ?? null,
    };
  return { status: snapshot.tasks.some((t) => t.status !== 'pending') ? 'in_progress' : 'pending' };
}

/** The state after a snapshot (and its checkpoint), on the skeleton of what is known of the workflow before it. */
export function stateFromSnapshot(
  skeleton: WorkflowState,
  found: ReturnType<typeof snapshots>[number],
  checkpoints: CheckpointRef[],
  doc: Record<string, unknown> | null,
  end: number,
): WorkflowState | null {
  const s = found.snapshot;
  const resolved = s.errors.filter((e) => e.resolution !== 'unresolved');
  const open = s.errors.filter((e) => e.resolution === 'unresolved');
  const held = checkpoints.filter((c) => c.seq <= found.seq);
  const state = {
    ...skeleton,
    version: found.seq,
    updated_at: found.checkpoint?.created_at ?? s.created_at,
    issue: s.issue,
    plan: s.plan,
    tasks: s.tasks,
    ...statusAt(s, doc, end),
    started_at: skeleton.started_at ?? s.tasks.map((t) => t.started_at).find((x) => x) ?? null,
    session_count: Math.max(skeleton.session_count, s.session_number),
    counts: {
      ...skeleton.counts,
      decisions: s.decisions_total,
      errors: s.errors_total,
      snapshots: Math.max(skeleton.counts.snapshots, 1),
      checkpoints: held.length,
      open_errors: open.length + (s.open_errors_more ?? 0),
    },
    recent_decisions: s.decisions.slice(-RECENT_LIMIT),
    open_errors: open.slice(-OPEN_ERRORS_LIMIT),
    recent_resolved_errors: resolved.slice(-RECENT_LIMIT),
    open_feedback: (s.reviewer_feedback ?? []).filter((f) => !f.addressed),
    test_state: s.test_state,
    usage: s.usage,
    side_effects: s.side_effects,
    checkpoints: held.slice(-RECENT_LIMIT),
    last_snapshot: {
      id: s.id,
      trigger: s.trigger,
      seq: found.checkpoint ? found.checkpoint.seq - 1 : found.seq,
      created_at: s.created_at,
      session_number: s.session_number,
    },
    warnings: s.warnings,
  };
  const parsed = WorkflowState.safeParse(state);
  return parsed.success ? parsed.data : null;
}
