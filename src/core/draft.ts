import { BatonError } from './errors.js';
import { applyEvent } from './fold.js';
import type { RecordRow } from './records.js';
import type { BatonEvent, NewEvent } from './schemas/events.js';
import { EVENT_SCHEMA_VERSION } from './schemas/events.js';
import type { WorkflowState } from './schemas/state.js';

/** What a command needs from the outside world: the clock, an id source and who is acting. */
export interface CommandContext {
  now: string;
  newId: (prefix: string) => string;
  actor: string;
}

/**
 * The events a command decides, folded as they are emitted, so that a later step of the same command (a
 * snapshot after a task completes) sees the state the earlier events made.
 */
export class Draft {
  readonly events: BatonEvent[] = [];
  readonly writes: RecordRow[] = [];
  private current: WorkflowState | null;

  constructor(
    readonly base: WorkflowState | null,
    readonly ctx: CommandContext,
    private readonly workflowId: string = base?.id ?? '',
  ) {
    this.current = base;
  }

  get state(): WorkflowState {
    if (!this.current) throw new BatonError('internal', 'the draft has no workflow yet');
    return this.current;
  }

  emit(e: NewEvent & { session_number?: number }): this {
    const seq = (this.current?.version ?? 0) + 1;
    const event = {
      v: EVENT_SCHEMA_VERSION,
      workflow_id: this.workflowId,
      seq,
      at: this.ctx.now,
      actor: this.ctx.actor,
      session_number: e.session_number ?? (this.current?.session_count || null),
      task_id: e.task_id ?? null,
      type: e.type,
      data: e.data,
    } as BatonEvent;
    const applied = applyEvent(this.current, event);
    this.current = applied.state;
    this.events.push(event);
    this.writes.push(...applied.writes);
    return this;
  }
}
