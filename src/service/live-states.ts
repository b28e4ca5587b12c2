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
 * running workflows while a long-lived process (server, runner) keeps the timer going. A short-lived command exits
 * before its save is due; one that closes its store first drops it (`stop`), never tries it on a closed store.
 */
export class LiveStates {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
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
    clearTimeout(this.pending.get(s.id));
    this.pending.set(
      s.id,
      setTimeout(() => {
        this.pending.delete(s.id);
        this.track(this.save(s, 'action'), `the live state of ${s.id}`);
      }, delayMs).unref(),
    );
  }

  /** Saves every running workflow's live state every `intervalMs` (default 30 s) until `stop`. */
  startAutoSave(intervalMs = 30_000): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(
      () => this.track(this.saveRunning(), 'the live states of running workflows'),
      intervalMs,
    );
    this.timer.unref();
  }

  /** The background saves under way: `stop` waits for them (the store closes after). */
  private readonly running = new Set<Promise<unknown>>();

  /** A save in the background: its failure said (`failed`), its success clearing the last one said. */
  private track(save: Promise<unknown>, what: string): void {
    const p = save
      .then(() => (this.lastFailure = null))
      .catch((e: Error) => this.failed(what, e))
      .finally(() => this.running.delete(p));
    this.running.add(p);
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

  /**
   * Stops the auto-save, drops the saves still waiting and waits for those under way (the store is about to close:
   * none is tried on a closed store).
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    await Promise.all([...this.running]);
  }
}
