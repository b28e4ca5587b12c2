import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  isOwnerAlive,
  isProcessAlive,
  ownerId,
  ownerLiveness,
  parseOwner,
  processLiveness,
  processStartTime,
  startTimeSource,
} from '../../src/executors/process-identity.js';

const sleeper = () => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
const killed = async (child: ReturnType<typeof sleeper>) => {
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
};

describe('process identity: pid plus start time', () => {
  it('a live process with its own start time is alive; the same pid with another start time is dead', async () => {
    const child = sleeper();
    try {
      const pid = child.pid ?? 0;
      const start = processStartTime(pid);
      expect(startTimeSource).toBe(process.platform === 'linux' ? 'proc' : 'ps');
      expect(start).toBeTruthy();
      expect(processLiveness(pid, start)).toBe('alive');
      expect(isProcessAlive(pid, start)).toBe(true);
      // What a reused pid looks like: the number is live, but it started at another time.
      expect(processLiveness(pid, `${start}0`)).toBe('dead');
      // Without a recorded start time the identity cannot be checked: never assumed dead, never alive.
      expect(processLiveness(pid, null)).toBe('unknown');
    } finally {
      await killed(child);
    }
  });

  it('the macOS way (`ps -o lstart`) gives a stable start time too, and the same verdicts', async () => {
    const child = sleeper();
    const pid = child.pid ?? 0;
    try {
      const start = processStartTime(pid, 'ps');
      expect(start).toMatch(/\d{4}$/);
      expect(processStartTime(pid, 'ps')).toBe(start);
      expect(processLiveness(pid, start, 'ps')).toBe('alive');
      expect(processLiveness(pid, 'Thu Jan 1 00:00:00 1970', 'ps')).toBe('dead');
    } finally {
      await killed(child);
    }
    expect(processStartTime(pid, 'ps')).toBeNull();
  });

  it('a process that is gone is dead; no pid at all is unknown', async () => {
    const child = sleeper();
    const pid = child.pid ?? 0;
    const start = processStartTime(pid);
    await killed(child);
    expect(processLiveness(pid, start)).toBe('dead');
    expect(isProcessAlive(pid, start)).toBe(false);
    expect(processLiveness(null, start)).toBe('unknown');
    expect(processLiveness(2 ** 22 + 12345, '1')).toBe('dead');
  });

  it("owners: this process is alive on this host; another host's owner cannot be checked", () => {
    const me = ownerId(hostname());
    expect(parseOwner(me)).toMatchObject({ host: hostname(), pid: process.pid });
    expect(isOwnerAlive(me, hostname())).toBe(true);
    expect(ownerLiveness(parseOwner(me), 'elsewhere')).toBe('unknown');
    expect(isOwnerAlive(me, 'elsewhere')).toBe(false);
    expect(ownerLiveness(parseOwner(`${hostname()}:${process.pid}:1:x`), hostname())).toBe('dead');
    expect(ownerLiveness(parseOwner(`${hostname()}:${process.pid}:?:x`), hostname())).toBe('unknown');
    expect(parseOwner('garbage')).toBeNull();
    expect(isOwnerAlive(null, hostname())).toBe(false);
  });
});
