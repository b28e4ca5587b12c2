import type { Store, StoredEvent } from '../storage/store.js';

/** An event with its store-wide position (a live subscriber's `since`). */
export type PositionedEvent = StoredEvent;

/**
 * The event log as its followers read it (the server's event tail, WebSocket replays, `/readyz`): the one port the
 * edges use instead of the Store, so what they may do with the log is this and no more.
 */
export class EventFeed {
  constructor(private readonly store: Store) {}

  /** Up to `limit` events after `position`, oldest first (of one workflow, when given). */
  since(position: number, limit: number, workflowId?: string): Promise<PositionedEvent[]> {
    return this.store.readEventsSince(position, limit, workflowId);
  }

  /** The latest position, found with O(log n) indexed reads through the Store interface alone (0 when empty). */
  async latestPosition(): Promise<number> {
    const after = async (p: number) => (await this.store.readEventsSince(p, 1)).length > 0;
    if (!(await after(0))) return 0;
    let lo = 0;
    let hi = 1;
    while (await after(hi)) {
      lo = hi;
      hi *= 2;
    }
    // invariant: some event lies after lo, none after hi; the latest position is the smallest p with none after it
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await after(mid)) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  /** Whether the store answers: one indexed read past the end of the log; throws what the store throws. */
  async check(): Promise<void> {
    await this.store.readEventsSince(Number.MAX_SAFE_INTEGER, 1);
  }
}
