import {
  admits,
  BatonError,
  formatSpan,
  isTerminal,
  refusedOutcome,
  runnableClaim,
  WORKER_STOP_REASON,
  workOutcome,
  type WorkFilter,
} from '../../core/index.js';
import type { ClaimedWork, QueueEntry } from '../../storage/work-queue.js';
import type { LeaseHolder } from '../../storage/lease-registry.js';
import type { BatonService } from '../baton-service.js';
import { workQueueOf } from '../work-submit.js';
import { AgentRunner } from './agent-runner.js';
import type { RunOptions } from './run-options.js';
import { CrashWatch } from './crash-watch.js';
import { describeOwner, leaseVerdict, type ProcessPorts } from './ownership.js';
import type { RunEvent } from './run-events.js';
import type { AgentProcess, ExecutorFactory } from './runtime-ports.js';

/** What a worker reports (`baton worker` prints these, or NDJSON with --json), beside its runs' own events. */
export type WorkerEvent =
  | { event: 'worker.started'; owner: string; concurrency: number; roots: string[]; labels: string[] }
  | { event: 'work.claimed'; workflow_id: string; priority: number; attempts: number; agent: string }
  | { event: 'work.taken_over'; workflow_id: string; from: string; message: string }
  | { event: 'work.finished'; workflow_id: string; status: string; outcome: string; done: boolean }
  | { event: 'work.error'; workflow_id: string | null; message: string }
  | { event: 'worker.stopping'; reason: string; running: string[] }
  | { event: 'worker.stopped'; owner: string }
  | RunEvent;

/** A claimed entry's run options; the edge builds them from the entry's agent profile (and may refuse: a BatonError). */
export type RunOptionsFor = (
  entry: QueueEntry,
) => Omit<RunOptions, 'ownership' | 'signal' | 'beforeRelease' | 'onEvent' | 'log'>;

export interface WorkerOptions {
  concurrency: number;
  filter: WorkFilter;
  ports: ProcessPorts;
  factory: ExecutorFactory;
  /** Lease lifetime without a heartbeat; renewed every third of it. */
  ttlMs: number;
  /** How often the queue is asked when a slot is free and nothing was found. */
  pollMs: number;
  /** How long work this worker could not start is left before it checks again whether it can (`--recheck`). */
  recheckMs: number;
  /** What this worker is, shown to a person refused by its lease: `baton worker --concurrency 4`. */
  command: string;
  runOptions: RunOptionsFor;
  onEvent: (e: WorkerEvent) => void;
}

/**
 * `baton worker`: claims runnable work from the queue (with the lease, in one transaction) and runs up to
 * `concurrency` workflows at once through the run loop of `baton run`. A claimed workflow whose previous driver
 * stopped heartbeating is first recovered exactly as startup recovery does (crash snapshot, orphaned agent stopped),
 * then resumed by the run loop. `stop()` once: no new claims, each running workflow pauses at its next task boundary
 * and its lease is released (another worker continues it); twice: the agents are stopped now (interrupted).
 */
export class Worker {
  private readonly running = new Map<string, Promise<void>>();
  /**
   * Work this worker could not start (its agent missing here): the workflow id, its submission time then, and when to
   * check again whether it can. It leaves it (others may take it) until then, or until it is submitted again; a
   * restart forgets, so it tries once more.
   */
  private readonly refused = new Map<string, { submittedAt: string; checkAt: number }>();
  private readonly abort = new AbortController();
  private stopping = false;
  private wake: () => void = () => undefined;
  readonly holder: LeaseHolder;

  constructor(
    private readonly service: BatonService,
    private readonly o: WorkerOptions,
  ) {
    this.holder = o.ports.holder('worker', o.command);
  }

  /** The workflows running now. */
  get active(): string[] {
    return [...this.running.keys()];
  }

  /** Whether this worker will take the workflow: queued, under its roots or labels, and not one it could not start. */
  async takes(workflowId: string): Promise<boolean> {
    const e = await workQueueOf(this.service).get(workflowId);
    return (
      e !== null &&
      e.state === 'queued' &&
      admits(this.o.filter, e) &&
      !(await this.leaves()).includes(e.workflow_id)
    );
  }

  /**
   * The work this worker leaves: what it could not start, unless it was submitted again (or left the queue) since, or
   * it checked again and found nothing stops it now.
   */
  private async leaves(): Promise<string[]> {
    const queue = workQueueOf(this.service);
    for (const [id, r] of this.refused) {
      const e = await queue.get(id);
      if (e?.state !== 'queued' || e.submitted_at !== r.submittedAt) this.refused.delete(id);
      else if (Date.now() >= r.checkAt && this.startable(e)) {
        // Claimed again at once: a refusal only starting tells (an engine still down) is recorded again, and the
        // work left for another interval, never failed at every poll.
        this.refused.delete(id);
        this.o.onEvent({
          event: 'note',
          workflow_id: id,
          message: 'checked again: nothing stops this worker from starting it now, so it claims it again',
        });
      } else if (Date.now() >= r.checkAt) r.checkAt = Date.now() + this.o.recheckMs;
    }
    return [...this.refused.keys()];
  }

  /**
   * Whether the checks made before an agent starts (the profile, its program found and executable here) pass now for
   * this entry: the same run options a claim builds, without claiming it.
   */
  private startable(e: QueueEntry): boolean {
    try {
      this.o.runOptions(e);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Says in the worker registry that this worker runs and what it reaches (every third of its lease lifetime), so a
   * reader can tell whether anything takes queued work; a failure is said and tried again at the next poll.
   */
  private async register(last: number): Promise<number> {
    const registry = this.service.store.workers;
    if (!registry || Date.now() - last < this.o.ttlMs / 3) return last;
    try {
      await registry.heartbeat(this.holder, this.o.filter, this.o.ttlMs);
      return Date.now();
    } catch (e) {
      this.o.onEvent({ event: 'work.error', workflow_id: null, message: (e as Error).message });
      return last;
    }
  }

  async run(): Promise<void> {
    const queue = workQueueOf(this.service);
    const o = this.o;
    let registered = await this.register(-Infinity);
    o.onEvent({
      event: 'worker.started',
      owner: this.holder.owner,
      concurrency: o.concurrency,
      roots: [...o.filter.roots],
      labels: [...o.filter.labels],
    });
    while (!this.stopping) {
      registered = await this.register(registered);
      const free = o.concurrency - this.running.size;
      if (free > 0) {
        try {
          const skip = await this.leaves();
          for (const c of await queue.claim(this.holder, o.ttlMs, o.filter, free, skip)) this.start(c);
        } catch (e) {
          // A database that cannot be reached now is asked again at the next poll; said, never swallowed.
          o.onEvent({ event: 'work.error', workflow_id: null, message: (e as Error).message });
        }
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, o.pollMs);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
    await Promise.all(this.running.values());
    // gone from the registry: what it queued waits for another worker, and readers say so
    await this.service.store.workers?.remove(this.holder.owner).catch(() => undefined);
    o.onEvent({ event: 'worker.stopped', owner: this.holder.owner });
  }

  /** First call: drain (pause at the task boundary, release); second call: stop the agents now. */
  async stop(reason: string): Promise<void> {
    if (this.stopping) {
      this.abort.abort(reason);
      return;
    }
    this.stopping = true;
    this.wake();
    this.o.onEvent({ event: 'worker.stopping', reason, running: this.active });
    await Promise.all(
      this.active.map((id) =>
        this.service
          .pause({ workflowId: id }, { reason: WORKER_STOP_REASON })
          .catch((e: Error) => this.o.onEvent({ event: 'work.error', workflow_id: id, message: e.message })),
      ),
    );
  }

  private start(c: ClaimedWork) {
    const id = c.entry.workflow_id;
    const job = this.work(c).then((ok) => {
      this.running.delete(id);
      // a slot freed by finished work is filled at once (after the event loop's turn: timers and signals run);
      // after an error, at the next poll, never in a busy loop of claims refused again
      if (ok) setImmediate(() => this.wake());
    });
    this.running.set(id, job);
  }

  /** Runs one claimed workflow; false when it ended in an error (said as `work.error`). */
  private async work(c: ClaimedWork): Promise<boolean> {
    const svc = this.service;
    const o = this.o;
    const queue = workQueueOf(svc);
    const owner = this.holder.owner;
    const id = c.entry.workflow_id;
    const release = () => svc.store.leases?.release(id, owner).catch(() => false);
    try {
      if (this.stopping) {
        await release();
        return true;
      }
      let attached: { proc: AgentProcess; taskId: string } | undefined;
      if (c.previous && leaseVerdict(c.previous, o.ports) === 'live') {
        // Its heartbeat was late, not its death (a process of this host, verifiably alive): the lease goes back.
        const p = c.previous;
        await svc.store.leases?.acquire(id, p, o.ttlMs, { replace: { owner, onlyIfExpired: false } });
        o.onEvent({
          event: 'note',
          workflow_id: id,
          message: `left to ${describeOwner(p)}: its heartbeat was late, it is alive`,
        });
        return true;
      }
      if (c.previous) {
        // The previous driver stopped heartbeating: recovered exactly as startup recovery does, then resumed.
        const watch = svc.watch ?? new CrashWatch(svc, { ports: o.ports, factory: o.factory });
        const handled = await watch.recoverCrashed(c.previous, this.holder, true);
        attached = handled?.attached ?? undefined;
        o.onEvent({
          event: 'work.taken_over',
          workflow_id: id,
          from: describeOwner(c.previous),
          message: `${handled?.done ?? 'taken over'}; this worker continues it`,
        });
      } else
        o.onEvent({
          event: 'work.claimed',
          workflow_id: id,
          priority: c.entry.priority,
          attempts: c.entry.attempts,
          agent: c.entry.profile.agent,
        });
      const s = await svc.runner.load(id);
      const held = runnableClaim(s);
      const notRunnable =
        held && !isTerminal(s.status)
          ? `${held}: resuming it (baton resume, the API, the dashboard) queues it again`
          : held;
      if (notRunnable) {
        await queue.finish(id, owner, notRunnable);
        await release();
        o.onEvent({
          event: 'work.finished',
          workflow_id: id,
          status: s.status,
          outcome: notRunnable,
          done: true,
        });
        return true;
      }
      // Told to stop while recovering it: left queued (paused or interrupted) for the next worker.
      if (this.stopping) {
        await release();
        return true;
      }
      await new AgentRunner(svc).run(
        { workflowId: id },
        {
          ...o.runOptions(c.entry),
          ownership: {
            ports: o.ports,
            factory: o.factory,
            kind: 'worker',
            command: o.command,
            retry: `baton run -w ${id} --agent ${c.entry.profile.agent}`,
            takeOver: false,
            ttlMs: o.ttlMs,
          },
          signal: this.abort.signal,
          onEvent: o.onEvent,
          log: (message) => o.onEvent({ event: 'note', workflow_id: id, message }),
          beforeRelease: async (report) => {
            const now = await svc.runner.load(id);
            const out = workOutcome({ ...now, stopped: report.stopped, failed: report.failed });
            if (out.done) await queue.finish(id, owner, out.outcome);
            o.onEvent({ event: 'work.finished', workflow_id: id, status: now.status, ...out });
          },
        },
        attached,
      );
    } catch (e) {
      const message = (e as Error).message;
      o.onEvent({ event: 'work.error', workflow_id: id, message });
      // A refusal no retry at the next poll fixes (no such agent, its binary missing, an engine down): the work stays
      // queued with why (`baton queue`, `baton status`), for a worker that can start it; this one leaves it until it
      // finds it can (checked every --recheck) or it is submitted again, rather than claiming it and failing again at
      // every poll. Other errors: claimed again at the next poll.
      const refused = BatonError.isInstance(e) ? refusedOutcome(e, this.holder) : null;
      if (refused && (await queue.refuse(id, owner, refused).catch(() => false))) {
        this.refused.set(id, { submittedAt: c.entry.submitted_at, checkAt: Date.now() + o.recheckMs });
        o.onEvent({
          event: 'note',
          workflow_id: id,
          message: `left queued for a worker that can start it; this one checks again in ${formatSpan(o.recheckMs)} whether it can, and takes it then (or once it is submitted again: \`baton submit\`)`,
        });
      }
      await release();
      return false;
    }
    return true;
  }
}
