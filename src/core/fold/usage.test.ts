import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordUsage } from '../commands/records.js';
import { resume } from '../commands/resume.js';
import { pause } from '../commands/pause.js';
import { startTask } from '../commands/tasks.js';
import { Draft } from '../draft.js';
import { buildSnapshot } from '../snapshot.js';
import { sessionReading } from './usage.js';
import type { UsageMetrics } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import { freshWorkflow, tasksOf } from '../../../test/helpers/fresh-workflow.js';

const git = { state: null, note: 'no git' };
let n = 0;
const ctx = { now: '2026-01-01T00:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'user' };

function workflow(): WorkflowState {
  const d = freshWorkflow({ title: 'T', tasks: tasksOf({ id: 'T1', title: 'one' }) }, ctx);
  startTask(d, 'T1');
  return d.state;
}
const run = (s: WorkflowState, f: (d: Draft) => unknown) => {
  const d = new Draft(s, ctx);
  f(d);
  return d.state;
};
const reading = (over: Partial<UsageMetrics> = {}): UsageMetrics => ({
  tokens_used: 0,
  tokens_remaining_estimate: null,
  context_utilization: null,
  llm_calls: 0,
  tool_calls: 0,
  cost_usd: null,
  session_duration_seconds: 0,
  context_window: 200_000,
  ...over,
});

describe('the usage fold', () => {
  it('sums the runs of one workflow: three runs at $0.135 cost $0.405; the context is a gauge, not a sum', () => {
    let s = workflow();
    for (const [i, ctxTokens] of [120_000, 180_000, 90_000].entries())
      s = run(s, (d) =>
        recordUsage(
          d,
          reading({
            tokens_used: 1_000_000,
            output_tokens: 2_000,
            llm_calls: 2,
            tool_calls: 3,
            cost_usd: 0.135,
            session_duration_seconds: 7,
            context_tokens: ctxTokens,
          }),
          `exec-${i}`,
        ),
      );
    expect(s.usage_total).toEqual({
      tokens_used: 3_000_000,
      output_tokens: 6_000,
      llm_calls: 6,
      tool_calls: 9,
      cost_usd: 0.405,
      duration_seconds: 21,
      readings: 3,
    });
    expect(s.usage).toMatchObject({
      tokens_used: 3_000_000,
      cost_usd: 0.405,
      llm_calls: 6,
      context_tokens: 90_000,
      context_window: 200_000,
      context_utilization: 0.45,
      tokens_remaining_estimate: 110_000,
    });
    expect(s.sessions.at(-1)?.usage?.cost_usd).toBe(0.405);
  });

  it('readings of one source are its totals so far: only what is new is added', () => {
    let s = workflow();
    s = run(s, (d) => recordUsage(d, reading({ tokens_used: 100, cost_usd: 0.1, llm_calls: 1 })));
    s = run(s, (d) => recordUsage(d, reading({ tokens_used: 250, cost_usd: 0.25, llm_calls: 3 })));
    expect(s.usage_total).toMatchObject({ tokens_used: 250, cost_usd: 0.25, llm_calls: 3, readings: 2 });
    // Another source beside it adds its own; a source that starts over counts whole.
    s = run(s, (d) => recordUsage(d, reading({ tokens_used: 40, cost_usd: 0.04 }), 'transcript:abc'));
    s = run(s, (d) => recordUsage(d, reading({ tokens_used: 10, cost_usd: 0.01 }), 'transcript:abc'));
    expect(s.usage_total).toMatchObject({ tokens_used: 300, cost_usd: 0.3 });
  });

  it('a new session starts its own totals; the workflow keeps counting; old readings carry only a utilisation', () => {
    let s = workflow();
    s = run(s, (d) => recordUsage(d, reading({ tokens_used: 500, cost_usd: 0.5, context_utilization: 0.5 })));
    expect(s.usage).toMatchObject({ context_tokens: 100_000, context_utilization: 0.5 });
    s = run(s, (d) => pause(d, { reason: null, trigger: 'pause', force: true, timeoutMs: 1, git }));
    s = run(s, (d) => {
      const snapshot = buildSnapshot(d.state, {
        id: 'snap-x',
        trigger: 'pause',
        reason: null,
        git,
        now: ctx.now,
      });
      resume(d, { snapshot, git, staleAfterMs: 1e12 });
    });
    expect(s.usage).toMatchObject({ tokens_used: 0, cost_usd: null, context_tokens: null });
    s = run(s, (d) => recordUsage(d, reading({ tokens_used: 200, cost_usd: 0.2 })));
    expect(s.usage).toMatchObject({ tokens_used: 200, cost_usd: 0.2 });
    expect(s.usage_total).toMatchObject({ tokens_used: 700, cost_usd: 0.7 });
    expect(s.sessions.map((x) => x.usage?.tokens_used ?? 0)).toEqual([500, 200]);
  });

  it('property: the workflow total is the sum of every source’s last reading, whatever the interleaving', () => {
    const step = fc.record({
      source: fc.integer({ min: 0, max: 5 }),
      add: fc.integer({ min: 0, max: 1000 }),
    });
    for (const seed of [1, 2, 3, 42, 1234])
      fc.assert(
        fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
          let s = workflow();
          const totals = new Map<number, number>();
          for (const { source, add } of steps) {
            const now = (totals.get(source) ?? 0) + add;
            totals.set(source, now);
            s = run(s, (d) =>
              recordUsage(
                d,
                reading({ tokens_used: now, llm_calls: now, cost_usd: now / 1000 }),
                `run-${source}`,
              ),
            );
          }
          const sum = [...totals.values()].reduce((a, b) => a + b, 0);
          expect(s.usage_total?.tokens_used ?? 0).toBe(sum);
          expect(s.usage_total?.cost_usd ?? 0).toBeCloseTo(sum / 1000, 6);
        }),
        { seed, numRuns: 60 },
      );
  });
});

describe("an agent session's totals (a Codex thread resumed from run to run)", () => {
  it("each run adds its own share: the session's tokens once, the run's own calls and time", () => {
    const source = 'agent-session:thread-1';
    const first = reading({
      tokens_used: 1000,
      output_tokens: 100,
      llm_calls: 2,
      tool_calls: 3,
      session_duration_seconds: 10,
    });
    let s = run(workflow(), (d) => recordUsage(d, sessionReading(first, undefined), source));
    // the resumed thread reports its totals (1000 + 1500), its own calls and time only
    const second = reading({
      tokens_used: 2500,
      output_tokens: 250,
      llm_calls: 1,
      tool_calls: 4,
      session_duration_seconds: 20,
    });
    s = run(s, (d) => recordUsage(d, sessionReading(second, s.usage_sources?.[source]), source));
    expect(s.usage).toMatchObject({
      tokens_used: 2500,
      output_tokens: 250,
      llm_calls: 3,
      tool_calls: 7,
      session_duration_seconds: 30,
    });
  });
});
