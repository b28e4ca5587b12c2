import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  isOwnerAlive,
  isProcessAlive,
  ownerId,
  processStartTime,
} from '../../src/executors/process-identity.js';

const sleeper = () => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });

describe('process identity: pid plus start time', () => {
  it('a live process with its own start time is alive; the same pid with another start time is not', async () => {
    const child = sleeper();
    try {
      const pid = child.pid ?? 0;
      const start = processStartTime(pid);
      expect(start).toMatch(/^\d+$/);
      expect(isProcessAlive(pid, start)).toBe(true);
      // What a reused pid looks like: the number is live, but it started at another time.
      expect(isProcessAlive(pid, String(Number(start) - 1))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('a dead process, a missing identity or an unreadable pid counts as not alive', async () => {
    const child = sleeper();
    const pid = child.pid ?? 0;
    const start = processStartTime(pid);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(isProcessAlive(pid, start)).toBe(false);
    expect(isProcessAlive(null, start)).toBe(false);
    expect(isProcessAlive(pid, null)).toBe(false);
    expect(isProcessAlive(2 ** 22 + 12345, '1')).toBe(false);
  });

  it("owners: this process is alive on this host; another host's owner cannot be checked and is not alive", () => {
    const me = ownerId('host-a');
    expect(isOwnerAlive(me, 'host-a')).toBe(true);
    expect(isOwnerAlive(me, 'host-b')).toBe(false);
    expect(isOwnerAlive(`host-a:${process.pid}:1`, 'host-a')).toBe(false);
    expect(isOwnerAlive(null, 'host-a')).toBe(false);
    expect(isOwnerAlive('garbage', 'host-a')).toBe(false);
  });
});
