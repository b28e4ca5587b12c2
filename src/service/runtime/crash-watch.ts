import {
  interrupt,
  interruptRecovery,
  isTerminal,
  nextRunWords,
  reachFlag,
  workSpanOf,
  type WorkflowState,
} from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import {
  describeOwner,
  LEASE_TTL_MS,
  leaseVerdict,
  type Lease,
  type LeaseHolder,
  type ProcessPorts,
} from './ownership.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { AgentProcess, ExecutorFactory } from './runtime-ports.js';

/** A crash handled: the line that says so, and a remote run still going that the new driver can follow. */
export interface CrashHandled {
  /** What was done and what a person may do next (`baton recover`, `baton run`). */
  line: string;
  /** Why the workflow was recovered (`the driver ... stopped`). */
  cause: string;
  /** What was done alone, for a caller that goes on itself (a worker resuming the workflow). */
  done: string;
  attached: AttachedRun | null;
  /**
   * Why its agent's liveness could not be checked from this process (the Docker engine unreachable): the workflow
   * and its executor row were left as they are, and no driver may start a second agent on its worktree from here.
   */
  unchecked: string | null;
}

/** A run the gone driver left going on an agent host, re-attached: its executor row, the process, its task. */
export interface AttachedRun {
  row: ExecutorRow;
  proc: AgentProcess;
  taskId: string;
}

/**
 * What a follower makes of a re-attached run: who follows it now, in words (`this server follows it`; null: it is
 * left to the next driver), and what it does once the crash is said (starts its run, or says why it cannot), so that
 * its own lines (`resuming ...`) come after the line that says why.
 */
export interface Following {
  by: string | null;
  go: () => void;
}

/** A process that drives agents itself (`baton serve`) follows the re-attached run of a crash it noticed. */
export type CrashFollower = (workflowId: string, run: AttachedRun) => Promise<Following>;
import { recoverAtStartup } from './startup-recovery.js';

export interface CrashWatchOptions {
  ports: ProcessPorts;
  factory: ExecutorFactory;
  /** Where the lines a person should see go (a crash handled, a background save that failed): stderr, the server's log. */
  notice?: (line: string) => void;
}

/** How long a live verdict is trusted in one process before the lease is read again. */
const RECHECK_MS = 1_000;

/**
 * Any command notices a crash: whenever a workflow is read, its lease is checked, and a driver that is gone
 * (verifiably dead, or unverifiable with its lease expired by the store's clock) is handled exactly as startup
 * recovery handles it: its executor rows recovered, an orphaned local agent stopped, the workflow `interrupted`
 * with a crash snapshot and the recovery metadata. One process does it (the lease is taken over compare-and-set).
 */
export class CrashWatch {
  private readonly live = new Map<string, number>();
  private follower: CrashFollower | null = null;

  constructor(
    private readonly service: BatonService,
    private readonly o: CrashWatchOptions,
  ) {}

  get ports(): ProcessPorts {
    return this.o.ports;
  }

  /**
   * Who follows a remote run that a gone driver left going, once its crash is handled here (`baton serve`, which
   * runs agents itself); without one, the run is left to the next driver (`baton run` re-attaches to it).
   */
  followWith(follower: CrashFollower | null): void {
    this.follower = follower;
  }

  /** Checks one workflow's driver; true when a crash was handled (the state changed). */
  async check(s: WorkflowState): Promise<boolean> {
    const registry = this.service.store.leases;
    if (!registry || isTerminal(s.status)) return false;
    const last = this.live.get(s.id);
    if (last !== undefined && Date.now() - last < RECHECK_MS) return false;
    const lease = await registry.get(s.id);
    if (!lease) return false;
    const own = this.o.ports.holder('recovery', 'crash recovery');
    if (lease.owner === own.owner || leaseVerdict(lease, this.o.ports) === 'live') {
      this.live.set(s.id, Date.now());
      return false;
    }
    const handled = await this.recoverCrashed(lease, own, lease.expired);
    if (handled === null) return false;
    await registry.release(s.id, own.owner);
    // released first: the follower's driver takes the lease like any next driver (one wins, compare-and-set)
    const following = handled.attached && this.follower ? await this.follower(s.id, handled.attached) : null;
    // the cause first, then what the follower does about it
    const by = following?.by;
    this.o.notice?.(by ? `${s.id}: ${handled.cause}; ${handled.done}; ${by}` : handled.line);
    following?.go();
    return true;
  }

  /**
   * Checks every workflow that has a driver at once (`baton list`, `baton sessions`, the dashboard's lists): one read
   * of the leases, then a crash handled for each driver that is gone, as `check` does; the workflows it changed.
   */
  async sweep(): Promise<string[]> {
    const registry = this.service.store.leases;
    if (!registry) return [];
    const changed: string[] = [];
    for (const lease of await registry.list()) {
      if (leaseVerdict(lease, this.o.ports) === 'live') continue;
      const s = await this.service.runner.load(lease.workflow_id).catch(() => null);
      if (s && (await this.check(s))) changed.push(s.id);
    }
    return changed;
  }

  /**
   * Takes a gone driver's lease over for `holder` (compare-and-set on the old owner; with `onlyIfExpired`, only
   * while it is still expired), then recovers the workflow. Returns the line that says what was done, or null when
   * another process got there first (or the old owner renewed its lease).
   */
  async recoverCrashed(
    lease: Lease,
    holder: LeaseHolder,
    onlyIfExpired: boolean,
  ): Promise<CrashHandled | null> {
    const svc = this.service;
    const registry = svc.store.leases;
    if (!registry) return null;
    const id = lease.workflow_id;
    const taken = await registry.acquire(id, holder, LEASE_TTL_MS, {
      replace: { owner: lease.owner, onlyIfExpired },
    });
    if (!taken.acquired) return null;
    this.live.delete(id);
    return this.recover(id, `the driver ${describeOwner(lease)} stopped`, lease.heartbeat_at);
  }

  /**
   * For a driver that took a free lease: a run the last driver left going on an agent host (a command that handled
   * that driver's crash found it still running, and left it to the next driver) is re-attached by the same recovery,
   * and returned to be followed. Null when no session of the workflow is still marked running.
   */
  async reattach(workflowId: string): Promise<CrashHandled | null> {
    const rows = (await this.service.store.executors?.list({ workflowId })) ?? [];
    const left = rows.filter(
      (r) => (r.status === 'starting' || r.status === 'ready') && r.session_state === 'running',
    );
    if (!left.length) return null;
    return this.recover(workflowId, 'the driver that ran its agent stopped', left[0]?.last_seen_at ?? null);
  }

  /** Recovers the executor rows a gone driver left (startup recovery's routine): the crash handled, said in one line. */
  private async recover(id: string, why: string, lastHeartbeat: string | null): Promise<CrashHandled> {
    const svc = this.service;
    const report = svc.store.executors
      ? await recoverAtStartup(svc, {
          factory: this.o.factory,
          autoResume: 'none',
          isOwnerAlive: () => false,
          workflowIds: [id],
          runningOnly: true,
          detectedBy: 'lease',
          reason: () => why,
          // the dead agent's row says so: the next driver starts its own (a run still going stays followed)
          stopGone: true,
        })
      : null;
    let s = await svc.runner.load(id);
    const attached = report?.attached[0] ?? null;
    const unchecked = report?.executors.find((e) => e.action === 'unchecked')?.reason ?? null;
    if (unchecked) {
      const done = `${unchecked}; the workflow is left ${s.status}, its agent perhaps still running`;
      return { line: `${id}: ${why}; ${done}`, cause: why, done, attached: null, unchecked };
    }
    if (s.status === 'in_progress' && !attached) {
      // No executor row told (the driver died before launching its agent): interrupt all the same.
      const git = await svc.git.captureGitState(s.worktree, workSpanOf(s));
      const out = await svc.runner.run(id, (d) => {
        if (d.state.status === 'in_progress')
          interrupt(d, why, git, interruptRecovery(d.state, 'lease', lastHeartbeat));
      });
      s = out.state;
    }
    const stopped = (report?.executors ?? []).flatMap((e) =>
      e.stopped_agent_pid ? [e.stopped_agent_pid] : [],
    );
    const agents = stopped.length ? `; its orphaned agent (pid ${stopped.join(', ')}) was stopped` : '';
    const snapshot = s.last_snapshot?.id ?? '?';
    const host = attached ? (attached.row.endpoint ?? attached.row.runtime) : '';
    // a run the host finished while no driver followed it is re-attached too: its output and exit are read
    const running = attached ? await this.o.factory.forRow(attached.row)?.isAlive(attached.row) : false;
    const done =
      s.status === 'interrupted'
        ? `the workflow is now interrupted (crash snapshot ${snapshot})${agents}`
        : attached
          ? running
            ? `its agent still runs on ${host} (task ${attached.taskId})`
            : `its agent ended on ${host} (task ${attached.taskId}) with nobody reading it`
          : `its lease was released (the workflow is ${s.status})${agents}`;
    // queued work is the workers' to take over: `baton run` beside them is not the next step
    const queued = await svc.store.workQueue?.get(id);
    const next =
      s.status === 'interrupted'
        ? queued?.state === 'queued'
          ? `; it is queued, so a worker that reaches it takes it over and resumes it (\`baton status -w ${id}\` says which can; if none runs, start one: \`baton worker ${reachFlag(queued)}\`)`
          : // which next step keeps the agent's own conversation, when one does (said as a recovery says it)
            `; see \`baton recover -w ${id}\`, or ${nextRunWords(s) ?? `continue with \`baton run -w ${id}\``}`
        : attached
          ? `; the next driver (\`baton run -w ${id}\`) re-attaches to it and records what it did`
          : '';
    const line = `${id}: ${why}; ${done}${next}`;
    return { line, cause: why, done, attached, unchecked: null };
  }
}
