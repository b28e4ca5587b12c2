import { executorChanged } from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';

/**
 * An executor's session is over (its run ended, or `baton executors stop`): what Baton created for it (a Docker
 * container) goes through the service's `releaseExecutor` port, the row becomes `stopped` (or `error` with why and
 * how to retry), and an `executor.changed` event says so. Returns the failure, or null.
 */
export async function releaseExecutorRow(
  service: BatonService,
  row: ExecutorRow,
  input: {
    sessionState: ExecutorRow['session_state'];
    reason: string;
    /** The agent is known to have ended (a run's end): its session state holds even when the removal fails. */
    exited?: boolean;
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
    error_message: error ? `${error}; retry with \`baton executors stop ${row.id}\`` : null,
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
