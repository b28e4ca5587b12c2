import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

/** The paths the design documents spell (`POST /workflows/{id}/pause`...) answer as their `/api` twins. */
describe('baton server: the spelled-out paths and the context routes', () => {
  let t: TestServer;
  const repo = makeRepo();

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  it('pauses, resumes and retrieves without the /api prefix, and hands over a verified context', async () => {
    const created = await t.api('/workflows', {
      method: 'POST',
      cwd: repo,
      json: {
        title: 'paths',
        tasks: [
          { id: 'A', title: 'one' },
          { id: 'B', title: 'two', deps: ['A'] },
        ],
      },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await t.api(`/workflows/${id}/tasks/A/start`, { method: 'POST', json: {} })).status).toBe(200);
    const batch = await t.api(`/workflows/${id}/records`, {
      method: 'POST',
      json: {
        records: [
          {
            kind: 'decision',
            decision: { decision_type: 'approach', description: 'TDD first', rationale: 'safety' },
          },
          { kind: 'history', text: 'wrote the first test', task_id: 'A', source: null },
        ],
      },
    });
    expect(batch.status, await batch.clone().text()).toBe(200);
    expect(await batch.json()).toMatchObject({ count: 2 });
    const pause = await t.api(`/workflows/${id}/pause`, {
      method: 'POST',
      json: { reason: 'night', force: true },
    });
    expect(await pause.json()).toMatchObject({ outcome: 'paused', status: 'paused' });
    const snaps = (await (await t.api(`/workflows/${id}/snapshots`)).json()) as {
      snapshots: { id: string }[];
    };
    const sid = snaps.snapshots[0]!.id;
    const decisions = (await (
      await t.api(`/workflows/${id}/snapshots/${sid}/decisions`)
    ).json()) as unknown[];
    expect(decisions).toEqual([expect.objectContaining({ description: 'TDD first' })]);

    const context = (await (await t.api(`/workflows/${id}/context?budget=1500`)).json()) as {
      hash: string;
      tokens: number;
      markdown: string;
    };
    expect(context.tokens).toBeLessThanOrEqual(1500);
    expect(context.markdown).toContain(`hash ${context.hash}`);
    const resumed = (await (await t.api(`/workflows/${id}/resume`, { method: 'POST' })).json()) as {
      context_hash: string;
    };
    const ack = await t.api(`/workflows/${id}/context/ack`, {
      method: 'POST',
      json: { hash: resumed.context_hash, via: 'mcp' },
    });
    expect(await ack.json()).toMatchObject({ matches: true });
    const snap = await t.api(`/workflows/${id}/snapshots`, {
      method: 'POST',
      json: { trigger: 'exhaustion', reason: 'compaction' },
    });
    expect(await snap.json()).toMatchObject({
      workflow_id: id,
      snapshot_id: expect.stringMatching(/^snap-/),
    });
    expect(
      (await t.api(`/workflows/${id}/snapshots`, { method: 'POST', json: { trigger: 'bored' } })).status,
    ).toBe(400);
    expect((await t.api(`/workflows/${id}/pause`, { method: 'POST', auth: false, json: {} })).status).toBe(
      401,
    );
  });
});
