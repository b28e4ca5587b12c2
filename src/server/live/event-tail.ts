import type { EventFeed, PositionedEvent } from '../../service/index.js';

const PAGE = 1000;

/** While reading keeps failing (a database outage), it is said again at most this often, with the count. */
const REPEAT_MS = 60_000;

/**
 * Follows the event log by polling the service's feed, so that commits by other processes (a CLI beside
 * the server) reach live subscribers too. `kick()` polls at once (after a commit made in this process).
 */
export class EventTail {
  position = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** The outage under way: when it began, how many polls failed, when it was last said. */
  private failing: { since: number; count: number; saidAt: number } | null = null;

  constructor(
    private readonly feed: EventFeed,
    private readonly onEvents: (events: PositionedEvent[]) => void,
    private readonly intervalMs = 150,
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly now: () => number = Date.now,
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
        if (!batch.length) break;
        this.position = batch[batch.length - 1]?.position ?? this.position;
        this.onEvents(batch);
        if (batch.length < PAGE) break;
      }
      this.recovered();
    } catch (e) {
      this.failed(e as Error);
    }
  }

  /** A failed poll: said once, then at most every REPEAT_MS with how many failed, not at every poll. */
  private failed(e: Error) {
    const now = this.now();
    const f = this.failing;
    if (!f) {
      this.failing = { since: now, count: 1, saidAt: now };
      this.log(
        `baton serve: reading new events failed: ${e.message} (live events wait; said again every ${REPEAT_MS / 1000} s while it lasts)`,
      );
      return;
    }
    f.count++;
    if (now - f.saidAt < REPEAT_MS) return;
    f.saidAt = now;
    this.log(
      `baton serve: reading new events still fails (${f.count} polls since ${new Date(f.since).toISOString()}): ${e.message}`,
    );
  }

  private recovered() {
    const f = this.failing;
    if (!f) return;
    this.failing = null;
    this.log(
      `baton serve: reading new events works again after ${Math.round((this.now() - f.since) / 1000)} s (${f.count} failed polls); live events go on from where they stopped`,
    );
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
