import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runProgress } from '../../src/cli/run-progress.js';
import type { RunEvent, RunReport } from '../../src/service/runtime/index.js';

const wf = 'wf-1';
const started: RunEvent = {
  event: 'task.started',
  workflow_id: wf,
  task_id: 'T1',
  title: 'Schema',
  session_number: 1,
  resume_token: null,
  fallback: null,
  log: '.baton/runs/wf-1/logs/T1-s1-1.log',
};
const usage = (u: number, cost: number): RunEvent => ({
  event: 'usage',
  workflow_id: wf,
  task_id: 'T1',
  context_utilization: u,
  context_tokens: Math.round(u * 200_000),
  context_window: 200_000,
  cost_usd: cost,
});
const tool: RunEvent = { event: 'agent.tool', workflow_id: wf, task_id: 'T1', text: 'Bash: npm test' };
const output: RunEvent = {
  event: 'agent.output',
  workflow_id: wf,
  task_id: 'T1',
  stream: 'stdout',
  text: '{"type":"assistant"}',
};
const finished = (outcome: string, detail: string | null = null): RunEvent => ({
  event: 'task.finished',
  workflow_id: wf,
  task_id: 'T1',
  outcome,
  detail,
  seconds: 75,
  log: '.baton/runs/wf-1/logs/T1-s1-1.log',
});

function harness(o: { json?: boolean; verbose?: boolean; columns?: number | null }) {
  const out: string[] = [];
  const err: string[] = [];
  const tty: string[] = [];
  const p = runProgress({
    io: { out: (t) => out.push(t), err: (t) => err.push(t) },
    json: o.json ?? false,
    verbose: o.verbose ?? false,
    tty: o.columns === null ? null : { write: (t) => tty.push(t), columns: o.columns ?? 200 },
  });
  return { p, out, err, tty };
}

describe('baton run progress on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-24T21:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('redraws one status line: task, elapsed time, context %, cost and the last tool call', () => {
    const { p, err, tty } = harness({});
    p.onEvent(started);
    expect(err).toEqual(['baton run: task T1 started; log .baton/runs/wf-1/logs/T1-s1-1.log\n']);
    // no cost reported yet: none shown (not $0.00)
    expect(tty.at(-1)).toBe('\r\x1b[K▶ T1 Schema · 0m00s · context ?');
    p.onEvent(usage(0.42, 0.125));
    p.onEvent(tool);
    expect(tty.at(-1)).toBe('\r\x1b[K▶ T1 Schema · 0m00s · context 42% · $0.13 · Bash: npm test');
    // The clock moves the line on by itself, once a second.
    vi.advanceTimersByTime(65_000);
    expect(tty.at(-1)).toBe('\r\x1b[K▶ T1 Schema · 1m05s · context 42% · $0.13 · Bash: npm test');
    p.stop();
  });

  it('clears the status line before a step line, then draws it again below', () => {
    const { p, err, tty } = harness({});
    p.onEvent(started);
    tty.length = 0;
    p.onEvent(finished('error', 'cannot run claude: spawn claude ENOENT'));
    expect(tty[0]).toBe('\r\x1b[K');
    expect(err.at(-1)).toBe(
      'baton run: task T1 failed (error): cannot run claude: spawn claude ENOENT (log .baton/runs/wf-1/logs/T1-s1-1.log)\n',
    );
    // No task runs: nothing is drawn again, and the ticking clock draws nothing either.
    vi.advanceTimersByTime(3_000);
    expect(tty).toEqual(['\r\x1b[K']);
    p.stop();
  });

  it('a task whose agent was lost is said as not finished, not as failed', () => {
    const { p, err } = harness({ columns: null });
    p.onEvent(started);
    p.onEvent(finished('lost', 'the executor http://h:7430 answers but no longer knows the run run-1'));
    expect(err.at(-1)).toBe(
      'baton run: task T1 not finished, its agent lost: the executor http://h:7430 answers but no longer knows the run run-1 (log .baton/runs/wf-1/logs/T1-s1-1.log)\n',
    );
    p.stop();
  });

  it('cuts the status line to the terminal width', () => {
    const { p, tty } = harness({ columns: 30 });
    p.onEvent(started);
    p.onEvent(tool);
    const line = tty.at(-1)!.replace('\r\x1b[K', '');
    expect(line.length).toBeLessThanOrEqual(29);
    expect(line.endsWith('…')).toBe(true);
    p.stop();
  });

  it("--verbose prints the agent's own output between the step lines; without it, nothing of it", () => {
    const quiet = harness({ columns: null });
    quiet.p.onEvent(started);
    quiet.p.onEvent(output);
    expect(quiet.err.join('')).not.toContain('"type":"assistant"');
    const loud = harness({ columns: null, verbose: true });
    loud.p.onEvent(started);
    loud.p.onEvent(output);
    loud.p.onEvent(finished('done'));
    expect(loud.err).toEqual([
      'baton run: task T1 started; log .baton/runs/wf-1/logs/T1-s1-1.log\n',
      '{"type":"assistant"}\n',
      'baton run: task T1 done in 1m15s\n',
    ]);
  });

  it('opens with the session the run drives in, or with none when it goes on in a new one (said next)', () => {
    const { p, err } = harness({ columns: null });
    const opened = {
      event: 'run.started' as const,
      workflow_id: wf,
      agent: 'codex',
      session_number: 1,
      driver: 'baton run',
    };
    p.onEvent({ ...opened, resuming: false });
    p.onEvent({ ...opened, resuming: true });
    expect(err).toEqual([
      'baton run: driving wf-1 with codex (session 1)\n',
      'baton run: driving wf-1 with codex\n',
    ]);
  });

  it('--json: one JSON line per event (agent output only with --verbose), the report last', () => {
    const { p, out, err, tty } = harness({ json: true, columns: null });
    for (const e of [started, usage(0.5, 0.1), output, finished('done')]) p.onEvent(e);
    p.finish({
      workflow_id: wf,
      status: 'completed',
      stopped: 'completed',
      sessions: 1,
      failed: false,
      tasks: [{ id: 'T1', outcome: 'done', detail: null }],
      fallbacks: [],
      usage_limit: null,
      api_error: null,
      pause_trigger: null,
      next: null,
    });
    const lines = out.map((l) => JSON.parse(l) as { event: string });
    expect(lines.map((l) => l.event)).toEqual(['task.started', 'usage', 'task.finished', 'run.finished']);
    expect(err).toEqual([]);
    expect(tty).toEqual([]);
  });
});

describe("baton run's last lines", () => {
  const report = (r: Partial<RunReport>): RunReport => ({
    workflow_id: wf,
    status: 'interrupted',
    stopped: 'baton run was stopped (SIGINT)',
    sessions: 1,
    failed: false,
    tasks: [{ id: 'T1', outcome: 'done' }],
    fallbacks: [],
    usage_limit: null,
    api_error: null,
    pause_trigger: null,
    next: null,
    ...r,
  });
  const lines = (r: RunReport) => {
    const { p, out } = harness({ columns: null });
    p.finish(r);
    return out.join('').split('\n');
  };

  it('end with how to go on when the run ended short of finishing, and with the tasks when it finished', () => {
    const next = 'go on with `baton run -w wf-1` (next: T2 API, from where it stopped)';
    expect(lines(report({ next }))).toEqual([
      'workflow wf-1 is interrupted: baton run was stopped (SIGINT) (1 session in this run)',
      '  T1: done',
      next,
    ]);
    expect(lines(report({ status: 'completed', stopped: 'completed' }))).toEqual([
      'workflow wf-1 is completed (1 session in this run)',
      '  T1: done',
    ]);
  });

  it('say a usage limit waited for, in the words Baton says a reset in, before how to go on', () => {
    const waited = {
      resets_at: '2026-11-29T15:00:00.000Z',
      reset_words: '2026-11-29 16:00 (Europe/Berlin), which is 2026-11-29 15:00 UTC',
      auto_resumed: true,
      waits: 1,
    };
    expect(lines(report({ usage_limit: waited, next: 'go on with `baton run -w wf-1`' })).slice(-2)).toEqual([
      'usage limit (reset at 2026-11-29 16:00 (Europe/Berlin), which is 2026-11-29 15:00 UTC): waited for it and went on',
      'go on with `baton run -w wf-1`',
    ]);
  });
});
