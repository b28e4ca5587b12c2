import { bareCheckpointName } from '../checkpoint-names.js';
import { listTotals } from '../fold/bounds.js';
import type { Draft } from '../draft.js';
import { buildSnapshot } from '../snapshot.js';
import type { GitCapture } from '../schemas/git-state.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import type { SessionInfo, SnapshotTrigger } from '../schemas/workflow.js';

/**
 * Emits `snapshot.taken` for the draft's current state and returns the snapshot: of the open session, or of `session`,
 * an earlier one (its number and usage).
 */
export function takeSnapshot(
  d: Draft,
  trigger: SnapshotTrigger,
  reason: string | null,
  git: GitCapture,
  warnings: string[] = [],
  session: SessionInfo | null = null,
): SessionSnapshot {
  const snapshot = buildSnapshot(d.state, {
    id: d.ctx.newId('snap'),
    trigger,
    reason,
    git,
    now: d.ctx.now,
    warnings,
    ...(session ? { session } : {}),
  });
  d.emit({ type: 'snapshot.taken', data: { snapshot } });
  return snapshot;
}

export const slugify = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'checkpoint';

/** The Go Team naming: `cp-03-architecture`, numbered in creation order. */
export function checkpointName(existing: number, name: string): string {
  return `cp-${String(existing + 1).padStart(2, '0')}-${slugify(bareCheckpointName(name))}`;
}

/** A named recovery point: a snapshot plus the git commit it was taken at. */
export function makeCheckpoint(d: Draft, name: string, snapshot: SessionSnapshot) {
  const checkpoint = {
    name: checkpointName(listTotals(d.state).checkpoints, name),
    number: listTotals(d.state).checkpoints + 1,
    snapshot_id: snapshot.id,
    commit: snapshot.git_state?.commit_at_snapshot ?? null,
    branch: snapshot.git_state?.branch ?? null,
    created_at: d.ctx.now,
    seq: d.state.version + 1,
  };
  d.emit({ type: 'checkpoint.created', data: { checkpoint } });
  return checkpoint;
}
