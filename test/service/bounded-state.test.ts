import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/client/http-client.js';
import {
  Draft,
  makeCheckpoint,
  markImported,
  OPEN_ERRORS_LIMIT,
  RECENT_LIMIT,
  recordError,
  takeSnapshot,
  type ErrorRecord,
} from '../../src/core/index.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

const N = 2000;
const git = { state: null, note: 'not a repository' };

/** Appends `n` sessions, checkpoints, imported transcripts and open errors to a workflow, in one real commit. */
async function grow(t: TestServer, workflowId: string, n: number) {
  const store = t.service.store;
  const base = (await store.loadState(workflowId))!;
  let i = 0;
  const d = new Draft(base, {
    now: new Date().toISOString(),
    newId: (p) => `${p}-grow-${++i}`,
    actor: 'test',
  });
  const errors: ErrorRecord[] = [];
  for (let k = 1; k <= n; k++) {
    d.emit({ type: 'session.started', session_number: base.session_count + k, data: { origin: 'resume' } });
    makeCheckpoint(d, `step ${k}`, takeSnapshot(d, 'manual', null, git));
    markImported(d, {
      format: 'claude-code-transcript',
      transcript_session_id: `t-${k}`,
      path: `/transcripts/t-${k}.jsonl`,
      through_line: k,
      through_byte: 100 * k,
      records: 0,
    });
    errors.push(
      recordError(d, {
        task_id: null,
        error_type: 'build',
        error_message: `failure ${k}`,
        context: null,
        resolution: 'unresolved',
        resolution_notes: null,
      }),
    );
  }
  await store.commit({
    workflowId,
    expectedVersion: base.version,
    events: d.events,
    state: d.state,
    writes: d.writes,
  });
  return errors;
}

describe('a workflow with thousands of sessions, checkpoints, imports and open errors', () => {
  let t: TestServer;
  let id = '';
  let errors: ErrorRecord[] = [];
  const repo = makeRepo();

  beforeAll(async () => {
    t = await startTestServer();
    const wf = await t.service.create({
      title: 'long',
      tasks: [{ id: 'T1', title: 'work' }],
      worktree: repo,
    });
    id = wf.id;
    errors = await grow(t, id, N);
  }, 60_000);
  afterAll(async () => t?.close());

  const get = async <T>(path: string) => {
    const r = await t.api(path);
    expect(r.status, path).toBe(200);
    return (await r.json()) as T;
  };

  it('stores a state of bounded size with the true totals', async () => {
    const s = (await t.service.store.loadState(id))!;
    expect(JSON.stringify(s).length).toBeLessThan(64 * 1024);
    expect([s.sessions.length, s.checkpoints.length, Object.keys(s.imports).length]).toEqual([
      RECENT_LIMIT,
      RECENT_LIMIT,
      RECENT_LIMIT,
    ]);
    expect(s.open_errors).toHaveLength(OPEN_ERRORS_LIMIT);
    const status = await get<{ counts: Record<string, unknown> }>(`/api/workflows/${id}/status`);
    // `create` opened session 1; the growth added N more.
    expect(status.counts).toMatchObject({ sessions: N + 1, checkpoints: N, open_errors: N });
  });

  it('lists every checkpoint, session and import through REST, from the records', async () => {
    const cps = await get<{ checkpoints: { name: string }[] }>(`/api/workflows/${id}/checkpoints`);
    expect(cps.checkpoints).toHaveLength(N);
    expect(cps.checkpoints[0]!.name).toBe('cp-01-step-1');
    const timeline = await get<{ sessions: { session_number: number }[] }>(`/api/workflows/${id}/sessions`);
    expect(timeline.sessions.map((x) => x.session_number)).toEqual(
      Array.from({ length: N + 1 }, (_, k) => k + 1),
    );
    const first = await get<{ session_number: number; state: string }>(
      `/api/workflows/${id}/sessions/1/status`,
    );
    expect(first).toMatchObject({ session_number: 1, state: 'ended' });
    const imports = await get<{ imports: unknown[] }>(`/api/workflows/${id}/imports`);
    expect(imports.imports).toHaveLength(N);
    const one = await get<{ imports: unknown[] }>(
      `/api/workflows/${id}/imports?path=${encodeURIComponent('/transcripts/t-1.jsonl')}`,
    );
    expect(one.imports).toEqual([
      {
        transcript_session_id: 't-1',
        format: 'claude-code-transcript',
        path: '/transcripts/t-1.jsonl',
        through_line: 1,
        through_byte: 100,
        read_at: expect.any(String),
      },
    ]);
  });

  it('lists every checkpoint through the CLI, and shows an old session', async () => {
    const env = {
      BATON_HOME: tempDir('baton-home-'),
      BATON_URL: t.server.url,
      BATON_TOKEN: t.server.token ?? undefined,
    };
    const cps = await runCli(['checkpoints', '-w', id, '--json'], { cwd: repo, env });
    expect(cps.code, cps.stderr).toBe(0);
    expect(cps.json<{ checkpoints: unknown[] }>().checkpoints).toHaveLength(N);
    const old = await runCli(['session-status', '-w', id, '--session', '3', '--json'], { cwd: repo, env });
    expect(old.code, old.stderr).toBe(0);
    expect(old.json()).toMatchObject({ session_number: 3, resume_reason: 'superseded' });
  });

  it('resolves the oldest open error, no longer in the state, and says how many more are open', async () => {
    const oldest = errors[0]!;
    const r = await t.api(`/api/workflows/${id}/errors/${oldest.id}/resolve`, {
      method: 'POST',
      json: { resolution: 'fixed', notes: 'an old one' },
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const status = await get<{ counts: { open_errors: number } }>(`/api/workflows/${id}/status`);
    expect(status.counts.open_errors).toBe(N - 1);
    const row = await t.service.store.getRecord(id, 'error', oldest.id);
    expect(row!.data).toMatchObject({ resolution: 'fixed', resolution_notes: 'an old one' });
    const context = await get<{ markdown: string }>(`/api/workflows/${id}/context`);
    expect(context.markdown).toContain(`and ${N - 1 - OPEN_ERRORS_LIMIT} more UNRESOLVED`);
  });

  it('restores an old checkpoint by name', async () => {
    await t.service.startTask({ workflowId: id }, 'T1');
    await t.service.interrupt({ workflowId: id }, 'heartbeat lost');
    const options = await t.service.recoveryOptions({ workflowId: id });
    expect(options.options.map((o) => o.type)).toContain('checkpoint');
    const r = await t.service.recover({ workflowId: id }, 'checkpoint', 'step-2');
    expect(r.status).toBe('in_progress');
    // recovered, it runs again: a name only matters to a workflow that stopped once more
    await t.service.interrupt({ workflowId: id }, 'heartbeat lost');
    await expect(t.service.recover({ workflowId: id }, 'checkpoint', 'no-such')).rejects.toThrow(
      /no checkpoint no-such .* and \d+ older: baton checkpoints lists them/,
    );
  });
});

describe('re-importing a transcript older than the recent imports the state keeps', () => {
  it('reads on from its recorded byte offset: nothing read twice, nothing recorded twice', async () => {
    const t = await startTestServer();
    try {
      const repo = makeRepo();
      const client = new HttpClient(t.server.url, t.server.token, repo);
      const lines = readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8').trimEnd().split('\n');
      const file = join(tempDir(), 'session.jsonl');
      writeFileSync(file, `${lines.slice(0, 8).join('\n')}\n`);

      const wf = await t.service.create({
        title: 'imports',
        tasks: [{ id: 'T1', title: 'work' }],
        worktree: repo,
      });
      const ref = { workflowId: wf.id };
      const first = await importTranscriptFile(client, ref, file, 'claude-code');
      expect(first.new_entries).toBeGreaterThan(0);
      await grow(t, wf.id, RECENT_LIMIT + 5);
      const s = (await t.service.store.loadState(wf.id))!;
      expect(Object.values(s.imports).some((m) => m.path === file)).toBe(false);

      appendFileSync(file, `${lines.slice(8).join('\n')}\n`);
      const second = await importTranscriptFile(client, ref, file, 'claude-code');
      expect(second.read.from_byte).toBe(first.read.to_byte);
      expect(second.warnings).toEqual([]);

      // The same file imported whole, once, into another workflow records exactly as much history.
      const whole = await t.service.create({
        title: 'whole',
        tasks: [{ id: 'T1', title: 'work' }],
        worktree: repo,
      });
      const once = await importTranscriptFile(client, { workflowId: whole.id }, file, 'claude-code');
      expect(first.new_entries + second.new_entries).toBe(once.new_entries);
      const history = async (w: string) => (await t.service.store.listRecords(w, 'history')).length;
      expect(await history(wf.id)).toBe(await history(whole.id));
    } finally {
      await t.close();
    }
  });
});
