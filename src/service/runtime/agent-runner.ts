import {
  buildAgentPrompt,
  runnableTasks,
  trimHistory,
  usageLimitReached,
  type CapacityPolicy,
  type HistoryStep,
  type WorkflowState,
} from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import type { WorkflowRef } from '../resolve-workflow.js';
import { followAgent, type SessionResult } from './agent-session.js';
import { executorRowFor, launchDriver } from './launch.js';
import type { AgentDriver, AgentProcess, AgentProfile, Executor } from './runtime-ports.js';

export interface RunOptions {
  profile: AgentProfile;
  driver: AgentDriver;
  executor: Executor;
  capacity: CapacityPolicy;
  heartbeatMs: number;
  /** Pause with trigger `task_complete` after this many tasks in this run. */
  maxTasks: number | null;
  /** Pause with trigger `timeout` once the workflow has run longer than this. */
  maxDurationMs: number | null;
  /** On a usage limit with a reset time, wait for it and resume (else pause and stop). */
  autoResume: boolean;
  /** Token budget of the structured history handed to a fallback driver session. */
  historyBudget: number;
  /** Who launches (`host:pid:start`), kept on the executor row. */
  owner: string;
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface RunReport {
  workflow_id: string;
  status: WorkflowState['status'];
  pause_trigger: WorkflowState['pause_trigger'];
  tasks: { id: string; outcome: string }[];
  fallbacks: string[];
  usage_limit: { resets_at: string | null; auto_resumed: boolean } | null;
  stopped: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `baton run`: takes runnable tasks in order and drives an agent CLI through each. Within one run the driver
 * session continues (`--resume <token>`); a resumed workflow starts a new driver session fed with the compiled
 * resume context (after a crash, the agent's own session is tried first when it can resume). When the agent's own
 * resume fails, the task continues in a new driver session fed with the context and the structured history.
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
    let s = await svc.resolve(ref);
    const id = s.id;
    const report: RunReport = {
      workflow_id: id,
      status: s.status,
      pause_trigger: null,
      tasks: [],
      fallbacks: [],
      usage_limit: null,
      stopped: '',
    };
    let token: string | null = null;
    let resumeContext: string | null = null;
    let history: HistoryStep[] = [];
    let fallback: string | null = null;
    const resumeWorkflow = async () => {
      const before = await svc.runner.load(id);
      const r = await svc.resume({ workflowId: id });
      resumeContext = r.context;
      // After a crash the agent's own session may go on (its token); after a pause, a new driver session starts.
      token =
        before.status === 'interrupted' && o.profile.supports_session_resume
          ? (before.agent?.resume_token ?? null)
          : null;
      log(`resumed ${id}: session ${r.session_number}${token ? ', continuing the agent session' : ''}`);
    };
    if (s.status === 'paused' || s.status === 'interrupted') await resumeWorkflow();
    let done = 0;
    const failedHere = new Set<string>();
    let pending = attached ?? null;
    for (;;) {
      s = await svc.runner.load(id);
      if (s.status !== 'in_progress' && s.status !== 'pending') {
        report.stopped = s.status === 'paused' ? `paused (${s.pause_trigger})` : s.status;
        break;
      }
      if (
        o.maxDurationMs !== null &&
        s.started_at &&
        Date.now() - Date.parse(s.started_at) > o.maxDurationMs
      ) {
        await svc.pause(
          { workflowId: id },
          { reason: 'the workflow ran past its maximum duration', trigger: 'timeout' },
        );
        continue;
      }
      const task = s.tasks.find((t) => t.status === 'in_progress') ?? runnableTasks(s.tasks)[0];
      if (task && failedHere.has(task.id)) {
        report.stopped = `task ${task.id} failed`;
        break;
      }
      if (!task) {
        report.stopped = 'no runnable task';
        break;
      }
      if (task.status !== 'in_progress') await svc.startTask({ workflowId: id }, task.id);
      const row = await executorRowFor(svc, id, o.profile, o.executor);
      let result: SessionResult;
      const session = {
        service: svc,
        workflowId: id,
        taskId: task.id,
        profile: o.profile,
        driver: o.driver,
        capacity: o.capacity,
        heartbeatMs: o.heartbeatMs,
        log,
      };
      if (pending && pending.taskId === task.id) {
        const reg = svc.store.executors;
        const current = (await reg?.get(row.id)) ?? row;
        log(`reattached to ${task.id} on ${o.executor.endpoint ?? o.executor.runtime}`);
        result = await followAgent(
          { ...session, row: current, executionId: current.execution_id ?? '', reattached: true },
          pending.proc,
        );
        pending = null;
      } else {
        const prompt = buildAgentPrompt({
          workflowTitle: s.title,
          plan: s.plan,
          task,
          resumeContext: token ? null : resumeContext,
          sideEffects: (s.side_effects ?? []).slice(-20),
          history,
          continuing: token !== null && resumeContext === null,
        });
        log(
          `task ${task.id}: ${o.profile.name}${token ? ` --resume ${token}` : ''}${fallback ? ` (fallback: ${fallback})` : ''}`,
        );
        const launched = await launchDriver(svc, {
          row,
          profile: o.profile,
          driver: o.driver,
          executor: o.executor,
          prompt,
          resumeToken: token,
          fallback,
          owner: o.owner,
          env: o.env ?? {},
        });
        result = await followAgent(
          { ...session, row: launched.row, executionId: launched.executionId },
          launched.proc,
        );
      }
      await svc.store.executors?.update(row.id, { session_state: 'waiting_for_input' });
      const resumedAgent = token !== null;
      fallback = null;
      history = [];
      if (result.outcome === 'success') {
        token = o.profile.supports_session_resume ? result.session_id : null;
        resumeContext = null;
        const out = await svc.completeTask({ workflowId: id }, task.id, result.text?.slice(0, 500) ?? null);
        report.tasks.push({ id: task.id, outcome: 'done' });
        done++;
        log(
          `task ${task.id} done${out.state.status === 'paused' ? `; paused (${out.state.pause_trigger})` : ''}`,
        );
        if (o.maxTasks !== null && done >= o.maxTasks && out.state.status === 'in_progress')
          await svc.pause(
            { workflowId: id },
            { reason: `${done} tasks done in this run`, trigger: 'task_complete' },
          );
        continue;
      }
      if (result.outcome === 'usage_limit') {
        const wait = o.autoResume && result.resets_at ? Date.parse(result.resets_at) - Date.now() : null;
        const autoAt = wait !== null ? result.resets_at : null;
        await svc.runner.run(
          id,
          (d) =>
            usageLimitReached(d, {
              message: result.text ?? 'usage limit',
              resets_at: result.resets_at,
              auto_resume_at: autoAt,
            }),
          { retry: true },
        );
        await svc.pause(
          { workflowId: id },
          {
            reason: `usage limit${result.resets_at ? `, resets at ${result.resets_at}` : ''}`,
            trigger: 'pause',
            force: true,
          },
        );
        report.usage_limit = { resets_at: result.resets_at, auto_resumed: wait !== null };
        if (wait === null) {
          report.stopped = 'usage limit';
          break;
        }
        log(`usage limit: resuming at ${result.resets_at}`);
        await sleep(Math.max(0, wait));
        await resumeWorkflow();
        token = null;
        continue;
      }
      const ownResumeFailed = resumedAgent && result.outcome !== 'killed';
      if ((result.outcome === 'context_full' || ownResumeFailed) && report.fallbacks.length < 3) {
        fallback =
          result.outcome === 'context_full'
            ? 'context full'
            : `the agent's own resume failed: ${(result.text ?? '').slice(0, 200)}`;
        report.fallbacks.push(fallback);
        token = null;
        const state = await svc.runner.load(id);
        resumeContext = (await svc.queries.context(state)).markdown;
        history = trimHistory(result.steps, o.historyBudget, (t) => Math.ceil(t.length / 4));
        log(`task ${task.id}: ${fallback}; continuing in a new driver session with the compiled context`);
        continue;
      }
      await svc.failTask(
        { workflowId: id },
        task.id,
        result.text?.slice(0, 500) ?? `agent ${result.outcome}`,
      );
      report.tasks.push({ id: task.id, outcome: result.outcome });
      failedHere.add(task.id);
      token = null;
      log(`task ${task.id} failed: ${result.outcome}`);
    }
    const final = await svc.runner.load(id);
    const rows = await svc.store.executors?.list({ workflowId: id });
    for (const r of rows ?? [])
      if (r.status !== 'stopped' && r.status !== 'error') {
        // The session is over: what Baton created for it (a container) goes; a failure to remove it is kept.
        const left = await svc.options.releaseExecutor?.(r).then(
          () => null,
          (e: Error) => `could not remove what Baton created for it: ${e.message}`,
        );
        if (left) log(`executor ${r.id}: ${left}`);
        await svc.store.executors?.update(r.id, {
          status: left ? 'error' : 'stopped',
          session_state: final.status === 'in_progress' ? 'waiting_for_input' : 'ended',
          ...(left ? { error_message: `${left}; retry with \`baton executors stop ${r.id}\`` } : {}),
        });
      }
    return { ...report, status: final.status, pause_trigger: final.pause_trigger };
  }
}
