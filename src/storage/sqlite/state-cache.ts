import type { WorkflowState } from '../../core/index.js';

/** How many workflows' states one process keeps parsed. */
const LIMIT = 256;

/** Under test every cached state is frozen, so code that mutates a state it was handed fails loudly there. */
const freezing = process.env.NODE_ENV === 'test';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export interface CachedState {
  /** The row's `rev`: a random stamp written with every write of the row, by any process. */
  rev: number;
  state: WorkflowState;
}

/**
 * The parsed states this process last read or wrote, by workflow. Parsing the state is most of the cost of
 * loading it; a load asks the database for the row's `rev` and reuses the parsed state while it is unchanged.
 * States are shared, never copied: the fold makes new states and never changes one it was given.
 */
export class StateCache {
  private readonly entries = new Map<string, CachedState>();

  get(workflowId: string): CachedState | undefined {
    return this.entries.get(workflowId);
  }

  set(workflowId: string, rev: number, state: WorkflowState): void {
    this.entries.delete(workflowId);
    this.entries.set(workflowId, { rev, state: freezing ? deepFreeze(state) : state });
    if (this.entries.size > LIMIT) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(workflowId: string): void {
    this.entries.delete(workflowId);
  }
}

/** A new `rev` stamp (53 random bits: another writer's stamp equals it by chance about never). */
export const newRev = (): number => Math.floor(Math.random() * 2 ** 53);
