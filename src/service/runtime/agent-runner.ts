import { clip } from '../../core/clip.js';
import { roughTokens } from '../../core/rough-tokens.js';
import {
  counted,
  BatonError,
  buildAgentPrompt,
  cutOffOf,
  cutShortOf,
  conflict,
  formatSpan,
  FIRST_RETRY_WAIT,
  interrupt,
  parseDuration,
  persistsWords,
  RETRY_WAITS,
  retryWait,
  retryWaitWords,
  isDeadToken,
  isResumable,
  nextSessionNumber,
  knownState,
  cutShortSession,
  cutShortWords,
  failuresWords,
  FRESH_AFTER_FAILURES,
  testsLeftFailing,
  testsLeftFailingWords,
  resumedWithoutAgent,
  nextTask,
  trimHistory,
  isTerminal,
  invalidTransition,
  allFinished,
  unreportedCommits,
  workSpanOf,
  pausedBy,
  apiErrorWords,
  transientApiError,
  freshSessionTakesOver,
  taskProduced,
  type CutOff,
  type HistoryStep,
  type TaskProduced,
} from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';
import type { WorkflowRef } from '../resolve-workflow.js';
import { followAgent, HUNG, type SessionResult } from './agent-session.js';
import { CrashWatch } from './crash-watch.js';
import { executorRowFor, launchDriver } from './launch.js';
import { releaseExecutorRow } from './release-executor.js';
import { nextStep } from './next-step.js';
import { STALL_RETRIES, stopperOf, type RunOptions, type RunReport } from './run-options.js';
import { pauseForUsageLimit, sleep, usageLimitAhead } from './usage-limit-wait.js';
import { claimWorkflow, describeOwner, type HeldLease } from './ownership.js';
import { sharedWorktreeCheck, worktreePeers } from './worktree-peers.js';
import { recordTaskCommits, taskStart, type TaskStart } from './task-commits.js';
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
    let token: string | null = null;
    let resumeContext: string | null = null;
    let history: HistoryStep[] = [];
    let fallback: string | null = null;
    /** Why and where the agent's own session, going on after a crash, a hang or an API error, was cut off (said once). */
    let cutOff: CutOff | null = null;
    const resumeWorkflow = async (reason: 'exhaustion' | 'usage_limit' | 'paused' | 'interrupted') => {
      const before = await svc.runner.load(id);
      const r = await svc.resume({ workflowId: id });
      resumeContext = r.context;
      // After a crash the agent's own session may go on (its token); after a pause, a fresh agent session starts.
      token =
        before.status === 'interrupted' && o.profile.supports_session_resume
          ? (before.agent?.resume_token ?? null)
          : null;
      // the session that goes on is not handed the briefing that says where it was cut: its prompt says it
      cutOff = token ? cutOffOf(before) : null;
      emit({
        event: 'session.started',
        workflow_id: id,
        session_number: r.session_number,
        reason,
        context_tokens: r.context_tokens,
        agent_session: token,
      });
    };
    emit({
      event: 'run.started',
      workflow_id: id,
      agent: o.profile.name,
      // the session the run drives in: going on from a pause or an interruption, the one its resume starts
      session_number: isResumable(s.status) ? nextSessionNumber(s) : s.session_count,
      resuming: isResumable(s.status),
      driver: o.ownership?.command ?? 'baton run',
    });
    // Paused by a usage limit that has not reset yet: --auto-resume waits for it; else the person is told that the
    // agent may stop again at once.
    const limitAhead = s.status === 'paused' ? usageLimitAhead(s) : null;
    if (limitAhead && o.autoResume) {
      note(
        `the usage limit this workflow hit resets at ${limitAhead.words} (in ${formatSpan(limitAhead.ms)}): waiting for it (--auto-resume)`,
      );
      await sleep(limitAhead.ms, o.signal);
    } else if (limitAhead)
      note(
        `the usage limit this workflow hit resets at ${limitAhead.words} (in ${formatSpan(limitAhead.ms)}): going on now, the agent may stop again at once; add --auto-resume to wait for it`,
      );
    // stopped while waiting: the loop below says so and leaves the workflow paused
    if (!o.signal?.aborted && isResumable(s.status)) await resumeWorkflow(s.status);
    // A person resumed or recovered it (the CLI, the dashboard) and no agent has run since: the fresh agent session
    // gets the briefing that resume compiled, as after a resume of its own.
    else if (resumedWithoutAgent(s)) resumeContext = (await svc.queries.context(s)).markdown;
    else {
      // The last run's agent was cut off mid-turn or stopped at its turn limit: its conversation goes on, told so
      const short = o.profile.supports_session_resume ? cutShortSession(s, o.profile.name) : null;
      const next = nextTask(s.tasks);
      if (short) {
        const what = `the last run's agent ${cutShortWords(s, short.how)} on ${short.taskId}${short.failures > 1 && !short.fresh ? ` (${failuresWords(short.failures)})` : ''}`;
        if (short.token && !short.fresh) {
          token = short.token;
          cutOff = cutShortOf(s, short.how);
          note(
            `${what}: going on in its own session (${short.token}; for a fresh one, \`baton pause -w ${id}\` before the run)`,
          );
        } else {
          // recorded with the launch (`fallback`) as a failed resume is: why this session starts fresh
          fallback = short.fresh ?? 'its own session is not known (it never named it)';
          resumeContext = (await svc.queries.context(s)).markdown;
          note(`${what}: ${fallback}, so a fresh session goes on with the compiled context`);
        }
      } else if (next?.status === 'failed' && (next.failures ?? 0) >= FRESH_AFTER_FAILURES) {
        // failed often, though not cut short (its turns ended on their errors): a fresh session, with the briefing
        resumeContext = (await svc.queries.context(s)).markdown;
        note(
          `${next.id} failed ${next.failures} times in a row: a fresh session goes on with the compiled context`,
        );
      }
    }
    /**
     * Waits for a limit made in a row with nothing done between, and their time: a task done starts the count again.
     * The sessions those waits started are not counted against --max-sessions (the waits have their own bound).
     */
    let waits = 0;
    let backoffs = 0;
    let waitedMs = 0;
    let waitedSessions = 0;
    const firstWaitMs = o.retryWaitMs ?? parseDuration(FIRST_RETRY_WAIT);
    const mayStartSession = () => o.maxSessions === null || report.sessions - waitedSessions < o.maxSessions;
    let done = 0;
    const failedHere = new Set<string>();
    /** The times each task's agent hung in this run. */
    const stalls = new Map<string, number>();
    /** Where each task's work began in git, in this run. */
    const begun = new Map<string, TaskStart>();
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
      if (s.status === 'paused' && s.pause_trigger === 'exhaustion' && mayStartSession()) {
        emit({ event: 'workflow.paused', workflow_id: id, trigger: s.pause_trigger, reason: s.pause_reason });
        await resumeWorkflow('exhaustion');
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
      if (task && failedHere.has(task.id)) {
        report.stopped = `task ${task.id} failed`;
        break;
      }
      if (!task) {
        report.stopped = 'no runnable task';
        break;
      }
      if (task.status !== 'in_progress') s = (await svc.startTask({ workflowId: id }, task.id)).state;
      const row = await executorRowFor(svc, id, o.profile, o.executor);
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
        resume_token: pending ? null : token,
        fallback,
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
          const continuing = token !== null && resumeContext === null;
          const context = token ? null : resumeContext;
          // without the compiled context (which lists them), the commits no agent reported are read from git; a
          // conversation going on after its run was cut off holds none it made in the call that never returned
          const git =
            (continuing && !cutOff) || context
              ? null
              : (await svc.git.captureGitState(s.worktree, workSpanOf(s))).state;
          const prompt = buildAgentPrompt({
            workflowTitle: s.title,
            plan: s.plan,
            task,
            resumeContext: context,
            sideEffects: (s.side_effects ?? []).slice(-20),
            unreported: git ? unreportedCommits(s, git).commits : [],
            history,
            continuing,
            known: knownState(s),
            baton: o.batonCommand ? { workflowId: id, command: o.batonCommand, taskId: task.id } : null,
            cutOff: token ? cutOff : null,
          });
          cutOff = null;
          // where the task's work began in git, kept across its retries (not for an agent re-attached to)
          if (!begun.has(task.id)) begun.set(task.id, await taskStart(svc, s));
          let launched;
          try {
            launched = await launchDriver(svc, {
              row,
              profile: o.profile,
              driver: o.driver,
              executor: o.executor,
              prompt,
              resumeToken: token,
              fallback,
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
            await this.fail(report, emit, id, task.id, 'error', cause, started, output?.path ?? null);
            failedHere.add(task.id);
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
      if (result.stopped_by) {
        // Stopped by Baton itself (a pause, possibly forced, or a takeover): the task stays in progress. Said once:
        // as a progress note where progress is shown (`baton run`), else in the runner's log (`baton serve`).
        const stopped = `task ${task.id} stopped: ${result.stopped_by}`;
        if (o.onEvent) note(stopped);
        else log(stopped);
        // a pause forced meanwhile took its snapshot while the agent still ran: the agent's last words (the call it
        // was cut off in) were recorded only once its output ended, and the next session is handed that snapshot
        await svc.retakePauseSnapshot({ workflowId: id });
        token = null;
        continue;
      }
      if (result.outcome === 'lost') {
        await this.lost(report, emit, id, task.id, result, row, started, output?.path ?? null);
        token = null;
        continue;
      }
      if (result.stalled && (stalls.get(task.id) ?? 0) < STALL_RETRIES) {
        stalls.set(task.id, (stalls.get(task.id) ?? 0) + 1);
        // the conversation goes on where it hung (its own session), else a new one starts with the compiled context
        token = o.profile.supports_session_resume ? (result.session_id ?? token) : null;
        fallback = token ? null : 'the agent hung';
        const now = await svc.runner.load(id);
        resumeContext = token ? null : (await svc.queries.context(now)).markdown;
        history = token ? [] : trimHistory(result.steps, o.historyBudget, roughTokens);
        // told, as after a crash, that it hung and where (its last words, the call it was in), and what git has since
        cutOff = token
          ? cutOffOf(now, { what: result.stalled, since: new Date(started).toISOString() })
          : null;
        const how = token ? 'in its own session' : 'in a new driver session with the compiled context';
        const said = `task ${task.id}: ${result.stalled}; going on ${how} (${stalls.get(task.id)} of ${STALL_RETRIES})`;
        if (o.onEvent) note(said);
        else log(said);
        continue;
      }
      const resumedAgent = token !== null;
      fallback = null;
      history = [];
      // A turn that ended well on a failing test run did not do its task (its words may say so: "I could not get the
      // test to pass"): it fails, that run named, and the run stops there rather than build on it. A task whose work
      // is the failing test (the red step) is done with it red.
      const left =
        result.outcome === 'success'
          ? testsLeftFailing(await svc.runner.load(id), task, new Date(started).toISOString())
          : null;
      if (left) {
        const words = result.text?.trim() ? `; its last words: "${clip(result.text.trim(), 200)}"` : '';
        const cause = `its turn ended with its tests failing: ${testsLeftFailingWords(left)}${words}`;
        const then = `the next run tells its agent they fail; if ${task.id} was meant to leave them failing (a red step), \`baton task done ${task.id} -w ${id}\` takes it as done`;
        await this.fail(
          report,
          emit,
          id,
          task.id,
          'tests_failing',
          cause,
          started,
          output?.path ?? null,
          then,
        );
        failedHere.add(task.id);
        token = null;
        continue;
      }
      if (result.outcome === 'success') {
        token = o.profile.supports_session_resume ? result.session_id : null;
        resumeContext = null;
        done++;
        waits = 0;
        backoffs = 0;
        waitedMs = 0;
        // what it committed, from git, when its output reported none of it (a `command` agent's)
        const start = begun.get(task.id);
        if (start) await recordTaskCommits(svc, id, task.id, s.worktree, start, log);
        // --max-tasks reached: the completion's snapshot is the pause's (one snapshot, not two)
        const pauseAfter =
          o.maxTasks !== null && done >= o.maxTasks
            ? { reason: `${counted(done, 'task')} done in this run`, trigger: 'task_complete' as const }
            : null;
        // the hangs it met on the way are behind it: later briefings say they were got past, not that they are open
        for (const e of (await svc.runner.load(id)).open_errors)
          if (e.error_type === HUNG && e.task_id === task.id)
            await svc.resolveError(
              { workflowId: id },
              e.id,
              'workaround',
              `${task.id} was done in a later attempt`,
            );
        const ended = await completeRunTask(svc, id, task.id, result.text?.slice(0, 500) ?? null, pauseAfter);
        if (ended) {
          // the agent's MCP call (complete_task), or a command by hand, finished it already: the run goes on
          const said = `task ${task.id} was ${ended} already (by the agent's MCP call, or a command): going on`;
          if (o.onEvent) note(said);
          else log(said);
        }
        const produced = taskProduced(await svc.runner.load(id), task.id, begun.get(task.id) ?? null);
        this.finish(report, emit, id, task.id, 'done', null, started, output?.path ?? null, produced);
        continue;
      }
      if (result.outcome === 'usage_limit') {
        const limit = await pauseForUsageLimit(svc, id, result, {
          autoResume: o.autoResume && mayStartSession(),
          waits,
          backoffs,
          waitedMs,
          firstWaitMs,
          signal: o.signal,
          stopper: stopperOf(o),
          log,
          emit,
        });
        report.usage_limit = limit.report;
        if (limit.stopped) {
          // the task cut short is said with the others: not failed, in progress until the run goes on
          const detail = `cut off by the usage limit: ${task.id} stays in progress, and the next run goes on with it`;
          this.finish(report, emit, id, task.id, 'usage_limit', detail, started, output?.path ?? null);
          report.stopped = limit.stopped;
          break;
        }
        waits++;
        if (limit.backedOff) backoffs++;
        waitedMs += limit.waitedMs;
        waitedSessions++;
        await resumeWorkflow('usage_limit');
        report.sessions++;
        token = null;
        continue;
      }
      // the agent's API failed (overloaded, a server error, a dropped connection, a rate limit per minute): no fault of
      // the task, which stays in progress; the workflow is interrupted (its snapshot, the git state) and the next run
      // goes on with the task in the agent's own session, told where it was cut off, as after a crash
      if (result.outcome === 'error' && o.profile.adapter !== 'command' && transientApiError(result.text)) {
        // the API's own error (Claude Code's "API Error: 529 {...}"), without how the agent exited after it
        const text = result.text ?? '';
        const words = apiErrorWords(
          /API Error:?\s*\d{3}\s*\{[^\n]*\}/.exec(text)?.[0] ?? text.split('\n')[0] ?? '',
        );
        const before = await svc.runner.load(id);
        const git = await svc.git.captureGitState(before.worktree, workSpanOf(before));
        await svc.runner.run(
          id,
          (d) => {
            if (d.state.status === 'in_progress') interrupt(d, `the agent's API failed (${words})`, git);
          },
          { retry: true },
        );
        // with --auto-resume it is waited out here (a rate limit per minute, an overload pass in a minute or so): a
        // growing wait, then the task goes on as the next run would, until the waits run out with nothing done between
        const waitMs = o.autoResume && waits < RETRY_WAITS ? retryWait(backoffs, firstWaitMs) : null;
        if (waitMs !== null) {
          const said = `task ${task.id}: the agent's API failed (${words}): ${retryWaitWords(waits, waitMs)}`;
          if (o.onEvent) note(said);
          else log(said);
          await sleep(waitMs, o.signal);
          // stopped while waiting: the loop's start says so, the workflow left interrupted for the next run
          if (o.signal?.aborted) continue;
          waits++;
          backoffs++;
          waitedMs += waitMs;
          waitedSessions++;
          await resumeWorkflow('interrupted');
          report.sessions++;
          continue;
        }
        const detail = `cut off by an API error (${words}): it stays in progress, and the next run goes on with it in the agent's own session`;
        this.finish(report, emit, id, task.id, 'api_error', detail, started, output?.path ?? null);
        report.api_error = words;
        report.stopped = o.autoResume
          ? persistsWords(`the agent's API failure (${words})`, waits, waitedMs)
          : `the agent's API failed (${words})`;
        break;
      }
      // The agent's own resume failed when it could not find its session, or ended before doing anything; one that
      // resumed and then failed at the task failed the task (run again, it would redo what it did: commits, pushes).
      // An agent that hung again after its retries fails the task with that cause (whatever its exit said).
      const ownResumeFailed =
        resumedAgent &&
        result.outcome !== 'killed' &&
        !result.stalled &&
        (isDeadToken(result.text) || result.steps.length === 0);
      if (
        !result.stalled &&
        (result.outcome === 'context_full' || ownResumeFailed) &&
        report.fallbacks.length < 3
      ) {
        fallback =
          result.outcome === 'context_full'
            ? 'context full'
            : `the agent's own resume failed: ${(result.text ?? '').slice(0, 200)}`;
        report.fallbacks.push(fallback);
        token = null;
        // what the full session left (its error, the pause its context asked for) is over once a fresh one takes over
        const over =
          result.outcome === 'context_full'
            ? await svc.runner.run(id, (d) => freshSessionTakesOver(d, task.id), { retry: true })
            : null;
        const state = over?.state ?? (await svc.runner.load(id));
        resumeContext = (await svc.queries.context(state)).markdown;
        history = trimHistory(result.steps, o.historyBudget, roughTokens);
        const withdrawn = over?.result.withdrawn;
        log(
          `task ${task.id}: ${fallback}; continuing in a new driver session with the compiled context${withdrawn ? ` (the pause its full context asked for, ${withdrawn}, is withdrawn: the new session starts nearly empty)` : ''}`,
        );
        continue;
      }
      // a failure always says how it ended (followAgent): the agent's error, its standard error, its exit
      const cause = (result.text ?? '').trim();
      await this.fail(report, emit, id, task.id, result.outcome, cause, started, output?.path ?? null);
      failedHere.add(task.id);
      token = null;
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

  /**
   * Baton lost the agent's host (it stopped answering, or answers without the run): the agent may still be working
   * there, or be done, and what it did after that was not read. A careful driver neither fails the task (its work
   * may be there) nor starts it again beside an agent that may still run: the workflow is interrupted (a crash
   * snapshot with the git state), the task stays in progress, and the run says which commits git has that no
   * agent's output reported, and how to go on. The next run is told of those commits.
   */
  private async lost(
    report: RunReport,
    emit: (e: RunEvent) => void,
    id: string,
    taskId: string,
    result: SessionResult,
    row: ExecutorRow,
    started: number,
    log: string | null,
  ) {
    const svc = this.service;
    const cause = (result.text ?? 'lost the agent').trim();
    const before = await svc.runner.load(id);
    const git = await svc.git.captureGitState(before.worktree, workSpanOf(before));
    const out = await svc.runner.run(
      id,
      (d) => {
        if (d.state.status === 'in_progress')
          interrupt(d, `lost the agent of ${taskId}: ${cause.split('\n')[0]}`, git);
      },
      { retry: true },
    );
    const found = unreportedCommits(out.state, git.state);
    const commits = found.commits.length
      ? `git has commits since the workflow began that no agent's output reported: ${found.commits.map((c) => `${c.hash} ${c.subject}`).join('; ')}${found.more_command ? ` (all of them: ${found.more_command})` : ''}`
      : 'git has no commit since the workflow began beyond those the agents reported';
    const at = (await svc.store.executors?.get(row.id)) ?? row;
    const next = `the workflow is interrupted and ${taskId} stays in progress: check the agent host ${at.endpoint ?? at.runtime} (its agent${at.pid ? `, pid ${at.pid} there,` : ''} may still be running), then \`baton run -w ${id}\` goes on with ${taskId}${found.commits.length ? ' (told of these commits)' : ''}, or \`baton task done ${taskId} -w ${id}\` if its work is complete`;
    this.finish(report, emit, id, taskId, 'lost', [cause, commits, next].join('\n'), started, log);
  }

  /**
   * Fails the task with its cause, and says it with how many times in a row it failed (counted from its events:
   * `Task.failures`), what the next run does about that, and `then`: what to do next, when more than the run again.
   */
  private async fail(
    report: RunReport,
    emit: (e: RunEvent) => void,
    workflowId: string,
    taskId: string,
    outcome: string,
    cause: string,
    started: number,
    log: string | null,
    then: string | null = null,
  ) {
    const { state } = await this.service.failTask({ workflowId }, taskId, cause.slice(0, 500));
    const n = state.tasks.find((t) => t.id === taskId)?.failures ?? 1;
    const count =
      n >= FRESH_AFTER_FAILURES
        ? `${failuresWords(n)}: the next run starts it in a fresh agent session, with the briefing`
        : n > 1
          ? failuresWords(n)
          : null;
    const detail = `${count ? `${cause} (${count})` : cause}${then ? `\n${then}` : ''}`;
    this.finish(report, emit, workflowId, taskId, outcome, detail, started, log);
  }

  private finish(
    report: RunReport,
    emit: (e: RunEvent) => void,
    workflowId: string,
    taskId: string,
    outcome: string,
    detail: string | null,
    started: number,
    log: string | null,
    produced?: TaskProduced,
  ) {
    report.tasks.push({ id: taskId, outcome, detail, log, ...(produced ? { produced } : {}) });
    // a task a usage limit or the agent's API failing cut short did not fail: the run stopped before it was done
    if (outcome !== 'done' && outcome !== 'usage_limit' && outcome !== 'api_error') report.failed = true;
    emit({
      event: 'task.finished',
      workflow_id: workflowId,
      task_id: taskId,
      outcome,
      detail,
      seconds: Math.round((Date.now() - started) / 1000),
      log,
      ...(produced ? { produced } : {}),
    });
  }
}

/**
 * Completes the task the agent finished, with the pause `--max-tasks` asks for after it; a task something else
 * finished meanwhile (the agent's own MCP `complete_task`, `baton task done` by hand) is left as it is, the pause
 * taken all the same. Returns that status (`done`, `skipped`) when it was finished already, else null.
 */
async function completeRunTask(
  svc: BatonService,
  id: string,
  taskId: string,
  summary: string | null,
  pauseAfter: { reason: string; trigger: 'task_complete' } | null,
): Promise<string | null> {
  try {
    await svc.completeTask({ workflowId: id }, taskId, summary, pauseAfter);
    return null;
  } catch (e) {
    if (!BatonError.isInstance(e) || e.code !== 'invalid_transition') throw e;
    const s = await svc.runner.load(id);
    const status = s.tasks.find((t) => t.id === taskId)?.status;
    if (status !== 'done' && status !== 'skipped') throw e;
    // the pause after the last task would pause a workflow that is over: none, as completeTask takes none then
    if (pauseAfter && s.status === 'in_progress' && !allFinished(s.tasks))
      await svc.pause({ workflowId: id }, { reason: pauseAfter.reason, trigger: pauseAfter.trigger });
    return status;
  }
}
