import type { WorkerReach } from '../core/index.js';
import type { LeaseHolder } from './lease-registry.js';

/**
 * The `workers` table: the workers that take queued work (`baton worker`, `baton serve --worker`), each with what it
 * reaches (its `--worktree-root`s and `--label`s) and a heartbeat by the store's clock, as the leases have. It is
 * how a reader knows whether anything can take queued work: a worker that stops removes its row, one that dies
 * stops heartbeating and its row expires. Operational data beside the event log, like `workflow_leases`.
 */
export interface WorkerRow extends WorkerReach {
  /** The worker's lease identity (`host:pid:start:random`): the leases it takes name it. */
  owner: string;
  command: string;
  started_at: string;
  expires_at: string;
  /** The store's clock when this row was read. */
  now: string;
}

/** How long the row of a worker that died is kept after it expired (`baton status` names it meanwhile). */
export const GONE_WORKER_KEPT_MS = 24 * 60 * 60 * 1000;

export interface WorkerRegistry {
  /**
   * Registers the worker, or moves its heartbeat on (the same call, every third of `ttlMs`): its row expires `ttlMs`
   * after this by the store's clock. Rows of workers gone for longer than GONE_WORKER_KEPT_MS are removed.
   */
  heartbeat(
    holder: LeaseHolder,
    reach: { roots: readonly string[]; labels: readonly string[] },
    ttlMs: number,
  ): Promise<void>;
  /** A worker that stops: its row goes. */
  remove(owner: string): Promise<void>;
  /** Every worker registered, the oldest first (`expired` by the store's clock). */
  list(): Promise<WorkerRow[]>;
}

/** A worker row as both dialects return it (times in milliseconds since the epoch by the store's clock). */
export interface WorkerDbRow {
  owner: string;
  host: string;
  pid: number | string;
  command: string;
  roots: string;
  labels: string;
  started_at: number | string;
  heartbeat_at: number | string;
  expires_at: number | string;
  now: number | string;
}

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

export function workerFromRow(r: WorkerDbRow): WorkerRow {
  return {
    owner: r.owner,
    host: r.host,
    pid: Number(r.pid),
    command: r.command,
    roots: JSON.parse(r.roots) as string[],
    labels: JSON.parse(r.labels) as string[],
    started_at: iso(r.started_at),
    heartbeat_at: iso(r.heartbeat_at),
    expires_at: iso(r.expires_at),
    now: iso(r.now),
    expired: Number(r.expires_at) <= Number(r.now),
  };
}
