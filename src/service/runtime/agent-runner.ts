import {
  AutoResumeWaits,
  BatonError,
  buildAgentPrompt,
  conflict,
  FIRST_RETRY_WAIT,
  formatSpan,
  invalidTransition,
  isResumable,
  isTerminal,
  knownState,
  nextSessionNumber,
  nextTask,
  parseDuration,
  pausedBy,
  unreportedCommits,
  workSpanOf,
} from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import type { WorkflowRef } from '../resolve-workflow.js';
import { followAgent, type SessionResult } from './agent-session.js';
import { CrashWatch } from './crash-watch.js';
import { executorRowFor, launchDriver } from './launch.js';
import { releaseExecutorRow } from './release-executor.js';
import { nextStep } from './next-step.js';
import { stopperOf, type RunOptions, type RunReport } from './run-options.js';
import type { NextTurn, RunMemory, RunScope } from './run-scope.js';
import { resumeWorkflow, startFirstSession } from './session-start.js';
import { claimWorkflow, describeOwner, type HeldLease } from './ownership.js';
import { sharedWorktreeCheck, worktreePeers } from './worktree-peers.js';
import { taskStart } from './task-commits.js';
import { failRunTask } from './task-outcome.js';
import { endTurn } from './turn-end.js';
import type { RunEvent } from './run-events.js';
import type { AgentProcess } from './runtime-ports.js';

/**
 * `baton run`: holds the workflow's lease, takes runnable tasks in order and drives an agent CLI through each.
 * Within one session the driver session continues (`--resume <token>`); after an exhaustion pause (or a usage limit
 * with auto-resume) it resumes the workflow and goes on in a fresh agent session fed with the compiled context,
 * until the workflow completes, fails, or `maxSessions` is reached. When the agent's own resume fails, the task
 * continues in a new driver session fed with the context and the structured history.
 */
export class AgentRunner {
  constructor(private readonly service: BatonService) {}

  async run(
    ref: WorkflowRef,
    o: RunOptions,
    attached?: { proc: AgentProcess; taskId: string },
  ): Promise<RunReport> {
    const svc = this.service;
    const log = o.log ?? (() => undefined);
    const emit = (e: RunEvent) => o.onEvent?.(e);
    const { id, worktree, status } = await svc.resolve(ref);
    // named by its id (the folder finds only an incomplete one): a finished workflow has nothing left to run
    if (isTerminal(status))
      throw invalidTransition(
        `${id} is ${status}: there is nothing left to run; new work is a new workflow (\`baton create\`, or a new conversation with the hooks)`,
        { current_status: status },
      );
    let lease: HeldLease | null = null;
    let follow = attached;
    if (o.ownership && svc.store.leases) {
      const own = o.ownership;
      const watch = svc.watch ?? new CrashWatch(svc, { ports: own.ports, factory: own.factory });
      const shared = own.sharedWorktree;
      /** Another workflow of the worktree driven here: refused, or said (`--share-worktree`). */
      const checkPeers = async () => {
        if (!shared) return;
        const { warning } = sharedWorktreeCheck(
          await worktreePeers(svc, id, worktree, own.ports),
          shared,
          own.retry,
        );
        if (warning) log(warning);
      };
      // before the claim too: a refused --take-over must not have stopped the driver it would take over from
      if (shared === 'refuse') await checkPeers();
      const claim = await claimWorkflow(svc, id, {
        ports: own.ports,
        kind: own.kind ?? 'run',
        command: own.command,
        retry: own.retry,
        takeOver: own.takeOver,
        ttlMs: own.ttlMs,
        notice: (message) => {
          log(message);
          emit({ event: 'crash.handled', workflow_id: id, message });
        },
        onLost: (now) =>
          log(`lost the lease of ${id}${now ? ` to ${describeOwner(now)}` : ''}: stopping here`),
        recoverCrashed: (l, holder, onlyIfExpired) => watch.recoverCrashed(l, holder, onlyIfExpired),
      });
      lease = claim.lease;
      // Checked again holding the lease: two runs started at once each see the other and both refuse, never both run.
      try {
        await checkPeers();
      } catch (e) {
        await lease.release();
        throw e;
      }
      // The old driver's agent still runs on a remote host: follow it rather than start the task again. Found by
      // the claim (the old driver's lease), or left by a command that handled its crash (the lease was free).
      follow = follow ?? claim.attached ?? undefined;
      let unchecked = claim.unchecked;
      if (!follow && !unchecked) {
        const left = await watch.reattach(id);
        if (left && !left.attached && !left.unchecked) log(left.line);
        follow = left?.attached ?? undefined;
        unchecked = left?.unchecked ?? null;
      }
      if (unchecked) {
        // The last agent may still work on this worktree: never start a second one beside it.
        await lease.release();
        throw new BatonError(
          'unavailable',
          `${id}: ${unchecked}; not starting another agent on its worktree while it may still run. Run this where its executor can be reached (for a container, with DOCKER_HOST set to the engine's socket): the run is then followed, or recovered if it is gone`,
          { workflow_id: id },
        );
      }
    }
    try {
      const report = await this.drive(id, o, lease, follow);
      await o.beforeRelease?.(report);
      return report;
    } finally {
      await lease?.release();
    }
  }

  private async drive(
    id: string,
    o: RunOptions,
    lease: HeldLease | null,
    attached?: { proc: AgentProcess; taskId: string },
  ): Promise<RunReport> {
    const svc = this.service;
    const log = o.log ?? (() => undefined);
    const emit = (e: RunEvent) => o.onEvent?.(e);
    const note = (message: string) => emit({ event: 'note', workflow_id: id, message });
    /** When this run began: `--max-duration` counts from here, not from the workflow's start (days ago, maybe). */
    const began = o.startedAt ?? Date.now();
    let s = await svc.runner.load(id);
    const report: RunReport = {
      workflow_id: id,
      status: s.status,
      pause_trigger: null,
      tasks: [],
      fallbacks: [],
      usage_limit: null,
      api_error: null,
      stopped: '',
      sessions: 1,
      failed: false,
      next: null,
    };
    const scope: RunScope = {
      svc,
      id,
      o,
      report,
      emit,
      log,
      note,
      say: (line) => (o.onEvent ? note(line) : log(line)),
    };
    const next: NextTurn = { token: null, resumeContext: null, history: [], fallback: null, cutOff: null };
    emit({
      event: 'run.started',
      workflow_id: id,
      agent: o.profile.name,
      // the session the run drives in: going on from a pause or an interruption, the one its resume starts
      session_number: isResumable(s.status) ? nextSessionNumber(s) : s.session_count,
      resuming: isResumable(s.status),
      driver: o.ownership?.command ?? 'baton run',
    });
    await startFirstSession(scope, next, s);
    const memory: RunMemory = {
      done: 0,
      failedHere: new Set(),
      stalls: new Map(),
      begun: new Map(),
      waits: new AutoResumeWaits(o.retryWaitMs ?? parseDuration(FIRST_RETRY_WAIT)),
    };
    /** What the notes on how the agents' output was read told in this run (said once each). */
    const notesSaid = new Set<string>();
    let pending = attached ?? null;
    const shouldStop = async (): Promise<string | null> => {
      if (o.signal?.aborted) return `${stopperOf(o)} was stopped (${String(o.signal.reason)})`;
      if (lease?.lost) return 'another driver took the workflow over';
      // Reading the workflow forces an overdue pause request (this driver may be the first to see it).
      const now = await svc.resolve({ workflowId: id });
      return now.status === 'in_progress'
        ? null
        : `the workflow is ${now.status}${now.status === 'paused' ? ` (${now.pause_reason ?? now.pause_trigger ?? 'pause'})` : ''}`;
    };
    for (;;) {
      if (lease?.lost) {
        report.stopped = 'taken over';
        throw conflict(`another driver took workflow ${id} over; this \`baton run\` stopped`);
      }
      s = await svc.runner.load(id);
      if (o.signal?.aborted) {
        const why = `${stopperOf(o)} was stopped (${String(o.signal.reason)})`;
        // a signal is a person's stop (Ctrl-C, SIGTERM, the terminal closed), not a crash
        if (s.status === 'in_progress') await svc.interrupt({ workflowId: id }, why, 'stopped');
        report.stopped = why;
        break;
      }
      if (
        s.status === 'paused' &&
        s.pause_trigger === 'exhaustion' &&
        memory.waits.mayStartSession(report.sessions, o.maxSessions)
      ) {
        emit({ event: 'workflow.paused', workflow_id: id, trigger: s.pause_trigger, reason: s.pause_reason });
        await resumeWorkflow(scope, next, 'exhaustion');
        report.sessions++;
        continue;
      }
      if (s.status !== 'in_progress' && s.status !== 'pending') {
        if (s.status === 'paused')
          emit({
            event: 'workflow.paused',
            workflow_id: id,
            trigger: s.pause_trigger,
            reason: s.pause_reason,
          });
        report.stopped =
          s.status === 'paused'
            ? `${pausedBy(s.pause_trigger)}: ${s.pause_trigger === 'exhaustion' ? `--max-sessions ${o.maxSessions} reached` : (s.pause_reason ?? 'no reason given')}`
            : s.status;
        break;
      }
      // a pending workflow has not begun: its first task starts it (only then can it pause)
      if (o.maxDurationMs !== null && s.status !== 'pending' && Date.now() - began > o.maxDurationMs) {
        // between sessions no agent runs: this driver is at the boundary, so the pause is made now (a request would
        // wait for a task boundary no agent will reach)
        await svc.pause(
          { workflowId: id },
          {
            reason: `the run went past its maximum duration (--max-duration ${formatSpan(o.maxDurationMs)} since \`baton run\` began)`,
            trigger: 'timeout',
            force: true,
          },
        );
        continue;
      }
      const task = nextTask(s.tasks);
      if (task && memory.failedHere.has(task.id)) {
        report.stopped = `task ${task.id} failed`;
        break;
      }
      if (!task) {
        report.stopped = 'no runnable task';
        break;
      }
      if (task.status !== 'in_progress') s = (await svc.startTask({ workflowId: id }, task.id)).state;
      const row = await executorRowFor(svc, id, o.profile, o.executor, scope.say);
      const output = o.logs?.open(s, task.id, s.session_count) ?? null;
      const started = Date.now();
      let result: SessionResult;

      const session = {
        service: svc,
        workflowId: id,
        taskId: task.id,
        profile: o.profile,
        driver: o.driver,
        capacity: o.capacity,
        heartbeatMs: o.heartbeatMs,
        stallMs: o.stallMs,
        log,
        onEvent: o.onEvent,
        verbose: o.verbose,
        output,
        shouldStop,
        abort: o.signal,
        stopper: stopperOf(o),
        notesSaid,
      };
      emit({
        event: 'task.started',
        workflow_id: id,
        task_id: task.id,
        title: task.title,
        session_number: s.session_count,
        resume_token: pending ? null : next.token,
        fallback: next.fallback,
        log: output?.path ?? null,
      });
      try {
        if (pending && pending.taskId === task.id) {
          const current = (await svc.store.executors?.get(row.id)) ?? row;
          log(`reattached to ${task.id} on ${current.endpoint ?? current.runtime}`);
          result = await followAgent(
            { ...session, row: current, executionId: current.execution_id ?? '', reattached: true },
            pending.proc,
          );
          pending = null;
        } else {
          const continuing = next.token !== null && next.resumeContext === null;
          const context = next.token ? null : next.resumeContext;
          // without the compiled context (which lists them), the commits no agent reported are read from git; a
          // conversation going on after its run was cut off holds none it made in the call that never returned
          const git =
            (continuing && !next.cutOff) || context
              ? null
              : (await svc.git.captureGitState(s.worktree, workSpanOf(s))).state;
          const prompt = buildAgentPrompt({
            workflowTitle: s.title,
            plan: s.plan,
            task,
            resumeContext: context,
            sideEffects: (s.side_effects ?? []).slice(-20),
            unreported: git ? unreportedCommits(s, git).commits : [],
            history: next.history,
            continuing,
            known: knownState(s),
            baton: o.batonCommand ? { workflowId: id, command: o.batonCommand, taskId: task.id } : null,
            cutOff: next.token ? next.cutOff : null,
          });
          next.cutOff = null;
          // where the task's work began in git, kept across its retries (not for an agent re-attached to)
          if (!memory.begun.has(task.id)) memory.begun.set(task.id, await taskStart(svc, s));
          let launched;
          try {
            launched = await launchDriver(svc, {
              row,
              profile: o.profile,
              driver: o.driver,
              executor: o.executor,
              prompt,
              resumeToken: next.token,
              fallback: next.fallback,
              owner: o.owner,
              // the agent's own hooks (baton init, the plugin) read BATON_RUN_WORKFLOW and step back: this run records it
              env: { ...(o.env ?? {}), BATON_ACTOR: `session-${s.session_count}`, BATON_RUN_WORKFLOW: id },
              capacity: o.capacity,
            });
          } catch (e) {
            // A refusal no retry can fix (the executor's token, its address: exit 2; a container Baton did not
            // create carrying the session's label: exit 3): said as it is; the task stays in progress for the next run.
            if (BatonError.isInstance(e) && (e.code === 'invalid_input' || e.code === 'conflict')) throw e;
            // The agent could not even start: the task fails with the real cause, said where the user looks.
            const cause = `the agent did not start: ${(e as Error).message}`;
            await failRunTask(scope, { taskId: task.id, started, log: output?.path ?? null }, 'error', cause);
            memory.failedHere.add(task.id);
            continue;
          }
          result = await followAgent(
            { ...session, row: launched.row, executionId: launched.executionId },
            launched.proc,
          );
        }
      } finally {
        await output?.close();
      }
      if (lease?.lost) continue;
      await svc.store.executors?.update(row.id, { session_state: 'waiting_for_input' });
      const ended = await endTurn(scope, next, memory, {
        taskId: task.id,
        started,
        log: output?.path ?? null,
        task,
        result,
        row,
        worktree: s.worktree,
      });
      if (ended === 'stop') break;
    }
    const final = await svc.runner.load(id);
    const rows = await svc.store.executors?.list({ workflowId: id });
    for (const r of rows ?? [])
      if (r.status !== 'stopped' && r.status !== 'error') {
        // The session is over: what Baton created for it (a container) goes; a failure to remove it is kept.
        const left = await releaseExecutorRow(svc, r, {
          sessionState: final.status === 'in_progress' ? 'waiting_for_input' : 'ended',
          reason: `the run ended (workflow ${final.status})`,
          exited: true,
        });
        if (left) log(`executor ${r.id}: ${left}`);
      }
    // the run's own command, with the workflow named, is the one that goes on
    const command = o.ownership?.retry ?? `baton run -w ${id} --agent ${o.profile.name}`;
    return {
      ...report,
      status: final.status,
      pause_trigger: final.pause_trigger,
      next: nextStep(final, report, command, o.autoResume),
    };
  }
}
