import type { StoredEvent, Store } from '../../storage/store.js';

const PAGE = 1000;

/** The store's latest position, found with O(log n) indexed reads through the Store interface alone. */
export async function latestPosition(store: Store): Promise<number> {
  const after = async (p: number) => (await store.readEventsSince(p, 1)).length > 0;
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

/**
 * Follows the store's event log by polling `readEventsSince`, so that commits by other processes (a CLI beside
 * the server) reach live subscribers too. `kick()` polls at once (after a commit made in this process).
 */
export class EventTail {
  position = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly store: Store,
    private readonly onEvents: (events: StoredEvent[]) => void,
    private readonly intervalMs = 150,
  ) {}

  async start() {
    this.position = await latestPosition(this.store);
    this.timer = setInterval(() => this.kick(), this.intervalMs);
    this.timer.unref();
  }

  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.kick();
      }
    });
    return this.running;
  }

  private async drain() {
    try {
      for (;;) {
        const batch = await this.store.readEventsSince(this.position, PAGE);
        if (!batch.length) return;
        this.position = batch[batch.length - 1]?.position ?? this.position;
        this.onEvents(batch);
        if (batch.length < PAGE) return;
      }
    } catch (e) {
      console.error(`baton serve: reading new events failed: ${(e as Error).message}`);
    }
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
