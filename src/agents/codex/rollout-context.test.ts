import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodexRolloutParser } from './rollout.js';
import { ExecWithRollout, findRollout } from './rollout-context.js';

const thread = '019e1625-789d-76c0-80ab-3724b5ddb799';
const tokenCount = (input: number, total: number) =>
  JSON.stringify({
    timestamp: '2026-05-11T08:27:22.767Z',
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: {
          input_tokens: total,
          cached_input_tokens: 0,
          output_tokens: 10,
          total_tokens: total + 10,
        },
        last_token_usage: {
          input_tokens: input,
          cached_input_tokens: 0,
          output_tokens: 10,
          total_tokens: input + 10,
        },
        model_context_window: 258400,
      },
    },
  }) + '\n';

function sessions() {
  const dir = join(mkdtempSync(join(tmpdir(), 'codex-sessions-')), 'sessions');
  const day = join(dir, '2026', '05', '11');
  mkdirSync(day, { recursive: true });
  mkdirSync(join(dir, '2026', '05', '12'), { recursive: true });
  return { dir, rollout: join(day, `rollout-2026-05-11T11-26-55-${thread}.jsonl`) };
}

describe("a Codex exec run's context, read from the thread's rollout", () => {
  it('finds the rollout by its thread id in the day folders; null when none holds it', () => {
    const { dir, rollout } = sessions();
    writeFileSync(rollout, '');
    expect(findRollout(dir, thread)).toBe(rollout);
    expect(findRollout(dir, 'another-thread')).toBeNull();
    expect(findRollout(join(dir, 'nowhere'), thread)).toBeNull();
  });

  it('follows the rollout as it grows, whole lines only, beside the exec events', () => {
    const { dir, rollout } = sessions();
    const p = new ExecWithRollout(new CodexRolloutParser(), dir);
    p.push(JSON.stringify({ type: 'thread.started', thread_id: thread }) + '\n');
    const second = tokenCount(120000, 150000);
    writeFileSync(rollout, tokenCount(18703, 18703) + second.slice(0, 40));
    // the half-written line is not read
    expect(p.snapshot().usage).toMatchObject({ context_tokens: 18703, context_window: 258400 });
    appendFileSync(rollout, second.slice(40));
    expect(p.snapshot().usage).toMatchObject({ context_tokens: 120000, total_tokens: 150010 });
    p.push(
      JSON.stringify({
        type: 'turn.completed',
        usage: { input_tokens: 150000, cached_input_tokens: 0, output_tokens: 10 },
      }) + '\n',
    );
    expect(p.end().usage).toMatchObject({ context_tokens: 120000, peak_context_tokens: 120000 });
    expect(p.notes()).toEqual([]);
  });

  it('reads a rollout already long from near its end, and only its token counts', () => {
    const { dir, rollout } = sessions();
    const filler = JSON.stringify({
      type: 'response_item',
      payload: { type: 'message', text: 'x'.repeat(1000) },
    });
    writeFileSync(rollout, tokenCount(5000, 5000) + `${filler}\n`.repeat(6000) + tokenCount(90000, 200000));
    const p = new ExecWithRollout(new CodexRolloutParser(), dir);
    p.push(JSON.stringify({ type: 'thread.started', thread_id: thread }) + '\n');
    expect(p.snapshot().usage).toMatchObject({ context_tokens: 90000, total_tokens: 200010 });
    // the first count was before the part read: the peak is of what was read
    expect(p.end().usage.peak_context_tokens).toBe(90000);
  });

  it('says why when the rollout cannot be read, and never throws into the run', () => {
    const { dir, rollout } = sessions();
    mkdirSync(rollout);
    const p = new ExecWithRollout(new CodexRolloutParser(), dir);
    p.push(JSON.stringify({ type: 'thread.started', thread_id: thread }) + '\n');
    expect(p.end().usage.context_tokens).toBeNull();
    expect(p.notes().map((n) => n.text)).toEqual([
      expect.stringMatching(/^Codex's context was not measured: its rollout .* could not be read: /),
    ]);
  });

  it('says at the end that the context was not measured when the rollout never appeared', () => {
    const { dir } = sessions();
    const p = new ExecWithRollout(new CodexRolloutParser(), dir);
    p.push(JSON.stringify({ type: 'thread.started', thread_id: thread }) + '\n');
    expect(p.end().usage.context_tokens).toBeNull();
    expect(p.notes().map((n) => n.text)).toEqual([
      expect.stringMatching(
        new RegExp(`^Codex's context was not measured: no rollout of thread ${thread} under `),
      ),
    ]);
  });
});
