import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

const driver = createRequire(import.meta.url).resolve('better-sqlite3');
const holders: ChildProcess[] = [];

/**
 * Another program holding a SQLite file's write lock (a `sqlite3` shell with a transaction open, a long import): a
 * process of its own that opens `path` and keeps a write transaction open until it is killed (`releaseLocks`), or,
 * with `forMs`, until it ends that transaction itself (a write of this process blocks its event loop while it waits,
 * so no timer here could end it).
 */
export async function holdWriteLock(path: string, opts: { forMs?: number } = {}): Promise<ChildProcess> {
  const release = opts.forMs === undefined ? '' : `setTimeout(() => db.exec('ROLLBACK'), ${opts.forMs});`;
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(path)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); ${release} setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  holders.push(holder);
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    holder.on('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return holder;
}

/** Kills every lock holder still running (an afterEach). */
export function releaseLocks(): void {
  for (const p of holders.splice(0)) p.kill('SIGKILL');
}
