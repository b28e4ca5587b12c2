import { RETRY_WAITS, retryWait } from './retry-wait.js';

/**
 * The waits one `baton run --auto-resume` made in a row with nothing done between (for a usage limit, or an API
 * failure that passes), and their time: a task done starts the count again. The sessions those waits started are not
 * counted against --max-sessions: the waits have their own bound (`RETRY_WAITS`).
 */
export class AutoResumeWaits {
  /** The waits made in a row with nothing done since. */
  waits = 0;
  /** How many of those were growing waits: the next one is `retryWait(backoffs)`. */
  backoffs = 0;
  /** Their time in all. */
  waitedMs = 0;
  /** The sessions those waits started, in the whole run (a task done does not give them back to --max-sessions). */
  sessions = 0;
  /**
   * A limit or an API failure met since the last task done: one back now came back with nothing done between, and
   * is waited out with the growing wait even when its reset has passed.
   */
  again = false;

  /** `firstMs`: the first growing wait (`--retry-wait`, default `FIRST_RETRY_WAIT`). */
  constructor(readonly firstMs: number) {}

  /** A wait made (`backedOff`: one of the growing ones), after which a fresh session goes on. */
  waited(ms: number, backedOff: boolean): void {
    this.wentOnAtOnce();
    this.waits++;
    if (backedOff) this.backoffs++;
    this.waitedMs += ms;
  }

  /**
   * A usage limit whose reset had passed already: a fresh session goes on at once. That is no wait (it is neither
   * said nor counted as one: the first growing wait after it is "wait 1 of 12"), but the limit is met all the same.
   */
  wentOnAtOnce(): void {
    this.again = true;
    this.sessions++;
  }

  /** A task done: the next limit or API failure is a first one again. */
  taskDone(): void {
    this.waits = 0;
    this.backoffs = 0;
    this.waitedMs = 0;
    this.again = false;
  }

  /** The growing wait before going on after an API failure that passes; null once the waits ran out. */
  nextBackoff(): number | null {
    return this.waits < RETRY_WAITS ? retryWait(this.backoffs, this.firstMs) : null;
  }

  /** Whether `--max-sessions` lets one more session start, `sessions` having run: those the waits started are free. */
  mayStartSession(sessions: number, maxSessions: number | null): boolean {
    return maxSessions === null || sessions - this.sessions < maxSessions;
  }
}
