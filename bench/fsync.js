import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The span a rewriting probe cycles through: the size of SQLite's WAL at its checkpoint threshold. */
const REWRITE_SPAN = 4 * 1024 * 1024;

/**
 * The disk's own limit: writes of `bytes` each followed by fdatasync, in the directory the database lives in.
 * `append` grows a new file (every fdatasync also commits the file's new size, as a WAL that is still growing
 * does); `rewrite` cycles through a file written beforehand (the data alone, as a WAL reused after a checkpoint
 * does, and as pg_test_fsync measures). This is what one durable commit at a time can never beat.
 */
export function fsyncProbe(dir, bytes = 512, mode = 'append') {
  const path = join(dir, `fsync-probe-${mode}-${bytes}.bin`);
  const fd = openSync(path, 'w');
  const buf = Buffer.alloc(bytes, 7);
  const span = Math.max(REWRITE_SPAN, bytes * 16);
  if (mode === 'rewrite') {
    writeSync(fd, Buffer.alloc(span, 7));
    fdatasyncSync(fd);
  }
  let at = 0;
  return {
    /** Runs for about `seconds`; returns the durable writes per second. */
    run(seconds) {
      let ops = 0;
      const start = process.hrtime.bigint();
      const end = start + BigInt(Math.round(seconds * 1e9));
      let now = start;
      while (now < end) {
        if (mode === 'rewrite') {
          writeSync(fd, buf, 0, bytes, at);
          at = at + bytes > span - bytes ? 0 : at + bytes;
        } else writeSync(fd, buf);
        fdatasyncSync(fd);
        ops++;
        now = process.hrtime.bigint();
      }
      const secs = Number(now - start) / 1e9;
      return { ops, seconds: secs, perSecond: ops / secs };
    },
    close() {
      closeSync(fd);
      rmSync(path, { force: true });
    },
  };
}
