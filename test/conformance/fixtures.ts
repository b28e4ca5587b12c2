import { Draft, recordHistory, type CommandContext, type WorkflowState } from '../../src/core/index.js';
import type { CommitBatch, Store } from '../../src/storage/store.js';
import type { BatonService } from '../../src/service/index.js';
import { tempDir } from '../helpers/git-repo.js';

export const threeTasks = [
  { id: 'T1', title: 'Write schema', deps: [] },
  { id: 'T2', title: 'Implement API', deps: ['T1'] },
  { id: 'T3', title: 'Write tests', deps: ['T2'] },
];

export const ctx = (now = '2026-01-01T00:00:00.000Z'): CommandContext => {
  let n = 0;
  return { now, newId: (p) => `${p}-${Date.now().toString(36)}-${++n}`, actor: 'test' };
};

/** A batch appending `n` history entries to `state`, decided on its version. */
export function historyBatch(state: WorkflowState, n = 1, text = 'step'): CommitBatch {
  const d = new Draft(state, ctx(state.updated_at));
  for (let i = 0; i < n; i++) recordHistory(d, `${text} ${i}`, null, 'test');
  return {
    workflowId: state.id,
    expectedVersion: state.version,
    events: d.events,
    state: d.state,
    writes: d.writes,
  };
}

export async function createWorkflow(svc: BatonService, title = 'Add login', tasks = threeTasks) {
  return svc.create({ title, tasks, worktree: tempDir('baton-wt-') });
}

export async function loaded(store: Store, id: string): Promise<WorkflowState> {
  const s = await store.loadState(id);
  if (!s) throw new Error(`workflow ${id} is missing`);
  return s;
}

/** Expects `work` to reject with a BatonError of `code`; returns it. */
export async function rejection(
  work: Promise<unknown>,
): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await work;
  } catch (e) {
    return e as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}
