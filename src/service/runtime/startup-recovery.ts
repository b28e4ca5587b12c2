import { existsSync } from 'node:fs';
import {
  BatonError,
  executorChanged,
  interrupt,
  saveResumeToken,
  interruptRecovery,
  type GitCapture,
} from '../../core/index.js';
import type { ExecutorPatch, ExecutorRow } from '../../storage/executor-registry.js';
import type { CommitBatch } from '../../storage/store.js';
import type { BatonService } from '../baton-service.js';
import { currentTask, Draft, isTerminal, workSpanOf } from '../../core/index.js';
import { recordOne } from '../record-input.js';
import { closeEndedSessions, sessionOver } from './release-executor.js';
import { noRegistry } from './launch.js';
import { isLivenessUnknown } from './liveness-unknown.js';
import { readLostRun } from './lost-run-log.js';
import { leaseVerdict, type ProcessPorts } from './ownership.js';
import type { AgentProcess, ExecutorFactory } from './runtime-ports.js';

export type AutoResumePolicy = 'none' | 'waiting' | 'all';

export interface RecoveryOutcome {
  executor_id: string;
  workflow_id: string;
  session_number: number;
  runtime: string;
  executor_status: ExecutorRow['status'];
  session_state: ExecutorRow['session_state'];
  /** `unchecked`: where the agent runs cannot be reached from here (`reason` says why); row and workflow left as they are. */
  action: 'skipped_live_owner' | 'unchecked' | 'reconnected' | 'workspace_only' | 'error';
  reason: string | null;
  interrupted: boolean;
  auto_resume: boolean;
  /** The agent profile the session ran (what a server without its own `--agent` resumes it with). */
  agent: string;
  /** The pid of an orphaned local agent that was stopped (nobody read its output any more). */
  stopped_agent_pid?: number;
}

export interface RecoveryReport {
  executors: RecoveryOutcome[];
  interrupted: number;
  /** Remote runs still going, re-attached: the caller follows them to the end of their task. */
  attached: { row: ExecutorRow; proc: AgentProcess; taskId: string }[];
  ms: number;
}

/**
 * Startup recovery (the session-resumption design's seven steps), run when a Baton server starts:
 * 1 load executors in starting/ready; 2 non-resumable ones' sessions become error (`not_resumable`);
 * 3 per runtime: local -> the workspace must exist (its agents died with the old process), remote -> health-check
 * the agent host and re-attach runs still going, docker -> the engine answers (one this process cannot reach leaves the row and its workflow as they are: `unchecked`), the session's container is found by
 * id else by labels and runs (missing or stopped: error, with its exit code and last output), then as remote; 4 `last_seen_at` refreshed; 5 executor ready (workspace access even
 * when the agent cannot resume); 6 session `waiting_for_input` when the agent can resume and has a token, else error
 * with the reason; 7 `executor.changed` events (published on the WebSocket like every event). Workflows left
 * `in_progress` whose agent is gone become `interrupted` with a crash snapshot, in batched commits. A row whose session
 * is over for good (its workflow finished since, completed or abandoned, or went on to a later session) is closed first
 * (`closeEndedSessions`: `stopped`, its session `ended`), and never resumed.
 */
export interface RecoveryOptions {
  factory: ExecutorFactory;
  autoResume: AutoResumePolicy;
  isOwnerAlive: (owner: string | null) => boolean;
  /** Only these workflows (a command that found one workflow's driver gone). */
  workflowIds?: readonly string[];
  /** Only sessions still marked running (what a dead driver left behind; the others were already settled). */
  runningOnly?: boolean;
  detectedBy?: 'startup_recovery' | 'lease';
  /** Why the workflow is interrupted (default: the Baton process running the agent stopped). */
  reason?: (row: ExecutorRow) => string;
  /**
   * Rows whose agent is gone become `stopped`, not `ready`: a command that noticed a crash leaves what goes on to the
   * next driver (`baton run -w <id>`), which starts an agent of its own. Startup recovery leaves them `ready` for the
   * server's auto-resume.
   */
  stopGone?: boolean;
  /**
   * With the ownership lease: workflows whose driver is alive (a `baton run` beside this server, a worker on
   * another host) are left alone, whatever their executor rows say. `own` is a lease this process holds itself.
   */
  leases?: { ports: ProcessPorts; own?: string };
}

export async function recoverAtStartup(
  service: BatonService,
  opts: RecoveryOptions,
): Promise<RecoveryReport> {
  const t0 = Date.now();
  const registry = service.store.executors;
  if (!registry) throw noRegistry();
  const at = (service.options.now?.() ?? new Date()).toISOString();
  const only = opts.workflowIds ? new Set(opts.workflowIds) : null;
  const listed = (await registry.list({ status: ['starting', 'ready'] })).filter(
    (r) => !only || only.has(r.workflow_id),
  );
  const leaseRegistry = service.store.leases;
  const liveDriver = new Map<string, boolean>();
  /** Leases of drivers that are gone: released once their workflows are recovered (compare-and-set on the owner). */
  const goneLeases = new Map<string, string>();
  const driven = async (workflowId: string) => {
    if (!opts.leases || !leaseRegistry) return false;
    let live = liveDriver.get(workflowId);
    if (live === undefined) {
      const lease = await leaseRegistry.get(workflowId);
      live = !!lease && lease.owner !== opts.leases.own && leaseVerdict(lease, opts.leases.ports) === 'live';
      if (lease && !live && lease.owner !== opts.leases.own) goneLeases.set(workflowId, lease.owner);
      liveDriver.set(workflowId, live);
    }
    return live;
  };
  const outcomes: RecoveryOutcome[] = [];
  // Sessions over for good (their workflow finished, or went on to a later session) are closed first, the way every
  // ended session is, and never resumed: a row left `ready` by a crash of an earlier session is not a live one. A
  // workflow whose driver is alive, a row whose controller is, is theirs to settle.
  const closed = new Set<string>();
  for (const workflowId of new Set([...(opts.workflowIds ?? []), ...listed.map((r) => r.workflow_id)])) {
    if (await driven(workflowId)) continue;
    const live = (r: ExecutorRow) => !!r.owner && opts.isOwnerAlive(r.owner);
    for (const { row, reason, error } of await closeEndedSessions(service, workflowId, live)) {
      closed.add(row.id);
      const status = error ? 'error' : 'stopped';
      const state = error ? row.session_state : 'ended';
      outcomes.push(
        outcome(row, error ? 'error' : 'workspace_only', error ?? reason, false, false, status, state),
      );
    }
  }
  const rows = listed.filter(
    (r) => !closed.has(r.id) && (!opts.runningOnly || r.session_state === 'running'),
  );
  const attached: RecoveryReport['attached'] = [];
  const patches: { id: string; patch: ExecutorPatch }[] = [];
  const drafts = new Map<string, Draft>();
  const ops = new Map<string, ((d: Draft) => void)[]>();
  const gitCache = new Map<string, GitCapture>();
  const ctx = service.runner.context();
  for (const row of rows) {
    if ((row.owner && opts.isOwnerAlive(row.owner)) || (await driven(row.workflow_id))) {
      outcomes.push(outcome(row, 'skipped_live_owner', null, false, false));
      continue;
    }
    let status: ExecutorRow['status'] = 'ready';
    let state: ExecutorRow['session_state'];
    let reason: string | null = null;
    let action: RecoveryOutcome['action'] = 'workspace_only';
    const executor = opts.factory.forRow(row);
    let proc: AgentProcess | null = null;
    let stoppedPid: number | undefined;
    if (!executor) {
      status = 'error';
      reason = `no executor for runtime ${row.runtime}`;
    } else if (row.runtime !== 'local') {
      // Remote and Docker agent hosts outlive Baton. A host that refuses Baton (a wrong or missing executor
      // token), an engine that is down, a container removed or stopped: each says so, that is not "unreachable".
      const healthy = await executor.health().catch((e: Error) => e);
      if (isLivenessUnknown(healthy)) {
        // The agent may well still run there: nothing is written off. The row only says why it was not checked.
        patches.push({ id: row.id, patch: { error_message: healthy.message } });
        outcomes.push(outcome(row, 'unchecked', healthy.message, false, false));
        continue;
      }
      if (healthy !== true) {
        status = 'error';
        reason = healthy instanceof Error ? healthy.message : `the agent host ${row.endpoint} is unreachable`;
      } else if (row.session_state === 'running') {
        // Still running, or finished while no Baton followed it: the host kept its output and exit status.
        proc = await executor.attach(row);
      }
    } else if (!existsSync(row.workspace_path)) {
      status = 'error';
      reason = `the workspace ${row.workspace_path} is missing`;
    } else if (row.session_state === 'running' && (await executor.isAlive(row))) {
      // A local agent orphaned by the dead controller: nobody reads its output any more. Stopped with what it
      // started (the executor knows how).
      await executor.release(row);
      stoppedPid = row.pid ?? undefined;
    }
    const wf = await service.store.loadState(row.workflow_id);
    const task = wf ? currentTask(wf.tasks) : null;
    const current = wf ? (drafts.get(wf.id)?.state ?? wf) : null;
    const interrupted =
      !proc && current?.status === 'in_progress' && current.session_count === row.session_number;
    // what the lost run's agent last said, from its task log (the crash snapshot's Last State), and its session id
    // when the run was killed before it saved the token (the agent's own session can still go on)
    const lost =
      wf && interrupted && task
        ? await readLostRun(service, wf, task.id, row.session_number, row.agent)
        : null;
    const found = !row.resume_token && row.supports_session_resume ? (lost?.session ?? null) : null;
    const token = row.resume_token ?? found;
    // killed between saving the token on the row and in the workflow, the workflow gets it too (the next run reads it)
    const resumeWith = row.supports_session_resume ? token : null;
    if (proc && task) {
      action = 'reconnected';
      state = 'running';
      attached.push({ row, proc, taskId: task.id });
    } else if (status === 'error') {
      action = 'error';
      state = 'error';
    } else if (!row.supports_session_resume) {
      state = 'error';
      reason = 'not_resumable';
    } else if (!token) {
      state = 'error';
      reason = 'missing_resume_token';
    } else state = 'waiting_for_input';
    // a session over for good (its workflow finished, or went on to a later session) is never resumed
    const over = sessionOver(row, wf);
    if (over && !proc) state = 'ended';
    if (!proc && status === 'ready' && (over || opts.stopGone)) status = 'stopped';
    const auto =
      !over &&
      (opts.autoResume === 'all' ||
        (opts.autoResume === 'waiting' && (state === 'waiting_for_input' || action === 'reconnected')));
    patches.push({
      id: row.id,
      patch: {
        status,
        session_state: state,
        error_message: reason,
        last_seen_at: at,
        updated_at: at,
        ...(found ? { resume_token: found } : {}),
        // A container found by its labels (Baton died before writing its id) is recorded.
        ...(status === 'ready' ? (executor?.placement?.(row.id) ?? {}) : {}),
      },
    });
    if (wf && !isTerminal(wf.status)) {
      let git: GitCapture | null = null;
      if (interrupted) {
        // one capture per worktree and start: workflows that began at other points list other commits
        const key = JSON.stringify([wf.worktree, workSpanOf(wf)]);
        git = gitCache.get(key) ?? null;
        if (!git) {
          git = await service.git.captureGitState(wf.worktree, workSpanOf(wf));
          gitCache.set(key, git);
        }
      }
      const op = (d: Draft) => {
        executorChanged(d, { executor_id: row.id, status, session_state: state, reason });
        if (git && d.state.status === 'in_progress' && d.state.session_count === row.session_number) {
          for (const words of lost?.summaries ?? []) recordOne(d, words);
          if (resumeWith && d.state.agent?.executor_id === row.id && !d.state.agent.resume_token)
            saveResumeToken(d, row.id, resumeWith);
          const why =
            opts.reason?.(row) ??
            `the Baton process running the agent stopped (last heartbeat ${row.last_seen_at})`;
          // the crash snapshot's reason is what its briefing says of how the session ended: a log it could not read
          // is said there, so the briefing's missing last words are not taken for an agent that said nothing
          interrupt(
            d,
            lost?.unread ? `${why}; the agent's last words are not in this briefing: ${lost.unread}` : why,
            git,
            interruptRecovery(d.state, opts.detectedBy ?? 'startup_recovery', row.last_seen_at),
          );
        }
      };
      // Several executors of one workflow (one per session) go into one commit.
      let d = drafts.get(wf.id);
      if (!d) drafts.set(wf.id, (d = new Draft(wf, ctx)));
      op(d);
      ops.set(wf.id, [...(ops.get(wf.id) ?? []), op]);
    }
    const o = outcome(row, action, reason, interrupted, auto, status, state);
    outcomes.push(stoppedPid ? { ...o, stopped_agent_pid: stoppedPid } : o);
  }
  const batches: CommitBatch[] = [...drafts.values()].map((d) => ({
    workflowId: d.state.id,
    expectedVersion: d.base?.version ?? 0,
    events: d.events,
    state: d.state,
    writes: d.writes,
  }));
  for (let i = 0; i < batches.length; i += 500) {
    const part = batches.slice(i, i + 500);
    try {
      await service.store.commitMany(part);
    } catch (e) {
      if (!BatonError.isInstance(e) || e.code !== 'conflict') throw e;
      // Another process wrote meanwhile: decide again per workflow on its latest state.
      for (const b of part)
        await service.runner.run(b.workflowId, (d) => ops.get(b.workflowId)?.forEach((op) => op(d)), {
          retry: true,
        });
    }
  }
  if (registry.updateMany) await registry.updateMany(patches);
  else for (const p of patches) await registry.update(p.id, p.patch);
  for (const [workflowId, owner] of goneLeases) await leaseRegistry?.release(workflowId, owner);
  return {
    executors: outcomes,
    interrupted: outcomes.filter((o) => o.interrupted).length,
    attached,
    ms: Date.now() - t0,
  };
}

function outcome(
  row: ExecutorRow,
  action: RecoveryOutcome['action'],
  reason: string | null,
  interrupted: boolean,
  auto: boolean,
  status = row.status,
  state = row.session_state,
): RecoveryOutcome {
  return {
    executor_id: row.id,
    workflow_id: row.workflow_id,
    session_number: row.session_number,
    runtime: row.runtime,
    executor_status: status,
    session_state: state,
    action,
    reason,
    interrupted,
    auto_resume: auto,
    agent: row.agent,
  };
}
