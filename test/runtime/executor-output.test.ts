import { describe, expect, it } from 'vitest';
import { startExecutorDaemon } from '../../src/executors/remote/executor-daemon.js';
import { OutputRing } from '../../src/executors/remote/output-ring.js';
import { RemoteExecutor } from '../../src/executors/remote/remote-executor.js';
import { tempDir } from '../helpers/git-repo.js';
import { rawRequest } from '../helpers/raw-http.js';

const token = 'test-executor-token-0123456789';
const credential = { token, source: 'the test', hint: '' };
const auth = { authorization: `Bearer ${token}` };

/** 600 lines `line-0000\n` ... `line-0599\n`: 6,000 characters. */
const printLines = `for (let i = 0; i < 600; i++) process.stdout.write('line-' + String(i).padStart(4, '0') + '\\n')`;

describe('OutputRing', () => {
  it('keeps the last characters, cut at a line start, and knows the offset of the first kept one', () => {
    const ring = new OutputRing(25);
    for (let i = 0; i < 10; i++) ring.append(`line-${i}\n`);
    // 70 characters written; the last 25 (from offset 45) start mid-line, so the cut moves to the next line
    expect(ring.end).toBe(70);
    expect(ring.first).toBe(49);
    expect(ring.from(0)).toEqual({ offset: 49, data: 'line-7\nline-8\nline-9\n' });
    expect(ring.from(63)).toEqual({ offset: 63, data: 'line-9\n' });
    expect(ring.from(999)).toEqual({ offset: 70, data: '' });
    // a line longer than the ring is cut where it must be
    ring.append('x'.repeat(40));
    expect(ring.kept).toBeLessThanOrEqual(25);
    expect(ring.from(0).data).toBe('x'.repeat(25));
  });
});

describe('the executor daemon bounds what it keeps', () => {
  it('keeps the last part of a run, says when an offset is older than that, and Baton reads on from there', async () => {
    const daemon = await startExecutorDaemon({ host: '127.0.0.1', port: 0, token, maxOutput: 2000 });
    try {
      const cwd = tempDir();
      const r = await rawRequest(daemon.url, {
        method: 'POST',
        path: '/launch',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ bin: process.execPath, args: ['-e', printLines], cwd, env: {} }),
      });
      expect(r.status).toBe(201);
      const runId = r.json<{ run_id: string }>().run_id;
      const info = async () =>
        (await rawRequest(daemon.url, { path: `/runs/${runId}`, headers: auth })).json<{
          running: boolean;
          bytes: number;
          first_kept: number;
          kept: number;
          max_kept: number;
        }>();
      const deadline = Date.now() + 15_000;
      while ((await info()).running) {
        if (Date.now() > deadline) throw new Error('the run did not end');
        await new Promise((res) => setTimeout(res, 50));
      }
      const run = await info();
      expect(run).toMatchObject({ bytes: 6000, first_kept: 4000, kept: 2000, max_kept: 2000 });

      const lines = (
        await rawRequest(daemon.url, { path: `/runs/${runId}/events?offset=100`, headers: auth })
      ).body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toEqual({ type: 'truncated', offset: 100, first_kept: 4000, dropped: 3900 });
      expect(lines[1]).toMatchObject({ type: 'output', offset: 4000 });
      expect(String(lines[1]?.data).startsWith('line-0400\n')).toBe(true);
      expect(String(lines[1]?.data).endsWith('line-0599\n')).toBe(true);
      expect(lines[2]).toMatchObject({ type: 'exit', code: 0 });
      // an offset still kept: no notice, the output from there
      const recent = (
        await rawRequest(daemon.url, { path: `/runs/${runId}/events?offset=5990`, headers: auth })
      ).body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(recent.map((l) => l.type)).toEqual(['output', 'exit']);
      expect(recent[0]).toEqual({ type: 'output', offset: 5990, data: 'line-0599\n' });

      // Baton re-attaching from offset 0 gets what is kept, and the exit status says what was dropped.
      const proc = await new RemoteExecutor(daemon.url, credential).attach({
        run_id: runId,
        pid: null,
        pid_start_time: null,
      } as never);
      let out = '';
      proc?.onOutput((d) => (out += d));
      const exit = await proc?.wait();
      expect(exit?.code).toBe(0);
      expect(out.length).toBe(2000);
      expect(out.startsWith('line-0400\n')).toBe(true);
      expect(exit?.stderr).toMatch(/dropped 4000 characters of this run's output/);
    } finally {
      await daemon.close();
    }
  });

  it('forgets the oldest finished runs beyond its limit', async () => {
    const daemon = await startExecutorDaemon({ host: '127.0.0.1', port: 0, token, keepFinished: 2 });
    const remote = new RemoteExecutor(daemon.url, credential);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const proc = await remote.launch({
          bin: process.execPath,
          args: ['-e', ''],
          cwd: tempDir(),
          env: {},
          stdin: null,
        });
        expect((await proc.wait()).code).toBe(0);
        ids.push(proc.runId ?? '');
      }
      const status = async (id: string) =>
        (await rawRequest(daemon.url, { path: `/runs/${id}`, headers: auth })).status;
      // the daemon records an exit just after Baton's stream ends: wait for the third to be counted
      const deadline = Date.now() + 10_000;
      while ((await status(ids[0]!)) !== 404) {
        if (Date.now() > deadline) throw new Error('the oldest finished run is still kept');
        await new Promise((res) => setTimeout(res, 25));
      }
      expect(await status(ids[1]!)).toBe(200);
      expect(await status(ids[2]!)).toBe(200);
      const health = await rawRequest(daemon.url, { path: '/health', headers: auth });
      expect(health.json()).toEqual({ ok: true, runs: 2 });
    } finally {
      await daemon.close();
    }
  });
});
