import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The disk's own limit: small appends each followed by fdatasync, in the directory the database lives in.
 * This is what one durable commit at a time can never beat.
 */
export function measureFsync(dir, { seconds = 2, bytes = 512 } = {}) {
  const probe = fsyncProbe(dir, bytes);
  const r = probe.run(seconds);
  probe.close();
  return r;
}

/** A probe that can be run in slices, interleaved with the workload it is the baseline of. */
export function fsyncProbe(dir, bytes = 512, name = 'fsync-probe.bin') {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  const buf = Buffer.alloc(bytes, 7);
  return {
    run(seconds) {
      let ops = 0;
      const start = process.hrtime.bigint();
      const end = start + BigInt(Math.round(seconds * 1e9));
      let now = start;
      while (now < end) {
        writeSync(fd, buf);
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
