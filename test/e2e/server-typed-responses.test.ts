import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointList, Details, RecordResult, TaskResult } from '../../src/server/api/response-schemas.js';
import {
  AgentSessionEnded,
  AgentTurnEnded,
  CheckpointIfDueResult,
  CleanupResult,
  CompactionNoted,
  FeedbackAddressedResult,
  InjectedContext,
  ResolveErrorResult,
  StartResult,
  TrackResult,
} from '../../src/server/api/result-schemas.js';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

/**
 * The routes whose responses were typed anew (agent sessions, records, details, cleanup...): each answers with its
 * documented shape. The test server checks every JSON response against its route's schema (a mismatch is a 500
 * naming the field), and each body is parsed with the schema here as well.
 */
describe('baton server: typed responses', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  const post = async (path: string, json: unknown, status = 200) => {
    const r = await t.api(path, { method: 'POST', json });
    const body: unknown = await r.json();
    expect({ status: r.status, body }).toMatchObject({ status });
    return body;
  };
  const get = async (path: string) => {
    const r = await t.api(path);
    const body: unknown = await r.json();
    expect({ status: r.status, body }).toMatchObject({ status: 200 });
    return body;
  };

  it('agent sessions: track, start, inject, compactions, checkpoint if due, turn end, end', async () => {
    const repo = makeRepo();
    const agent = { name: 'claude-code', session_id: 'sess-1' };
    const tracked = TrackResult.parse(
      await post('/api/agent-sessions/track', { cwd: repo, agent, auto_track: true, resume: false }),
    );
    expect(tracked).toMatchObject({ outcome: 'created', session_number: 1 });
    const id = tracked.workflow_id ?? '';
    const started = StartResult.parse(
      await post('/api/agent-sessions/start', {
        cwd: repo,
        agent: { ...agent, session_id: 'sess-2' },
        auto_track: true,
        resume: true,
        max_chars: 2000,
        reason: 'startup',
      }),
    );
    expect(started.workflow_id).toBe(id);
    const injected = InjectedContext.parse(
      await post(`/api/workflows/${id}/context/inject`, { max_chars: 2000, reason: 'prompt' }),
    );
    expect(injected.chars).toBeLessThanOrEqual(2000);
    expect(injected.text.length).toBe(injected.chars);
    expect(
      CompactionNoted.parse(
        await post(`/api/workflows/${id}/compactions`, {
          agent: 'claude-code',
          trigger: 'auto',
          summary: 'so far',
        }),
      ),
    ).toEqual({ workflow_id: id, reinject: true });
    const due = CheckpointIfDueResult.parse(
      await post(`/api/workflows/${id}/checkpoints/if-due`, { name: 'work', interval_ms: 0 }),
    );
    expect(due.workflow_id).toBe(id);
    // the agent's turn ends (Stop): recorded once a request was taken up, once per turn
    const turnEnd = () => post(`/api/workflows/${id}/agent-sessions/turn-ended`, { agent: 'claude-code' });
    expect(AgentTurnEnded.parse(await turnEnd())).toEqual({
      workflow_id: id,
      recorded: false,
      paused_snapshot_id: null,
    });
    await post(`/api/workflows/${id}/records`, { records: [{ kind: 'request', text: 'add a retry' }] });
    expect(AgentTurnEnded.parse(await turnEnd())).toEqual({
      workflow_id: id,
      recorded: true,
      paused_snapshot_id: null,
    });
    expect(AgentTurnEnded.parse(await turnEnd())).toEqual({
      workflow_id: id,
      recorded: false,
      paused_snapshot_id: null,
    });
    const end = (session_id: string) =>
      post(`/api/workflows/${id}/agent-sessions/end`, { agent: { ...agent, session_id }, reason: 'logout' });
    // sess-1's Baton session ended when sess-2 took over: only sess-2's ends now
    expect(AgentSessionEnded.parse(await end('sess-1'))).toEqual({
      workflow_id: id,
      ended: false,
      session_number: null,
      snapshot: null,
    });
    // what a SessionEnd asks first: the workflow sess-2 follows, nothing tied
    const found = TrackResult.parse(
      await post('/api/agent-sessions/track', {
        cwd: repo,
        agent: { ...agent, session_id: 'sess-2' },
        auto_track: true,
        resume: false,
        link: false,
      }),
    );
    expect(found).toMatchObject({ workflow_id: id, outcome: 'same', session_number: 2 });
    expect(AgentSessionEnded.parse(await end('sess-2'))).toEqual({
      workflow_id: id,
      ended: true,
      session_number: 2,
      // what was recorded since the latest snapshot gets one, taken for the session's end
      snapshot: { id: expect.stringMatching(/^snap-/), taken: true },
    });
    // a fresh start after it: the workflow has no task list, so its work is not over and it is continued
    const fresh = StartResult.parse(
      await post('/api/agent-sessions/start', {
        cwd: repo,
        agent: { ...agent, session_id: 'sess-3' },
        auto_track: true,
        resume: true,
        max_chars: 2000,
        reason: 'startup',
        fresh_start: true,
      }),
    );
    expect(fresh).toMatchObject({ workflow_id: id, finished: null, session_number: 3 });
  });

  it('records, their resolution, a task move, checkpoints and the details behind a snapshot', async () => {
    const created = await post(
      '/api/workflows',
      { title: 'typed', tasks: [{ id: 'T0', title: 'first' }], worktree: makeRepo() },
      201,
    );
    const id = (created as { id: string }).id;
    const decision = RecordResult.parse(
      await post(`/api/workflows/${id}/decisions`, { decision_type: 'library', description: 'use zod' }, 201),
    );
    expect(decision).toMatchObject({ workflow_id: id, kind: 'decision' });
    const error = RecordResult.parse(
      await post(
        `/api/workflows/${id}/errors`,
        { error_type: 'TypeError', error_message: 'x is undefined' },
        201,
      ),
    );
    const errorId = (error.record as { id: string }).id;
    const resolved = ResolveErrorResult.parse(
      await post(`/api/workflows/${id}/errors/${errorId}/resolve`, { resolution: 'fixed', notes: 'guarded' }),
    );
    expect(resolved.error).toMatchObject({ id: errorId, resolution: 'fixed', resolution_notes: 'guarded' });
    const feedback = RecordResult.parse(
      await post(`/api/workflows/${id}/reviewer-feedback`, { reviewer_persona: 'security' }, 201),
    );
    const reviewId = (feedback.record as { review_id: string }).review_id;
    expect(
      FeedbackAddressedResult.parse(
        await post(`/api/workflows/${id}/reviewer-feedback/${reviewId}/addressed`, undefined),
      ),
    ).toEqual({ workflow_id: id, review_id: reviewId, addressed: true });
    await post(`/api/workflows/${id}/tasks`, { id: 'T1', title: 'the task' }, 201);
    const moved = TaskResult.parse(await post(`/api/workflows/${id}/tasks/T1/start`, {}));
    expect(moved).toMatchObject({
      workflow_status: 'in_progress',
      task: { id: 'T1', status: 'in_progress' },
    });
    await post(`/api/workflows/${id}/checkpoints`, { name: 'api' }, 201);
    const checkpoints = CheckpointList.parse(await get(`/api/workflows/${id}/checkpoints`));
    const cp = checkpoints.checkpoints.find((c) => c.name.endsWith('-api'));
    expect(cp?.name).toMatch(/^cp-\d{2}-api$/);
    const sid = cp?.snapshot_id ?? '';
    const decisions = Details.parse(await get(`/api/workflows/${id}/snapshots/${sid}/decisions`));
    expect(decisions).toEqual([expect.objectContaining({ description: 'use zod' })]);
    expect(Details.parse(await get(`/api/snapshots/${sid}/git-changes`))).toHaveProperty('git_state');
    expect(Details.parse(await get(`/api/snapshots/${sid}/test-state`))).toHaveProperty('runs', []);
  });

  it('cleanup (a dry run) says what it would remove and what it keeps', async () => {
    const out = CleanupResult.parse(await post('/api/cleanup', { older_than_ms: 0, dry_run: true }));
    expect(out).toMatchObject({ dry_run: true, removed: [], kept: [] });
  });
});
