import { Validator } from '@seriousme/openapi-schema-validator';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PauseResult,
  PauseWithdrawn,
  ResumeOutcome,
  SessionStatus,
  Status,
  WorkflowView,
} from '../../src/server/api/response-schemas.js';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

/** The REST API over a real server and SQLite file: the dashboard's whole journey, and /openapi.json. */
describe('baton server: REST API', () => {
  let t: TestServer;
  const repo = makeRepo();
  let id = '';

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  it('creates the token with mode 0600 under BATON_HOME', () => {
    expect(statSync(join(t.home, 'token')).mode & 0o777).toBe(0o600);
    expect(t.server.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('serves health checks without a token, everything else with one', async () => {
    expect(await (await t.api('/healthz', { auth: false })).json()).toEqual({ ok: true, service: 'baton' });
    expect((await t.api('/readyz', { auth: false })).status).toBe(200);
    expect((await t.api('/api/workflows', { auth: false })).status).toBe(401);
    expect((await t.api('/metrics', { auth: false })).status).toBe(401);
    expect((await t.api('/api/workflows')).status).toBe(200);
  });

  it('walks a workflow: create, list, tasks, records, pause, resume, snapshots, details', async () => {
    const created = await t.api('/api/workflows', {
      method: 'POST',
      cwd: repo,
      json: {
        title: 'Add login',
        tasks: [
          { id: 'T1', title: 'Write schema' },
          { id: 'T2', title: 'Implement API', deps: ['T1'] },
        ],
      },
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; workflow: unknown };
    id = body.id;
    expect(WorkflowView.parse(body.workflow).worktree).toBe(repo);

    const list = (await (
      await t.api(`/api/workflows?status=pending,in_progress&worktree=${repo}`)
    ).json()) as {
      workflows: { id: string }[];
    };
    expect(list.workflows.map((w) => w.id)).toEqual([id]);
    const none = (await (await t.api('/api/workflows?status=completed')).json()) as { workflows: unknown[] };
    expect(none.workflows).toEqual([]);

    const start = await t.api(`/api/workflows/${id}/tasks/T1/start`, { method: 'POST', json: {} });
    expect(start.status).toBe(200);
    const rec = await t.api(`/api/workflows/${id}/decisions`, {
      method: 'POST',
      json: { decision_type: 'library', description: 'Use argon2', rationale: 'memory-hard', task_id: 'T1' },
    });
    expect(rec.status).toBe(201);
    for (const [path, json] of [
      ['errors', { error_type: 'TypeError', error_message: 'x is undefined' }],
      ['history', { text: 'ran migrations' }],
      ['test-runs', { phase: 'red', failing_tests: ['auth > rejects'] }],
      ['usage', { tokens_used: 150000, context_window: 200000, context_utilization: 0.75 }],
      ['reviewer-feedback', { reviewer_persona: 'security', comments: ['hash the tokens'] }],
    ] as const) {
      const r = await t.api(`/api/workflows/${id}/${path}`, { method: 'POST', json });
      expect(r.status, `${path}: ${await r.clone().text()}`).toBe(201);
    }

    // the status through `current` and the X-Baton-Cwd header, as the CLI sends it
    const status = Status.parse(await (await t.api('/api/workflows/current/status', { cwd: repo })).json());
    expect(status.workflow.id).toBe(id);
    expect(status.runnable_tasks).toEqual([]);
    expect(status.tasks.find((x) => x.id === 'T1')?.status).toBe('in_progress');

    // tracked through the API alone: open, no agent seen, none said to run it, nothing to resume
    const running = SessionStatus.parse(await (await t.api(`/api/workflows/${id}/session-status`)).json());
    expect(running).toMatchObject({
      state: 'open',
      is_agent_running: false,
      needs_resume: false,
      resume_reason: null,
      task_id: 'T1',
    });

    const pause = PauseResult.parse(
      await (
        await t.api(`/api/workflows/${id}/pause`, { method: 'POST', json: { reason: 'end of day' } })
      ).json(),
    );
    // the request made, with how long it waits before it is forced (the server's --pause-timeout)
    expect(pause).toMatchObject({
      outcome: 'requested',
      waiting_for: ['T1'],
      pause_request: { reason: 'end of day', timeout_ms: 300_000 },
    });
    // asked again while it waits: the first request stands, the new reason is not recorded, and the answer says so
    const again = PauseResult.parse(
      await (await t.api(`/api/workflows/${id}/pause`, { method: 'POST', json: { reason: 'lunch' } })).json(),
    );
    expect(again).toMatchObject({
      outcome: 'already_requested',
      status: 'in_progress',
      waiting_for: ['T1'],
      pause_request: { reason: 'end of day', requested_at: expect.any(String) },
      ignored_reason: 'lunch',
    });
    // a resume while the pause waits withdraws it: the workflow goes on, and a new request is asked again
    const withdrawn = PauseWithdrawn.parse(
      await (await t.api(`/api/workflows/${id}/resume`, { method: 'POST' })).json(),
    );
    expect(withdrawn).toEqual({
      outcome: 'pause_withdrawn',
      workflow_id: id,
      status: 'in_progress',
      pause_request: { reason: 'end of day', requested_at: again.pause_request?.requested_at },
    });
    const goesOn = Status.parse(await (await t.api(`/api/workflows/${id}/status`)).json());
    expect(goesOn.workflow).toMatchObject({
      status: 'in_progress',
      pause_requested: false,
      pause_request: null,
    });
    const events = (await (await t.api(`/api/workflows/${id}/events`)).json()) as {
      events: { type: string }[];
    };
    expect(events.events.map((e) => e.type).filter((x) => x.startsWith('workflow.pause'))).toEqual([
      'workflow.pause_requested',
      'workflow.pause_withdrawn',
    ]);
    expect(
      PauseResult.parse(
        await (
          await t.api(`/api/workflows/${id}/pause`, { method: 'POST', json: { reason: 'end of day' } })
        ).json(),
      ),
    ).toMatchObject({ outcome: 'requested' });
    await t.api(`/api/workflows/${id}/tasks/T1/done`, { method: 'POST', json: { note: 'schema v2' } });
    const paused = SessionStatus.parse(await (await t.api(`/api/workflows/${id}/session-status`)).json());
    expect(paused).toMatchObject({
      state: 'paused',
      is_agent_running: false,
      is_resumable: true,
      needs_resume: true,
      resume_reason: 'agent_not_running',
      executor_status: null,
      worktree_path: repo,
      worktree_branch: 'main',
    });

    const snaps = (await (await t.api(`/api/workflows/${id}/snapshots`)).json()) as {
      snapshots: { id: string; trigger: string }[];
    };
    expect(snaps.snapshots.map((s) => s.trigger)).toEqual(['pause']);
    const sid = snaps.snapshots[0]!.id;
    const snap = (await (await t.api(`/api/workflows/${id}/snapshots/${sid}`)).json()) as { id: string };
    expect(snap.id).toBe(sid);
    const decisions = (await (await t.api(`/api/workflows/${id}/snapshots/${sid}/decisions`)).json()) as {
      rationale: string;
    }[];
    expect(decisions.map((d) => d.rationale)).toEqual(['memory-hard']);
    // each category carries what was recorded before the pause (git-changes: the worktree's state, an object)
    for (const [cat, recorded] of [
      ['errors', 'x is undefined'],
      ['reviewer-feedback', 'hash the tokens'],
      ['test-state', 'auth > rejects'],
      ['history', 'ran migrations'],
      ['git-changes', null],
    ] as const) {
      const r = await t.api(`/api/snapshots/${sid}/${cat}`);
      expect(r.status, cat).toBe(200);
      const body: unknown = await r.json();
      expect(typeof body, cat).toBe('object');
      if (recorded) expect(JSON.stringify(body), cat).toContain(JSON.stringify(recorded).slice(1, -1));
    }

    const context = (await (await t.api(`/api/workflows/${id}/context`)).json()) as { markdown: string };
    expect(context.markdown).toContain('Use argon2');

    const resumed = ResumeOutcome.parse(
      await (await t.api(`/api/workflows/${id}/resume`, { method: 'POST' })).json(),
    );
    expect(resumed).toMatchObject({ outcome: 'resumed', session_number: 2, next_task: { id: 'T2' } });
    const timeline = (await (await t.api(`/api/workflows/${id}/sessions`)).json()) as {
      sessions: { session_number: number; state: string; resume_reason: string | null }[];
    };
    expect(timeline.sessions.map((s) => [s.session_number, s.state, s.resume_reason])).toEqual([
      [1, 'ended', 'superseded'],
      [2, 'open', null],
    ]);

    const cp = await t.api(`/api/workflows/${id}/checkpoints`, { method: 'POST', json: { name: 'api' } });
    expect(cp.status).toBe(201);
    const plan = (await (await t.api(`/api/workflows/${id}/recovery-options`)).json()) as {
      options: { type: string }[];
    };
    expect(plan.options.map((o) => o.type)).toEqual(['checkpoint', 'live_state', 'fresh']);
    const sessions = (await (await t.api('/api/sessions')).json()) as {
      sessions: { id: string; step: string }[];
    };
    expect(sessions.sessions.find((s) => s.id === id)?.step).toBe('1/2');
  });

  it("takes `current` among conversations' workflows for the one at work last, naming the other", async () => {
    const here = makeRepo();
    const conversation = async (session: string, prompt: string, at: string) => {
      // a workflow each conversation's hooks made (two conversations at once: another's was under way at its start)
      const agent = { name: 'claude-code', session_id: session };
      const w = await t.service.create({ title: 'Claude Code session', tasks: [], cwd: here, agent });
      await t.service.record(
        { workflowId: w.id },
        { kind: 'request', text: prompt, at, source: 'claude-code:hook' },
      );
      return w.id;
    };
    const earlier = await conversation('s-earlier', 'rename the uploader', '2026-01-01T10:00:00.000Z');
    const later = await conversation('s-later', 'add a --csv flag', '2099-01-01T10:00:00.000Z');
    expect(later).not.toBe(earlier);
    const res = await t.api('/api/workflows/current/status', { cwd: here });
    expect(res.status).toBe(200);
    const status = Status.parse(await res.json());
    expect(status.workflow.id).toBe(later);
    expect(status.also_open).toEqual([
      {
        id: earlier,
        title: 'rename the uploader',
        status: 'in_progress',
        follows: { name: 'claude-code', session_id: 's-earlier' },
        last_active_at: expect.any(String),
      },
    ]);
  });

  it('answers an illegal transition with 409 and the current state', async () => {
    const r = await t.api(`/api/workflows/${id}/tasks/T1/start`, { method: 'POST', json: {} });
    expect(r.status).toBe(409);
    const body = (await r.json()) as {
      error: { code: string; current: { status: string; tasks: unknown[] } };
    };
    expect(body.error.code).toBe('invalid_transition');
    expect(body.error.current).toMatchObject({ status: 'in_progress' });
    expect(body.error.current.tasks).toContainEqual({ id: 'T1', status: 'done' });
    const abandon = await t.api(`/api/workflows/${id}/abandon`, { method: 'POST', json: { reason: 'done' } });
    expect(((await abandon.json()) as { workflow: { status: string } }).workflow.status).toBe('cancelled');
    const again = await t.api(`/api/workflows/${id}/pause`, { method: 'POST', json: {} });
    expect(again.status).toBe(409);
    // nor is a cancelled workflow completed
    const complete = await t.api(`/api/workflows/${id}/complete`, { method: 'POST', json: {} });
    expect(complete.status).toBe(409);
  });

  it('exposes Prometheus metrics by route and status', async () => {
    const text = await (await t.api('/metrics')).text();
    expect(text).toMatch(
      /baton_http_requests_total\{method="POST",route="\/api\/workflows\/:id\/pause",status="200"\} 3/,
    );
    expect(text).toMatch(
      /baton_http_request_duration_seconds_bucket\{method="GET",route="\/api\/workflows",status="200",le="\+Inf"\} \d+/,
    );
    expect(text).toMatch(/baton_events_appended_total\{type="task.started"\} \d+/);
    expect(text).toMatch(/baton_workflows\{status="cancelled"\} 1/);
  });

  it('serves an OpenAPI 3.1 document that validates', async () => {
    const doc = (await (await t.api('/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/api/workflows',
      '/api/workflows/{id}/pause',
      '/api/workflows/{id}/resume',
      '/api/workflows/{id}/snapshots/{sid}/{category}',
      '/api/workflows/{id}/session-status',
      '/api/workflows/{id}/recovery-options',
    ])
      expect(doc.paths, path).toHaveProperty([path]);
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
