import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/client/http-client.js';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

/** A decision to record (each text once). */
const decision = (description: string) => ({
  kind: 'decision' as const,
  decision: {
    decision_type: 'approach' as const,
    description,
    rationale: 'why',
    alternatives_considered: null,
    task_id: null,
  },
});

describe('who acts in what a request to `baton serve` changes', () => {
  let s: TestServer;
  let id: string;
  let repo: string;
  beforeAll(async () => {
    s = await startTestServer();
    repo = makeRepo();
    const r = await s.api('/api/workflows', {
      method: 'POST',
      json: { title: 'remote', tasks: [], worktree: repo },
    });
    id = ((await r.json()) as { id: string }).id;
  });
  afterAll(async () => s?.close());

  /** The actor of the last event of a type. */
  const actorOf = async (type: string) =>
    (await s.service.store.readEvents(id)).filter((e) => e.type === type).at(-1)?.actor;
  const client = (actor: string | null) =>
    new HttpClient(s.server.url, s.server.token, repo, 'the token', 10_000, actor);

  it('the client names its actor and the server acts as it; without one, the server acts as its own', async () => {
    await client('night-shift').record({ workflowId: id }, decision('A'));
    expect(await actorOf('decision.recorded')).toBe('night-shift');
    await client(null).record({ workflowId: id }, decision('B'));
    expect(await actorOf('decision.recorded')).toBe('user');
  });

  it("a transcript's records are its agent's, whoever the client acts as", async () => {
    await client('user').recordBatch({ workflowId: id }, [decision('C')], {
      format: 'codex-rollout',
      transcript_session_id: 's1',
      path: '/tmp/rollout.jsonl',
      through_line: 3,
    });
    expect(await actorOf('decision.recorded')).toBe('codex');
    expect(await actorOf('transcript.imported')).toBe('codex');
  });

  it('refuses an actor that could not be a name (it names a folder of the run folder), recording nothing', async () => {
    const before = (await s.service.store.readEvents(id)).length;
    for (const bad of ['../etc', 'two words', '-dash', 'x'.repeat(65)]) {
      const r = await s.api(`/api/workflows/${id}/decisions`, {
        method: 'POST',
        headers: { 'x-baton-actor': bad },
        json: { decision_type: 'approach', description: `bad ${bad}`, rationale: 'r' },
      });
      expect(r.status, bad).toBe(400);
      const body = (await r.json()) as {
        error: { code: string; message: string; issues: { path: string }[] };
      };
      expect(body.error.code).toBe('invalid_input');
      expect(body.error.message).toMatch(/^header X-Baton-Actor must be 1 to 64 letters/);
      expect(body.error.issues[0]?.path).toBe('header.X-Baton-Actor');
    }
    expect((await s.service.store.readEvents(id)).length).toBe(before);
  });
});
