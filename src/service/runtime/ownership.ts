import { conflict } from '../../core/index.js';
import type { Lease, LeaseHolder, LeaseKind, LeaseRegistry } from '../../storage/lease-registry.js';
import type { BatonService } from '../baton-service.js';
import type { CrashHandled } from './crash-watch.js';

export type { Lease, LeaseHolder, LeaseKind };

/** What a liveness check can say; `unknown` is never taken for dead (see src/executors/process-identity.ts). */
export type Liveness = 'alive' | 'dead' | 'unknown';

/** What the service needs to know about processes (implemented over pid + start time in src/executors/local). */
export interface ProcessPorts {
  readonly hostname: string;
  /** This process as the holder of a lease. */
  holder(kind: LeaseKind, command: string): LeaseHolder;
  /** A process recorded on some host: alive, verifiably dead, or impossible to check from here. */
  liveness(p: { host: string; pid: number | null; start: string | null }): Liveness;
  /** Stops a verified process of this host (SIGTERM, then SIGKILL after `graceMs`); whether it is gone. */
  stop(pid: number, start: string | null, graceMs: number): Promise<boolean>;
}

/** How long a lease lives without a heartbeat; drivers renew it every third of that. */
export const LEASE_TTL_MS = 30_000;

/**
 * A lease's owner is gone when it is verifiably dead (same host: no process with its pid, or its pid started at
 * another time), or when it cannot be checked from here and its lease expired by the store's clock.
 */
export function leaseVerdict(lease: Lease, ports: ProcessPorts): 'live' | 'gone' {
  const v = ports.liveness({ host: lease.host, pid: lease.pid, start: lease.pid_start_time });
  return v === 'dead' || (v === 'unknown' && lease.expired) ? 'gone' : 'live';
}

const ago = (lease: Lease) =>
  Math.max(0, Math.round((Date.parse(lease.now) - Date.parse(lease.heartbeat_at)) / 1000));

/** "`baton run --agent claude-code` (pid 4242 on host-a, last heartbeat 3 s ago)". */
export const describeOwner = (lease: Lease) =>
  `\`${lease.command}\` (pid ${lease.pid} on ${lease.host}, last heartbeat ${ago(lease)} s ago)`;

/** Workflows driven in this process: a second driver in one process is refused like one in another process. */
const drivenHere = new Map<string, string>();

/** A lease this process holds: renewed on a timer by the store's clock until released or lost. */
export class HeldLease {
  private timer: NodeJS.Timeout | null = null;
  private lostTo: Lease | null | undefined = undefined;

  constructor(
    private readonly registry: LeaseRegistry,
    readonly workflowId: string,
    readonly owner: string,
    private readonly ttlMs: number,
    private readonly onLost: (current: Lease | null) => void = () => undefined,
  ) {}

  /** Whether another process took the lease over (this process must stop driving the workflow). */
  get lost(): boolean {
    return this.lostTo !== undefined;
  }

  start(): this {
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
    return this;
  }

  /** One heartbeat now; false once the lease is lost. */
  async renew(): Promise<boolean> {
    if (this.lost) return false;
    const r = await this.registry.renew(this.workflowId, this.owner, this.ttlMs).catch(() => undefined);
    // A store that cannot be reached is not a lost lease: the next heartbeat tries again.
    if (r === undefined || r !== null) return true;
    this.lostTo = await this.registry.get(this.workflowId).catch(() => null);
    this.stopTimer();
    this.onLost(this.lostTo);
    return false;
  }

  private stopTimer() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async release(): Promise<void> {
    this.stopTimer();
    if (drivenHere.get(this.workflowId) === this.owner) drivenHere.delete(this.workflowId);
    if (!this.lost) await this.registry.release(this.workflowId, this.owner).catch(() => undefined);
  }
}

export const noLeases = () =>
  conflict('this store has no workflow_leases table: the agent runtime needs the SQLite or PostgreSQL store');

/** The refusal a second driver gets: who holds the workflow and how to take it over. */
export function refusal(workflowId: string, lease: Lease, retry: string) {
  return conflict(
    `workflow ${workflowId} already has a driver: ${describeOwner(lease)}; one driver per workflow. ` +
      `To take over: \`${retry} --take-over\` (stops the old driver first, or waits for its lease to expire)`,
    {
      owner: lease.owner,
      host: lease.host,
      pid: lease.pid,
      command: lease.command,
      lease_expires_at: lease.expires_at,
    },
  );
}

export interface ClaimOptions {
  ports: ProcessPorts;
  kind: LeaseKind;
  /** What this driver is (`baton run --agent claude-code`), shown to whoever is refused. */
  command: string;
  /** The exact command a refused user runs again with `--take-over`. */
  retry: string;
  takeOver: boolean;
  ttlMs?: number;
  /** Called when a crash of the previous driver was handled on the way (one line). */
  notice?: (line: string) => void;
  onLost?: (current: Lease | null) => void;
  /** Recovers a workflow whose driver is gone (the crash watch's routine). */
  recoverCrashed: (lease: Lease, holder: LeaseHolder, onlyIfExpired: boolean) => Promise<CrashHandled | null>;
}

/**
 * A claimed workflow: the lease, a remote run of the old driver still going, to be followed, and why the old
 * driver's agent could not be checked from here (then nothing was written off, and no agent may be started).
 */
export interface Claim {
  lease: HeldLease;
  attached: CrashHandled['attached'];
  unchecked: CrashHandled['unchecked'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes the workflow's lease for a driver. Free: taken. Held by a driver that is gone: its crash is handled exactly
 * as startup recovery would (crash snapshot, orphaned agent stopped), then taken. Held by a live driver: refused
 * (exit 3) unless `takeOver`, which stops a driver of this host first, or waits for another host's lease to expire
 * by the store's clock (refused again if it keeps heartbeating).
 */
export async function claimWorkflow(
  service: BatonService,
  workflowId: string,
  o: ClaimOptions,
): Promise<Claim> {
  const registry = service.store.leases;
  if (!registry) throw noLeases();
  const ttl = o.ttlMs ?? LEASE_TTL_MS;
  const holder = o.ports.holder(o.kind, o.command);
  const here = drivenHere.get(workflowId);
  if (here && here === holder.owner) {
    const lease = await registry.get(workflowId);
    if (lease) throw refusal(workflowId, lease, o.retry);
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const r = await registry.acquire(workflowId, holder, ttl);
    let lease = r.lease;
    if (r.acquired)
      return { lease: held(registry, workflowId, holder.owner, ttl, o), attached: null, unchecked: null };
    const verdict = leaseVerdict(lease, o.ports);
    let onlyIfExpired = verdict === 'gone' && lease.expired;
    if (verdict === 'live') {
      if (!o.takeOver) throw refusal(workflowId, lease, o.retry);
      const v = o.ports.liveness({ host: lease.host, pid: lease.pid, start: lease.pid_start_time });
      if (v === 'alive') {
        o.notice?.(`taking over ${workflowId}: stopping ${describeOwner(lease)}`);
        if (!(await o.ports.stop(lease.pid, lease.pid_start_time, 10_000)))
          throw conflict(`cannot stop the driver of ${workflowId} (pid ${lease.pid} on ${lease.host})`);
        onlyIfExpired = false;
      } else {
        // Another host (or no start time): never guess. Wait for its lease to expire by the store's clock.
        o.notice?.(
          `taking over ${workflowId}: ${describeOwner(lease)} cannot be checked from here; waiting for its lease to expire at ${lease.expires_at} (store clock)`,
        );
        const beat = lease.heartbeat_at;
        for (;;) {
          await sleep(Math.min(1_000, Math.max(20, ttl / 10)));
          const now = await registry.get(workflowId);
          if (!now || now.owner !== lease.owner) break;
          if (now.heartbeat_at !== beat)
            throw conflict(
              `the driver of ${workflowId} is alive: ${describeOwner(now)} keeps heartbeating; stop it on ${now.host}, then run again`,
              { owner: now.owner, host: now.host, pid: now.pid },
            );
          lease = now;
          if (now.expired) break;
        }
        onlyIfExpired = true;
      }
    }
    const handled = await o.recoverCrashed(lease, holder, onlyIfExpired);
    if (handled === null) continue; // someone else moved first: ask again
    o.notice?.(handled.line);
    return {
      lease: held(registry, workflowId, holder.owner, ttl, o),
      attached: handled.attached,
      unchecked: handled.unchecked,
    };
  }
  throw conflict(`workflow ${workflowId}: its lease keeps changing hands; try again`);
}

function held(registry: LeaseRegistry, workflowId: string, owner: string, ttl: number, o: ClaimOptions) {
  drivenHere.set(workflowId, owner);
  return new HeldLease(registry, workflowId, owner, ttl, o.onLost).start();
}
