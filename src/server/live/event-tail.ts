import type { EventFeed, PositionedEvent } from '../../service/index.js';

const PAGE = 1000;

/**
 * Follows the event log by polling the service's feed, so that commits by other processes (a CLI beside
 * the server) reach live subscribers too. `kick()` polls at once (after a commit made in this process).
 */
export class EventTail {
  position = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly feed: EventFeed,
    private readonly onEvents: (events: PositionedEvent[]) => void,
    private readonly intervalMs = 150,
  ) {}

  async start() {
    this.position = await this.feed.latestPosition();
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
        const batch = await this.feed.since(this.position, PAGE);
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
