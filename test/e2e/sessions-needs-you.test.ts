import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsYou } from '../../src/core/index.js';
import { Status } from '../../src/server/api/response-schemas.js';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

// The Workflows page polls GET /api/sessions: each row's needs_you is read from the state the list loads, not from a
// whole status per workflow. It must say what the workflow's own status says, and follow each change at once.

describe('baton server: the sessions table says what each workflow needs, as its status does', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  const post = async (path: string, json: unknown) => {
    const r = await t.api(path, { method: 'POST', json });
    expect(r.status, `${path}: ${await r.clone().text()}`).toBeLessThan(300);
    return (await r.json()) as Record<string, any>;
  };
  /** needs_you of every row, by workflow id, as the page fetches it. */
  const table = async () => {
    const body = (await (await t.api('/api/sessions')).json()) as {
      sessions: { id: string; needs_you: string[] }[];
    };
    return new Map(body.sessions.map((r) => [r.id, r.needs_you]));
  };
  /** What the workflow's own status says needs its user (the words the page said before it read the list alone). */
  const statusSays = async (id: string) =>
    needsYou(Status.parse(await (await t.api(`/api/workflows/${id}/status`)).json()));

  it("follows a workflow's changes on the next fetch, in its status's words", async () => {
    const create = (title: string) =>
      post('/api/workflows', {
        worktree: makeRepo(),
        title,
        tasks: [
          { id: 'T1', title: 'Write schema' },
          { id: 'T2', title: 'Implement API', deps: ['T1'] },
        ],
      });
    const a = (await create('changes')).id as string;
    const b = (await create('stays')).id as string;
    await post(`/api/workflows/${a}/tasks/T1/start`, {});
    await post(`/api/workflows/${b}/tasks/T1/start`, {});
    await post(`/api/workflows/${b}/errors`, { error_type: 'TypeError', error_message: 'x is undefined' });
    const stays = (await table()).get(b);
    expect(stays).toEqual(await statusSays(b));
    expect(stays).toEqual([
      expect.stringMatching(/^open errors: 1 \(newest: err-\w+: TypeError: x is undefined\)$/),
    ]);
    expect((await table()).get(a)).toEqual([]);

    // an error recorded: said on the very next fetch
    const err = await post(`/api/workflows/${a}/errors`, {
      error_type: 'test_failure',
      error_message: 'FAIL src/login.test.ts > rejects a bad password',
    });
    const failing = (await table()).get(a);
    expect(failing).toEqual(await statusSays(a));
    expect(failing).toEqual([
      expect.stringMatching(/^open errors: 1 \(newest: err-\w+: test_failure: FAIL src/),
    ]);

    // a pause asked while T1 runs: it waits, and says so first
    await post(`/api/workflows/${a}/pause`, { reason: 'lunch' });
    const waiting = (await table()).get(a)!;
    expect(waiting).toEqual(await statusSays(a));
    expect(waiting[0]).toMatch(/^pause requested/);
    expect(waiting).toHaveLength(2);

    // the error resolved: only the pause is left
    await post(`/api/workflows/${a}/errors/${err.record.id}/resolve`, {
      resolution: 'fixed',
      notes: 'fixed the hash',
    });
    expect((await table()).get(a)).toEqual([waiting[0]]);

    // the workflow over: it needs nothing, while the other's row never moved
    await post(`/api/workflows/${a}/abandon`, { reason: 'done elsewhere' });
    const after = await table();
    expect(after.get(a)).toEqual([]);
    expect(after.get(b)).toEqual(stays);
  });
});
