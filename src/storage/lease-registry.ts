/**
 * The ownership lease of a workflow: at most one driver (`baton run`, `baton serve` running agents, a worker) holds
 * it at a time. Every time is the store's own clock (SQLite's `julianday('now')`, PostgreSQL's `clock_timestamp()`),
 * never the caller's, so hosts whose clocks disagree still agree on when a lease expired. Operational data beside
 * the event log, like `executors_running`.
 */
export type LeaseKind = 'run' | 'serve' | 'worker' | 'recovery';

/** Who holds (or asks for) a lease: a process, named so that another process can check whether it is alive. */
export interface LeaseHolder {
  /** Unique per process: `host:pid:start:random`. */
  owner: string;
  host: string;
  pid: number;
  /** The process's start time as the platform gives it (null where it cannot be read). */
  pid_start_time: string | null;
  kind: LeaseKind;
  /** What the holder is doing, for the person who is refused (`baton run --agent claude-code`). */
  command: string;
}

export interface Lease extends LeaseHolder {
  workflow_id: string;
  acquired_at: string;
  heartbeat_at: string;
  expires_at: string;
  /** The store's clock when this row was read. */
  now: string;
  /** `expires_at <= now` by the store's clock. */
  expired: boolean;
}

export interface AcquireOptions {
  /**
   * Take the lease over from this owner (compare-and-set: only while that owner still holds it). With
   * `onlyIfExpired`, only while its lease is expired by the store's clock at the moment of the write.
   */
  replace?: { owner: string; onlyIfExpired: boolean };
}

export interface LeaseRegistry {
  /**
   * Takes the workflow's lease atomically: when nobody holds it, when `holder` already does (a renewal), or when
   * `replace` names its current owner. Otherwise `acquired` is false and `lease` is the current holder's.
   */
  acquire(
    workflowId: string,
    holder: LeaseHolder,
    ttlMs: number,
    opts?: AcquireOptions,
  ): Promise<{ acquired: boolean; lease: Lease }>;
  /** Moves the heartbeat and the expiry on, only while `owner` holds the lease; null when it was taken over. */
  renew(workflowId: string, owner: string, ttlMs: number): Promise<Lease | null>;
  /** Gives the lease up (only the owner can); whether it held it. */
  release(workflowId: string, owner: string): Promise<boolean>;
  get(workflowId: string): Promise<Lease | null>;
  /** Every lease, oldest first. */
  list(): Promise<Lease[]>;
}

/** A lease row as both dialects return it: times in milliseconds since the epoch by the store's clock. */
export interface LeaseDbRow {
  workflow_id: string;
  owner: string;
  host: string;
  pid: number | string;
  pid_start_time: string | null;
  kind: string;
  command: string;
  acquired_at: number | string;
  heartbeat_at: number | string;
  expires_at: number | string;
  now: number | string;
}

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

export function leaseFromRow(r: LeaseDbRow): Lease {
  return {
    workflow_id: r.workflow_id,
    owner: r.owner,
    host: r.host,
    pid: Number(r.pid),
    pid_start_time: r.pid_start_time,
    kind: r.kind as LeaseKind,
    command: r.command,
    acquired_at: iso(r.acquired_at),
    heartbeat_at: iso(r.heartbeat_at),
    expires_at: iso(r.expires_at),
    now: iso(r.now),
    expired: Number(r.expires_at) <= Number(r.now),
  };
}
