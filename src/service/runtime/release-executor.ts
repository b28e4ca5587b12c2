import { executorChanged, isTerminal, type WorkflowState } from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';

/**
 * An executor's session is over (its run ended, `baton executors stop`, the heartbeat monitor found it silent, its
 * workflow finished or went on to a later session): what Baton created for it (a Docker container) goes through the
 * service's `releaseExecutor` port, the row becomes `stopped` (or `error` with why and how to retry), and an
 * `executor.changed` event says so. Returns the failure, or null. The one way a row ends.
 */
export async function releaseExecutorRow(
  service: BatonService,
  row: ExecutorRow,
  input: {
    sessionState: ExecutorRow['session_state'];
    reason: string;
    /** The agent is known to have ended (a run's end): its session state holds even when the removal fails. */
    exited?: boolean;
    /** The reason stays on the row (`error_message`) once it is stopped: why its session ended short. */
    keepReason?: boolean;
  },
): Promise<string | null> {
  let error: string | null = null;
  try {
    await service.options.releaseExecutor?.(row);
  } catch (e) {
    error = `could not remove what Baton created for it: ${(e as Error).message}`;
  }
  const status = error ? 'error' : 'stopped';
  const session_state = error && !input.exited ? row.session_state : input.sessionState;
  await service.store.executors?.update(row.id, {
    status,
    session_state,
    error_message: error
      ? `${error}; retry with \`baton executors stop ${row.id}\``
      : input.keepReason
        ? input.reason
        : null,
    updated_at: (service.options.now?.() ?? new Date()).toISOString(),
  });
  if (await service.store.loadState(row.workflow_id))
    await service.runner.run(
      row.workflow_id,
      (d) =>
        executorChanged(d, { executor_id: row.id, status, session_state, reason: error ?? input.reason }),
      { retry: true },
    );
  return error;
}

/**
 * Whether an executor row's session is over for good: its workflow is gone or finished for good (completed,
 * abandoned), or it went on to a later session (a resume, a new run, a recovery). Such a session's agent is never
 * resumed: its row is closed (`closeEndedSessions`), whatever it said (ready, waiting_for_input).
 */
export function sessionOver(row: Pick<ExecutorRow, 'session_number'>, wf: WorkflowState | null): boolean {
  return !wf || isTerminal(wf.status) || row.session_number < wf.session_count;
}

/** Why a row's session is over, in the words its `executor.changed` event gives. */
function overBecause(row: ExecutorRow, wf: WorkflowState | null): string {
  if (!wf) return `session ${row.session_number} is over: its workflow is gone`;
  if (isTerminal(wf.status)) return `session ${row.session_number} is over: the workflow is ${wf.status}`;
  return `session ${row.session_number} is over: the workflow went on to session ${wf.session_count}`;
}

/**
 * Closes the rows of a workflow's sessions that are over (`sessionOver`) and still read open (starting, ready): a
 * session starting, a crash noticed, startup recovery. Each is released as any ended session is (`releaseExecutorRow`,
 * its session `ended`), so a later `baton serve` never takes it for live and resumes a workflow that moved on since.
 * Returns the rows closed, each with why, and the failure to release it (or null).
 */
export async function closeEndedSessions(
  service: BatonService,
  workflowId: string,
  /** Rows left as they are (startup recovery: one whose controller is alive is its to settle). */
  keep: (row: ExecutorRow) => boolean = () => false,
): Promise<{ row: ExecutorRow; reason: string; error: string | null }[]> {
  const registry = service.store.executors;
  if (!registry) return [];
  const open = await registry.list({ workflowId, status: ['starting', 'ready'] });
  if (!open.length) return [];
  const wf = await service.store.loadState(workflowId);
  const closed: { row: ExecutorRow; reason: string; error: string | null }[] = [];
  for (const row of open) {
    if (!sessionOver(row, wf) || keep(row)) continue;
    const reason = overBecause(row, wf);
    const error = await releaseExecutorRow(service, row, { sessionState: 'ended', reason });
    closed.push({ row, reason, error });
  }
  return closed;
}
