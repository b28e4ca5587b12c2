/**
 * Runs the set-up of a newly opened SQLite connection (WAL mode, pragmas, migrations) again while SQLite says the
 * database is busy, for up to `ms`. Processes opening a new file at the same moment (the hooks of one agent turn start
 * together) can deadlock on switching it to WAL, each holding a shared lock and wanting an exclusive one: SQLite then
 * answers SQLITE_BUSY at once, without waiting out its busy timeout, and the hook failed with "database is locked".
 * Every step of the set-up may run again (the pragmas are idempotent, the migrations run in one transaction).
 */
export function retryWhileBusy<T>(ms: number, setUp: () => T): T {
  const deadline = Date.now() + ms;
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    try {
      return setUp();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw e;
      // a synchronous pause (the store opens in a constructor), with jitter so that two waiting processes part
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause * (1 + Math.random()));
    }
  }
}
