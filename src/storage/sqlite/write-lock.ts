import Database from 'better-sqlite3';
import { isBusy, writeFailure } from './open-failure.js';

/** How long a write waits for another process's write lock before it says that it waits. */
export const SILENT_WAIT_MS = 1500;

/** Where a wait for the lock is said when the opener names no other place: standard error, as the CLI's warnings. */
export const lockWaitToStderr = (line: string): void => void process.stderr.write(`baton: ${line}\n`);

export interface WriteLockOptions {
  /** How long a write waits for the lock before it fails (10 s). */
  busyTimeoutMs?: number;
  /** Where a write that has waited SILENT_WAIT_MS for the lock says so, once (default: standard error). */
  onLockWait?: (line: string) => void;
  /**
   * The time (as Date.now()) no write waits past, when it comes before busyTimeoutMs runs out: a hook's budget, which
   * no timer can keep while a write waits (a write after it tries once, without waiting).
   */
  waitUntil?: number;
}

/**
 * The waiting for a SQLite file's write lock, for every write of one connection (events, leases, the work queue,
 * workers, executors, the LangGraph tables, migrations): the one place that waits, says it waits, and says why it
 * gave up. better-sqlite3 waits inside SQLite and blocks the event loop, so no timer can speak during its busy
 * timeout: the connection's own timeout is the silent part of the wait only, and a write still refused then is said
 * to wait and is run again for the time left.
 */
export class WriteLock {
  readonly db: Database.Database;
  private readonly busyMs: number;
  private readonly silentMs: number;
  private readonly say: (line: string) => void;
  private readonly until: number;

  constructor(
    readonly location: string,
    options: WriteLockOptions = {},
  ) {
    this.busyMs = options.busyTimeoutMs ?? 10_000;
    this.silentMs = Math.min(SILENT_WAIT_MS, this.busyMs);
    this.say = options.onLockWait ?? lockWaitToStderr;
    this.until = options.waitUntil ?? Infinity;
    this.db = new Database(location, { timeout: this.silentMs });
  }

  /**
   * Runs one write (a statement, or a transaction function: its BEGIN IMMEDIATE takes the lock before anything is
   * written, and one that fails is rolled back whole, so running it again applies it once). A write refused all the
   * time it waited fails with what holds it up and what to do (writeFailure); any other error is thrown as it is.
   */
  write<T>(write: () => T): T {
    try {
      return this.waitFor(write);
    } catch (e) {
      throw writeFailure(this.location, e);
    }
  }

  /** `write`, throwing the driver's own error when the wait runs out (opening says it its own way: openFailure). */
  waitFor<T>(write: () => T): T {
    const start = Date.now();
    const deadline = Math.min(start + this.busyMs, this.until);
    let timeout = this.silentMs;
    let told = false;
    let pause = 5;
    try {
      // a wait that must end sooner than the silent part of it (waitUntil)
      if (deadline - start < timeout)
        this.db.pragma(`busy_timeout = ${(timeout = Math.max(0, deadline - start))}`);
      for (;;) {
        const tried = Date.now();
        try {
          return write();
        } catch (e) {
          if (!isBusy(e) || Date.now() >= deadline) throw e;
          if (!told && Date.now() - start >= this.silentMs) {
            told = true;
            this.say(
              `waiting for the write lock on ${this.location} (held by another process) for up to ${Math.ceil((deadline - Date.now()) / 1000)} s more ...`,
            );
          }
          // SQLite answered busy at once, without its timeout (processes opening a new file together deadlock on
          // switching it to WAL): a short pause, with jitter so that two waiting processes part
          if (Date.now() - tried < timeout / 2) {
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause * (1 + Math.random()));
            pause = Math.min(pause * 2, 200);
          }
          const until = told ? deadline : start + this.silentMs;
          const next = Math.max(0, Math.min(until, deadline) - Date.now());
          if (next !== timeout) this.db.pragma(`busy_timeout = ${(timeout = next)}`);
        }
      }
    } finally {
      if (timeout !== this.silentMs && this.db.open) this.db.pragma(`busy_timeout = ${this.silentMs}`);
    }
  }
}
