import { notFound } from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';
import { noRegistry } from './launch.js';
import { releaseExecutorRow } from './release-executor.js';

export interface StopOutcome {
  executor_id: string;
  workflow_id: string;
  runtime: string;
  container_id: string | null;
  status: ExecutorRow['status'];
  /** Why it could not be stopped (the row is then `error` with this reason), else null. */
  error: string | null;
  /** The workflow still counts this session as running: what to do about it. */
  hint: string | null;
}

/**
 * `baton executors stop`: each executor's agent is stopped and what Baton created for it (a Docker container) is
 * removed (releaseExecutorRow: the row becomes `stopped`, or `error` with the reason when that failed).
 */
export async function stopExecutors(
  service: BatonService,
  select: { ids?: readonly string[]; workflowId?: string; all?: boolean },
): Promise<StopOutcome[]> {
  const registry = service.store.executors;
  if (!registry) throw noRegistry();
  const rows: ExecutorRow[] = [];
  for (const id of select.ids ?? []) {
    const row = await registry.get(id);
    if (!row) throw notFound(`no executor ${id} (\`baton executors list\` shows them)`);
    rows.push(row);
  }
  if (select.workflowId) rows.push(...(await registry.list({ workflowId: select.workflowId })));
  if (select.all) rows.push(...(await registry.list({ status: ['starting', 'ready', 'error'] })));
  const out: StopOutcome[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const error = await releaseExecutorRow(service, row, {
      sessionState: 'ended',
      reason: 'stopped by `baton executors stop`',
    });
    const status = error ? 'error' : 'stopped';
    const wf = await service.store.loadState(row.workflow_id);
    const running = wf?.status === 'in_progress' && wf.session_count === row.session_number;
    out.push({
      executor_id: row.id,
      workflow_id: row.workflow_id,
      runtime: row.runtime,
      container_id: row.container_id,
      status,
      error,
      hint: running
        ? `workflow ${row.workflow_id} is still in_progress on this session: \`baton interrupt -w ${row.workflow_id}\` to stop it, or \`baton run -w ${row.workflow_id}\` to go on`
        : null,
    });
  }
  return out;
}
