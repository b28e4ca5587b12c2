import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startExecutorDaemon } from '../../src/executors/remote/executor-daemon.js';
import { RemoteExecutor } from '../../src/executors/remote/remote-executor.js';
import { tempDir } from '../helpers/git-repo.js';
import { until } from '../helpers/until.js';

const token = 'test-executor-token-0123456789';
const credential = { token, source: 'the test', hint: '' };

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

describe('RemoteExecutor against a real `baton executor serve` daemon', () => {
  it('reconnects with backoff: a host that refuses at first and comes up later is found healthy', async () => {
    const port = await freePort();
    // A listener that drops every connection stands for a host still starting: each attempt is counted.
    const attempts: number[] = [];
    const refuser = createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((r) => refuser.listen(port, '127.0.0.1', r));
    const remote = new RemoteExecutor(`http://127.0.0.1:${port}`, credential);
    let settled = false;
    const health = remote.health().finally(() => (settled = true));
    await until('two refused attempts', () => attempts.length >= 2, 10_000, 10);
    await new Promise((r) => refuser.close(r));
    expect(settled).toBe(false); // still retrying, not given up after the first refusals
    const daemon = await startExecutorDaemon({ host: '127.0.0.1', port, token });
    try {
      expect(await health).toBe(true);
      // the second attempt waited for the first backoff step (200 ms) instead of hammering the host
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(190);
      expect(await remote.capabilities()).toEqual({
        supports_session_resume: true,
        supports_workspace_only: true,
      });
    } finally {
      await daemon.close();
    }
  });

  it('a host that never answers is unhealthy, and a run it does not know is not alive', async () => {
    const remote = new RemoteExecutor(`http://127.0.0.1:${await freePort()}`, credential);
    expect(await remote.health()).toBe(false);
    const daemon = await startExecutorDaemon({ host: '127.0.0.1', port: 0, token });
    try {
      const live = new RemoteExecutor(daemon.url, credential);
      const row = { run_id: 'run-missing', pid: null, pid_start_time: null } as never;
      expect(await live.isAlive(row)).toBe(false);
      expect(await live.attach(row)).toBeNull();
      const proc = await live.launch({
        bin: process.execPath,
        args: ['-e', 'console.log("hello from the host")'],
        cwd: tempDir(),
        env: {},
        stdin: null,
      });
      let out = '';
      proc.onOutput((d) => (out += d));
      expect((await proc.wait()).code).toBe(0);
      expect(out).toContain('hello from the host');
    } finally {
      await daemon.close();
    }
  });
});
