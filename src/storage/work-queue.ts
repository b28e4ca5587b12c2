import { rootPrefix, type WorkFilter, type WorkProfile } from '../core/index.js';
import type { Lease, LeaseHolder } from './lease-registry.js';

/**
 * The queue of runnable work: workflows submitted to be run by any worker (`baton submit`, `baton worker`). A row
 * stays `queued` while the workflow is to be run; whoever holds the workflow's lease (workflow_leases) runs it, so a
 * queued row is claimable when its lease is missing or expired by the store's clock. A worker that dies stops
 * heartbeating; once its lease expires another worker claims the row and takes the workflow over. `done` once a
 * worker finished with it (completed, failed, or stopped for a reason a person must look at). A worker that could
 * not start it (its agent missing there) leaves it `queued`, with why among its `refusals` (`refuse`): one per worker.
 *
 * Order (fairness): the highest `priority` first, then the oldest submission, then the workflow id.
 */
export type QueueState = 'queued' | 'done';

/** How the work is to be run: the `baton run` options that matter, fixed at submit time. */
export type QueueProfile = WorkProfile;

export interface QueueEntry {
  workflow_id: string;
  state: QueueState;
  priority: number;
  /** Where the workflow's files are: a worker takes it only when this is under one of its `--worktree-root`s... */
  worktree: string;
  /** ...or when this label is one of the worker's `--label`s. */
  label: string | null;
  profile: QueueProfile;
  submitted_at: string;
  submitted_by: string;
  /** The worker (lease owner) that claimed it last, and when (store clock). */
  claimed_by: string | null;
  claimed_at: string | null;
  /** How many times it was claimed (a takeover after a crash is one more). */
  attempts: number;
  finished_at: string | null;
  /** How a done row ended; on a queued one, its refusals' reasons in the order they came (null: none). */
  outcome: string | null;
  /** On a queued row: each worker that claimed it and could not start it, oldest first (one per worker). */
  refusals: Refusal[];
}

/** Why one worker (lease owner) could not start queued work it claimed; it stands until that worker claims it again. */
export interface Refusal {
  owner: string;
  reason: string;
  /** When (store clock). */
  at: string;
}

export interface SubmitInput {
  workflow_id: string;
  worktree: string;
  label: string | null;
  priority: number;
  profile: QueueProfile;
  submitted_by: string;
}

export interface ClaimedWork {
  entry: QueueEntry;
  /** The expired lease of a driver that stopped heartbeating, taken over by this claim (null: the lease was free). */
  previous: Lease | null;
}

export interface WorkQueue {
  /** Queues the workflow (again: a resubmission replaces the profile, priority and label and makes it `queued`). */
  submit(input: SubmitInput): Promise<QueueEntry>;
  /**
   * Claims up to `limit` queued rows the filter admits whose lease is free or expired, in queue order, taking each
   * one's lease for `holder` in the same transaction (compare-and-set on the previous owner). Of several workers
   * claiming at once each row goes to exactly one. `skip`: workflows this claimer leaves (it could not start them).
   */
  claim(
    holder: LeaseHolder,
    ttlMs: number,
    filter: WorkFilter,
    limit: number,
    skip?: readonly string[],
  ): Promise<ClaimedWork[]>;
  /**
   * Marks a queued row done with its outcome, only while `owner` is the one that claimed it (null: whoever did, for
   * a workflow that ended outside the queue); whether it did.
   */
  finish(workflowId: string, owner: string | null, outcome: string): Promise<boolean>;
  /**
   * Records why `owner`, which claimed a queued row, could not start it, beside the other workers' reasons (its own
   * earlier one replaced); the row stays queued for a worker that can. `owner` claiming it again clears its own
   * refusal, a resubmission or the row done every one. Whether it did.
   */
  refuse(workflowId: string, owner: string, outcome: string): Promise<boolean>;
  get(workflowId: string): Promise<QueueEntry | null>;
  /** Every row, queued first in queue order, then the done ones (newest first). */
  list(): Promise<QueueEntry[]>;
}

/** A queue row as both dialects return it (times in milliseconds since the epoch by the store's clock). */
export interface QueueDbRow {
  workflow_id: string;
  state: string;
  priority: number | string;
  worktree: string;
  label: string | null;
  profile: string;
  submitted_at: number | string;
  submitted_by: string;
  claimed_by: string | null;
  claimed_at: number | string | null;
  attempts: number | string;
  finished_at: number | string | null;
  outcome: string | null;
}

/** A `work_refusals` row as both dialects return it. */
export interface RefusalDbRow {
  workflow_id: string;
  owner: string;
  reason: string;
  refused_at: number | string;
}

/** The order refusals are said in: the oldest first. */
export const REFUSAL_ORDER = 'refused_at, owner';

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A queue row with its refusals (`refusals`: the row's own, in REFUSAL_ORDER; a done row has none). */
export function queueEntryFromRow(r: QueueDbRow, refusals: readonly RefusalDbRow[] = []): QueueEntry {
  const refused = r.state === 'queued' ? refusals.filter((x) => x.workflow_id === r.workflow_id) : [];
  return {
    workflow_id: r.workflow_id,
    state: r.state as QueueState,
    priority: Number(r.priority),
    worktree: r.worktree,
    label: r.label,
    profile: JSON.parse(r.profile) as QueueProfile,
    submitted_at: iso(r.submitted_at) ?? '',
    submitted_by: r.submitted_by,
    claimed_by: r.claimed_by,
    claimed_at: iso(r.claimed_at),
    attempts: Number(r.attempts),
    finished_at: iso(r.finished_at),
    outcome: r.state === 'queued' ? refused.map((x) => x.reason).join('; ') || null : r.outcome,
    refusals: refused.map((x) => ({ owner: x.owner, reason: x.reason, at: iso(x.refused_at) ?? '' })),
  };
}

/**
 * The SQL condition of a filter on `q.worktree` and `q.label` (what `admits` says of one row in hand), with its parameters from `first` on (`$n` on
 * PostgreSQL, `?` on SQLite). No root and no label admits nothing.
 */
export function filterSql(
  filter: WorkFilter,
  param: (i: number) => string,
  first: number,
): { sql: string; params: string[] } {
  const under: string[] = [];
  const params: string[] = [];
  const p = (v: string) => {
    params.push(v);
    return param(first + params.length - 1);
  };
  for (const root of filter.roots) {
    const prefix = rootPrefix(root);
    under.push(`q.worktree = ${p(root)}`);
    under.push(`substr(q.worktree, 1, length(CAST(${p(prefix)} AS TEXT))) = ${p(prefix)}`);
  }
  const parts = under.length ? [`(q.label IS NULL AND (${under.join(' OR ')}))`] : [];
  if (filter.labels.length) parts.push(`q.label IN (${filter.labels.map((l) => p(l)).join(', ')})`);
  return { sql: parts.length ? `(${parts.join(' OR ')})` : 'false', params };
}

/** The SQL condition leaving out the `skip` workflows of a claim, with its parameters from `first` on. */
export function skipSql(
  skip: readonly string[],
  param: (i: number) => string,
  first: number,
): { sql: string; params: string[] } {
  if (!skip.length) return { sql: 'true', params: [] };
  return {
    sql: `q.workflow_id NOT IN (${skip.map((_, i) => param(first + i)).join(', ')})`,
    params: [...skip],
  };
}

export const QUEUE_ORDER = 'q.priority DESC, q.submitted_at, q.workflow_id';
