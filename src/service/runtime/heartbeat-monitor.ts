import { interrupt, interruptRecovery, isTerminal, workSpanOf, Draft } from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import { noRegistry } from './launch.js';
import { releaseExecutorRow } from './release-executor.js';
import type { ExecutorFactory } from './runtime-ports.js';

export interface SweepReport {
  /** Executors found silent (running, no heartbeat for `silenceMs`). */
  silent: string[];
  /** Workflows marked `interrupted` (crash snapshot and recovery metadata). */
  interrupted: string[];
}

/**
 * One pass of the heartbeat monitor: a running session whose executor has not heartbeat for `silenceMs` is
 * interrupted (one on an agent host or in a container whose driver is gone is the next driver's to re-attach to). Its
 * workflow becomes `interrupted` with a crash snapshot and the Go Team recovery metadata; a
 * local agent still alive (by pid and start time) is stopped, since nobody follows its output; the executor row is
 * closed as any ended session's is (`releaseExecutorRow`: `stopped`, the reason kept on it), its session
 * `waiting_for_input` when it can resume (the token is kept), else `error`: a later `baton serve` never takes it for
 * live; the workflow goes on with `baton run -w <id>`.
 */
export async function sweepSilentSessions(
  service: BatonService,
  opts: { silenceMs: number; factory: ExecutorFactory },
): Promise<SweepReport> {
  const registry = service.store.executors;
  if (!registry) throw noRegistry();
  const nowMs = (service.options.now?.() ?? new Date()).getTime();
  const rows = (await registry.list({ status: ['starting', 'ready'] })).filter(
    (r) => r.session_state === 'running' && nowMs - Date.parse(r.last_seen_at) > opts.silenceMs,
  );
  const report: SweepReport = { silent: [], interrupted: [] };
  for (const row of rows) {
    // Re-read: the session may have heartbeat or ended since the list.
    const fresh = await registry.get(row.id);
    if (!fresh || fresh.session_state !== 'running' || fresh.last_seen_at !== row.last_seen_at) continue;
    const lease = (await service.store.leases?.get(row.workflow_id)) ?? null;
    // An agent that outlives its driver (on an agent host, in a container) whose driver is gone is not silent: the
    // gone-driver sweep before this one left its run to the next driver, which re-attaches to it, running or ended.
    if (row.runtime !== 'local' && service.store.leases && (!lease || lease.expired)) continue;
    // a driver that took the workflow over within the silence has not had the time to heartbeat its row yet
    if (lease && !lease.expired && nowMs - Date.parse(lease.acquired_at) <= opts.silenceMs) continue;
    report.silent.push(row.id);
    const executor = opts.factory.forRow(row);
    // a local agent still running is stopped, with what it started (the executor knows how)
    if (row.runtime === 'local' && executor && (await executor.isAlive(row))) await executor.release(row);
    const resumable = row.supports_session_resume && row.resume_token !== null;
    const silentFor = Math.round((nowMs - Date.parse(row.last_seen_at)) / 1000);
    const reason = `heartbeat_timeout: no heartbeat for ${silentFor}s (last ${row.last_seen_at})`;
    // its session is over: the row is closed as every ended session's is (the workflow goes on in a new one)
    await releaseExecutorRow(service, row, {
      sessionState: resumable ? 'waiting_for_input' : 'error',
      reason,
      keepReason: true,
    });
    const wf = await service.store.loadState(row.workflow_id);
    if (!wf || isTerminal(wf.status)) continue;
    const git =
      wf.status === 'in_progress' ? await service.git.captureGitState(wf.worktree, workSpanOf(wf)) : null;
    let interrupted = false;
    await service.runner.run(
      wf.id,
      (d: Draft, s) => {
        if (git && s.status === 'in_progress' && s.session_count === row.session_number) {
          interrupt(
            d,
            `the agent session went silent: ${reason}`,
            git,
            interruptRecovery(s, 'heartbeat', row.last_seen_at),
          );
          interrupted = true;
        }
      },
      { retry: true },
    );
    if (interrupted) report.interrupted.push(wf.id);
  }
  return report;
}

/**
 * Drivers that are gone (a `baton run` SIGKILLed beside this server, a worker whose lease expired by the store's
 * clock): each such workflow is handled by the crash watch exactly as a command reading it would.
 */
export async function sweepGoneDrivers(service: BatonService): Promise<string[]> {
  const leases = service.store.leases;
  const watch = service.watch;
  if (!leases || !watch) return [];
  const handled: string[] = [];
  for (const l of await leases.list()) {
    const s = await service.store.loadState(l.workflow_id);
    if (s && (await watch.check(s))) handled.push(s.id);
  }
  return handled;
}

/** Runs `sweepSilentSessions` on a timer (in `baton serve`); one pass at a time, errors reported, never thrown. */
export class HeartbeatMonitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly service: BatonService,
    private readonly opts: {
      silenceMs: number;
      everyMs: number;
      factory: ExecutorFactory;
      onSweep?: (r: SweepReport) => void;
      onError?: (e: Error) => void;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.running.then(() =>
        sweepGoneDrivers(this.service)
          .then(() => sweepSilentSessions(this.service, this.opts))
          .then(
            (r) => this.opts.onSweep?.(r),
            (e: Error) => this.opts.onError?.(e),
          ),
      );
    }, this.opts.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
