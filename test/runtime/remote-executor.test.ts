import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startExecutorDaemon } from '../../src/executors/remote/executor-daemon.js';
import { RemoteExecutor } from '../../src/executors/remote/remote-executor.js';
import { writeFileSync } from 'node:fs';
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

  it('a host lost mid-run is said at once with the time Baton gives up; back again, the run is followed from where it was', async () => {
    // Baton reaches the host through a relay the test can cut: the network between them, not the host, fails.
    const port = await freePort();
    const daemon = await startExecutorDaemon({
      host: '127.0.0.1',
      port: 0,
      token,
      allowedHosts: [`127.0.0.1:${port}`],
    });
    const sockets = new Set<Socket>();
    let relay: Server | null = null;
    const open = () =>
      new Promise<void>((r) => {
        relay = createServer((client) => {
          const host = connect(daemon.port, '127.0.0.1');
          for (const s of [client, host]) {
            sockets.add(s);
            s.on('close', () => sockets.delete(s));
            s.on('error', () => undefined);
          }
          client.pipe(host).pipe(client);
        });
        relay.listen(port, '127.0.0.1', () => r());
      });
    const cut = () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        relay?.close(() => r());
      });
    await open();
    const remote = new RemoteExecutor(`http://127.0.0.1:${port}`, credential, 20_000);
    const gate = `${tempDir()}/gate`;
    try {
      const proc = await remote.launch({
        bin: process.execPath,
        args: [
          '-e',
          `const fs = require('fs'); console.log('one'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); console.log('two'); } }, 20);`,
        ],
        cwd: tempDir(),
        env: {},
        stdin: null,
      });
      const notices: string[] = [];
      let out = '';
      proc.onNotice?.((l) => notices.push(l));
      proc.onOutput((d) => (out += d));
      const exited = proc.wait();
      await until('the first output', () => out.includes('one'));
      const cutAt = Date.now();
      await cut();
      await until('the loss to be said', () => notices.length >= 1, 5_000);
      expect(Date.now() - cutAt).toBeLessThan(2_000);
      expect(notices[0]).toMatch(
        new RegExp(
          `^lost contact with the executor http://127\\.0\\.0\\.1:${port} \\(.+\\); its agent \\(pid ${proc.pid} on that host\\) may still be working: retrying until \\d\\d:\\d\\d:\\d\\d$`,
        ),
      );
      // the agent works on meanwhile; its host keeps the output
      writeFileSync(gate, 'open');
      await open();
      const exit = await exited;
      expect(exit.code).toBe(0);
      expect(out).toBe('one\ntwo\n'); // nothing lost, nothing read twice
      expect(notices).toHaveLength(2);
      expect(notices[1]).toMatch(
        /^the executor \S+ answers again after \d+ s: following run run-\w+ from where Baton was$/,
      );
    } finally {
      await cut();
      await daemon.close();
    }
  });

  it('a host that comes back without the run (it restarted) ends the run as lost at once: no retry brings its output back', async () => {
    const first = await startExecutorDaemon({ host: '127.0.0.1', port: 0, token });
    const remote = new RemoteExecutor(first.url, credential, 60_000);
    const proc = await remote.launch({
      bin: process.execPath,
      args: ['-e', 'console.log("working"); setTimeout(() => undefined, 60000)'],
      cwd: tempDir(),
      env: {},
      stdin: null,
    });
    let out = '';
    proc.onOutput((d) => (out += d));
    const exited = proc.wait();
    let second: Awaited<ReturnType<typeof startExecutorDaemon>> | null = null;
    try {
      await until('the agent at work', () => out.includes('working'));
      await first.close();
      second = await startExecutorDaemon({ host: '127.0.0.1', port: first.port, token });
      const startedAt = Date.now();
      const exit = await exited;
      expect(Date.now() - startedAt).toBeLessThan(10_000); // not the 60 s of a host that does not answer
      expect(exit).toMatchObject({ code: null, signal: 'lost' });
      expect(exit.stderr).toContain(
        `the executor ${first.url} answers but no longer knows the run ${proc.runId} (it restarted?)`,
      );
    } finally {
      // the agent outlives its host, as it does when a host is killed: the test ends it
      if (proc.pid) process.kill(proc.pid, 'SIGKILL');
      await second?.close();
    }
  });
});
