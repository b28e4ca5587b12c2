import {
  conflict,
  errorLine,
  executorChanged,
  launchAgent,
  worktreeBranch,
  type CapacityPolicy,
} from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';
import { randomId } from '../command-runner.js';
import { closeEndedSessions } from './release-executor.js';
import type { AgentDriver, AgentProcess, AgentProfile, Executor } from './runtime-ports.js';

export const noRegistry = () =>
  conflict(
    'this store has no executors_running table: the agent runtime needs the SQLite or PostgreSQL store',
  );

/**
 * The executor row of the workflow's current Baton session, created on first use. A session starting ends the earlier
 * ones: their rows still open (left `ready` by a crash, a recovery that resumed nothing) are closed. Executor
 * capabilities that cannot be read are taken as none, and `say` is told so, with the error and what that means.
 */
export async function executorRowFor(
  service: BatonService,
  workflowId: string,
  profile: AgentProfile,
  executor: Executor,
  say: (line: string) => void = () => undefined,
): Promise<ExecutorRow> {
  const registry = service.store.executors;
  if (!registry) throw noRegistry();
  const s = await service.runner.load(workflowId);
  const at = (service.options.now?.() ?? new Date()).toISOString();
  const existing = (await registry.list({ workflowId })).find((r) => r.session_number === s.session_count);
  if (existing) {
    // An executor that places agents itself (Docker) knows its endpoint only once it has: keep the row's.
    const endpoint = executor.endpoint ?? (existing.runtime === executor.runtime ? existing.endpoint : null);
    await registry.update(existing.id, { runtime: executor.runtime, endpoint, agent: profile.name });
    await closeEndedSessions(service, workflowId);
    return { ...existing, runtime: executor.runtime, endpoint, agent: profile.name };
  }
  const caps = await executor.capabilities().catch((e: unknown) => {
    // the row keeps what was assumed: what recovery does after a crash of this session follows from it
    say(
      `the ${executor.runtime} executor's capabilities could not be read (${errorLine(e)}): assumed it cannot resume the agent's own session, so after a crash session ${s.session_count} goes on in a fresh agent session with the briefing`,
    );
    return { supports_session_resume: false, supports_workspace_only: false };
  });
  const row: ExecutorRow = {
    id: randomId('ex'),
    workflow_id: workflowId,
    session_number: s.session_count,
    runtime: executor.runtime,
    agent: profile.name,
    status: 'starting',
    session_state: 'running',
    execution_id: null,
    resume_token: null,
    supports_session_resume: profile.supports_session_resume && caps.supports_session_resume,
    supports_workspace_only: profile.supports_workspace_only && caps.supports_workspace_only,
    pid: null,
    pid_start_time: null,
    endpoint: executor.endpoint,
    run_id: null,
    container_id: null,
    workspace_path: s.worktree,
    worktree_branch: worktreeBranch(s),
    owner: null,
    last_seen_at: at,
    error_message: null,
    created_at: at,
    updated_at: at,
  };
  await registry.insert(row);
  await closeEndedSessions(service, workflowId);
  return row;
}

/**
 * Starts one driver session: claims the executor row for a new execution (compare-and-set: one launch per
 * session at a time), records `agent.launched`, and starts the process.
 */
export async function launchDriver(
  service: BatonService,
  input: {
    row: ExecutorRow;
    profile: AgentProfile;
    driver: AgentDriver;
    executor: Executor;
    prompt: string;
    resumeToken: string | null;
    fallback: string | null;
    owner: string;
    env: Record<string, string>;
    capacity?: CapacityPolicy;
  },
): Promise<{ proc: AgentProcess; executionId: string; row: ExecutorRow }> {
  const registry = service.store.executors;
  if (!registry) throw noRegistry();
  const at = () => (service.options.now?.() ?? new Date()).toISOString();
  const current = (await registry.get(input.row.id)) ?? input.row;
  const executionId = randomId('exec');
  if (!(await registry.claimExecution(current.id, current.execution_id, executionId, input.owner, at())))
    throw conflict(
      `another controller is launching an agent for session ${current.session_number} of ${current.workflow_id}`,
    );
  await service.runner.run(
    current.workflow_id,
    (d) =>
      launchAgent(d, {
        agent: input.profile.name,
        executor_id: current.id,
        resume_token: input.resumeToken,
        fallback: input.fallback,
        ...(input.profile.bin_given ? { bin: input.profile.bin } : {}),
        ...(input.executor.choice ? { executor: input.executor.choice } : {}),
        ...(input.capacity
          ? { capacity: { warn_at: input.capacity.warnAt, pause_at: input.capacity.pauseAt } }
          : {}),
      }),
    { retry: true },
  );
  const spec = input.driver.command(input.profile, {
    prompt: input.prompt,
    resumeToken: input.resumeToken,
    cwd: current.workspace_path,
    env: input.env,
  });
  let proc: AgentProcess;
  try {
    proc = await input.executor.launch({ ...spec, env: { ...spec.env, ...input.env } }, current);
  } catch (e) {
    const reason = (e as Error).message;
    await registry.update(current.id, {
      status: 'error',
      session_state: 'error',
      error_message: reason,
      updated_at: at(),
    });
    await service.runner.run(
      current.workflow_id,
      (d) => executorChanged(d, { executor_id: current.id, status: 'error', session_state: 'error', reason }),
      { retry: true },
    );
    throw e;
  }
  const patch = {
    status: 'ready' as const,
    session_state: 'running' as const,
    pid: proc.pid,
    pid_start_time: proc.startTime,
    run_id: proc.runId,
    ...(proc.placement ?? {}),
    error_message: null,
    updated_at: at(),
    last_seen_at: at(),
  };
  await registry.update(current.id, patch);
  // An agent host that took time to start (a container): its `ready` is an event, so live views see it.
  if (proc.placement)
    await service.runner.run(
      current.workflow_id,
      (d) =>
        executorChanged(d, {
          executor_id: current.id,
          status: 'ready',
          session_state: 'running',
          reason: null,
        }),
      { retry: true },
    );
  return { proc, executionId, row: { ...current, ...patch, execution_id: executionId, owner: input.owner } };
}
