import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  BatonError,
  Draft,
  notFound,
  USER_ACTOR,
  type BatonEvent,
  type CommandContext,
  type WorkflowState,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { ServiceOptions } from './ports.js';

let lastStamp = '';
let sequence = 0;
let pool = Buffer.alloc(0);
let offset = 0;

/** Three random bytes as hex, from a pool refilled 3 KiB at a time (one crypto call per thousand ids). */
function randomHex3(): string {
  if (offset + 3 > pool.length) {
    pool = randomBytes(3 * 1024);
    offset = 0;
  }
  offset += 3;
  return pool.toString('hex', offset - 3, offset);
}

/**
 * Ids that sort in creation order (a base-36 millisecond stamp and a counter, then randomness against other
 * processes): records are appended at the end of their index instead of splitting pages at random places.
 */
export function randomId(prefix: string): string {
  const stamp = Date.now().toString(36).padStart(9, '0');
  sequence = stamp === lastStamp ? sequence + 1 : 0;
  lastStamp = stamp;
  return `${prefix}-${stamp}${sequence.toString(36).padStart(3, '0')}${randomHex3()}`;
}

/**
 * Load, decide, commit: the one way every command changes a workflow. The command decides against the state it
 * loaded; the store refuses the commit if another writer got there first (optimistic concurrency on the
 * workflow's version). Commands that only append records, and the ones whose decision stands or says so on any
 * state (a pause: `retry: true`), are decided again on the new state.
 */
export type CommitListener = (events: readonly BatonEvent[], state: WorkflowState) => void | Promise<void>;

export class CommandRunner {
  /**
   * Called after every successful commit (the disk mirror, live notifications, the queued row of a workflow that
   * ended). A failing listener never fails the command.
   */
  readonly listeners = new Set<CommitListener>();

  constructor(
    readonly store: Store,
    private readonly options: ServiceOptions,
  ) {}

  /** Who acts in the commands of one stretch of work (`actingAs`), when not the process's actor. */
  private readonly acting = new AsyncLocalStorage<string>();

  /**
   * Runs `work` with `actor` acting in every command it runs (what it does then, its timers included), unless a
   * command names its own: a server driving an agent acts as `baton` while it serves a person's requests as `user`.
   */
  actingAs<T>(actor: string, work: () => T): T {
    return this.acting.run(actor, work);
  }

  /**
   * What a command decides with; `actor`, who acts in this one (else the actor of the work it is part of, else the
   * process's actor, else `user`).
   */
  context(actor?: string): CommandContext {
    return {
      now: (this.options.now?.() ?? new Date()).toISOString(),
      newId: this.options.newId ?? randomId,
      actor: actor ?? this.acting.getStore() ?? this.options.actor ?? USER_ACTOR,
    };
  }

  async load(workflowId: string): Promise<WorkflowState> {
    const state = await this.store.loadState(workflowId);
    if (!state)
      throw notFound(`no workflow ${workflowId}; list them with \`baton list\``, { workflow_id: workflowId });
    return state;
  }

  /**
   * The state this process last committed, per workflow (the most recent few hundred): record appends on
   * PostgreSQL decide on it without loading the row again, and commit it as `unloadedBase`, so the store refuses
   * them unless the row is still exactly that state; a refused one is decided again on a fresh load.
   */
  private readonly committed = new Map<string, WorkflowState>();

  private remember(workflowId: string, state: WorkflowState) {
    this.committed.delete(workflowId);
    this.committed.set(workflowId, state);
    if (this.committed.size > 256) this.committed.delete(this.committed.keys().next().value as string);
  }

  /** The tail of each workflow's queue of commands in this process. */
  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * Commands on one workflow run one after another within a process (a server handling concurrent requests), so
   * they never race each other; races between processes are left to the store's version check.
   */
  private serialize<T>(workflowId: string, job: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(workflowId) ?? Promise.resolve();
    const next = previous.then(job, job);
    const tail = next.catch(() => undefined);
    this.queues.set(workflowId, tail);
    void tail.then(() => {
      if (this.queues.get(workflowId) === tail) this.queues.delete(workflowId);
    });
    return next;
  }

  /**
   * Runs `decide` on a draft of the current state and commits what it emitted; returns its result and the new state.
   * `actor`: who acts in this command's events, when not the process's actor (an agent Baton runs reporting its work).
   */
  run<T>(
    workflowId: string,
    decide: (d: Draft, state: WorkflowState) => T | Promise<T>,
    opts: { retry?: boolean; actor?: string } = {},
  ): Promise<{ result: T; state: WorkflowState; draft: Draft }> {
    return this.serialize(workflowId, () => this.attempt(workflowId, decide, opts));
  }

  private async attempt<T>(
    workflowId: string,
    decide: (d: Draft, state: WorkflowState) => T | Promise<T>,
    opts: { retry?: boolean; actor?: string },
  ): Promise<{ result: T; state: WorkflowState; draft: Draft }> {
    for (let attempt = 0; ; attempt++) {
      const kept =
        opts.retry && attempt === 0 && this.store.dialect === 'postgres'
          ? this.committed.get(workflowId)
          : undefined;
      const base = kept ?? (await this.load(workflowId));
      const draft = new Draft(base, this.context(opts.actor));
      let result: T;
      try {
        result = await decide(draft, base);
      } catch (e) {
        if (kept) continue; // refused on this process's memory of the state: decided again on the stored one
        throw e;
      }
      if (draft.events.length === 0) {
        if (kept) continue; // what it reports comes from the stored state, not from this process's memory
        return { result, state: base, draft };
      }
      try {
        await this.store.commit({
          workflowId,
          expectedVersion: base.version,
          events: draft.events,
          state: draft.state,
          writes: draft.writes,
          ...(kept ? { unloadedBase: kept } : {}),
        });
        this.remember(workflowId, draft.state);
        await this.notify(draft.events, draft.state);
        return { result, state: draft.state, draft };
      } catch (e) {
        this.committed.delete(workflowId);
        if (kept && BatonError.isInstance(e) && e.code === 'conflict') continue;
        // A lost race is retried only for commands that commute (record appends) or decide again whatever won (a
        // pause); a transition that lost reports the conflict, so exactly one of several racing writers wins.
        if (!opts.retry || !BatonError.isInstance(e) || e.code !== 'conflict' || attempt >= 5) throw e;
      }
    }
  }

  /** Creates a workflow: the draft starts from nothing. */
  async create<T>(workflowId: string, decide: (d: Draft) => T): Promise<{ result: T; state: WorkflowState }> {
    const draft = new Draft(null, this.context(), workflowId);
    const result = decide(draft);
    await this.store.commit({
      workflowId,
      expectedVersion: 0,
      events: draft.events,
      state: draft.state,
      writes: draft.writes,
    });
    this.remember(workflowId, draft.state);
    await this.notify(draft.events, draft.state);
    return { result, state: draft.state };
  }

  private async notify(events: readonly BatonEvent[], state: WorkflowState): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(events, state);
      } catch {
        // A listener's failure must not undo or fail an acknowledged commit; listeners catch up on their own.
      }
    }
  }
}
