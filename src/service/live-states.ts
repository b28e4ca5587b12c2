import { inProgressTasks, nextTask, type WorkflowState } from '../core/index.js';
import type { LiveState, Store } from '../storage/store.js';
import type { ServiceOptions } from './ports.js';

/** What the Go Team live state file holds, derived from the folded state. */
export function liveStateOf(s: WorkflowState) {
  const last = s.checkpoints[s.checkpoints.length - 1];
  const history = s.recent_history[s.recent_history.length - 1];
  return {
    status: s.status,
    session_number: s.session_count,
    current_tasks: inProgressTasks(s.tasks).map((t) => t.id),
    next_task: nextTask(s.tasks)?.id ?? null,
    pending_tasks: s.tasks.filter((t) => t.status !== 'done' && t.status !== 'skipped').map((t) => t.id),
    last_action: history?.text ?? null,
    recovery_point: {
      checkpoint: last?.name ?? null,
      actions_since_checkpoint: s.version - (last?.seq ?? 0),
    },
  };
}

/**
 * The live state (auto-save): written after each action, debounced for bursts, and at least every 30 s for
 * running workflows while a long-lived process (server, runner) keeps the timer going. A save still waiting when the
 * process closes its store is made then (`flush`), never after the store is closed.
 */
export class LiveStates {
  private readonly pending = new Map<
    string,
    { timer: ReturnType<typeof setTimeout>; state: WorkflowState }
  >();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly store: Store,
    private readonly options: ServiceOptions,
  ) {}

  async save(s: WorkflowState, trigger: LiveState['trigger']): Promise<void> {
    await this.store.saveLiveState({
      workflow_id: s.id,
      saved_at: (this.options.now?.() ?? new Date()).toISOString(),
      trigger,
      version: s.version,
      data: liveStateOf(s),
    });
  }

  /** Coalesces bursts of actions into one save `delayMs` after the last of them. */
  debounce(s: WorkflowState, delayMs = 1000): void {
    clearTimeout(this.pending.get(s.id)?.timer);
    const timer = setTimeout(() => {
      this.pending.delete(s.id);
      void this.saveAction(s);
    }, delayMs).unref();
    this.pending.set(s.id, { timer, state: s });
  }

  private saveAction(s: WorkflowState): Promise<void> {
    return this.save(s, 'action')
      .then(() => void (this.lastFailure = null))
      .catch((e: Error) => this.failed(`the live state of ${s.id}`, e));
  }

  /** Saves every running workflow's live state every `intervalMs` (default 30 s) until `stop`. */
  startAutoSave(intervalMs = 30_000): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(
      () =>
        void this.saveRunning()
          .then(() => (this.lastFailure = null))
          .catch((e: Error) => this.failed('the live states of running workflows', e)),
      intervalMs,
    );
    this.timer.unref();
  }

  /** The last background failure said: the same one again is not repeated every 30 s. */
  private lastFailure: string | null = null;

  /** A save in the background that failed: said where a person looks, once while it stays the same. */
  private failed(what: string, e: Error): void {
    const line = `could not save ${what}: ${e.message} (tried again at the next save)`;
    if (line === this.lastFailure) return;
    this.lastFailure = line;
    this.options.watch?.notice?.(line);
  }

  async saveRunning(): Promise<number> {
    const running = await this.store.listWorkflows({ status: ['in_progress', 'blocked'] });
    for (const s of running) await this.save(s, 'auto');
    return running.length;
  }

  /** Stops the auto-save and makes the saves still waiting now (before the store closes). */
  async flush(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { timer, state } of waiting) {
      clearTimeout(timer);
      await this.saveAction(state);
    }
  }
}
