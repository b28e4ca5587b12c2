import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { branchOf } from '../parser-state.js';
import { ParsedTranscript } from '../transcript-types.js';
import { CodexRolloutParser, parseCodexRollout } from './rollout.js';

const desktop = 'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
const demo = 'codex/codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl';

describe('parseCodexRollout on real rollouts', () => {
  it('reads session, model, token_count usage and the context window', () => {
    const t = parseCodexRollout(readCorpus(desktop));
    expect(ParsedTranscript.parse(t)).toBeTruthy();
    expect(t).toMatchObject({
      format: 'codex-rollout',
      session_id: '019e1625-789d-76c0-80ab-3724b5ddb799',
      model: 'gpt-5.5',
    });
    // the last token_count: total 6 055 836 in (4 929 536 cached), 9 118 out; last call 131 573 in.
    expect(t.usage).toMatchObject({
      input_tokens: 6055836 - 4929536,
      cache_read_input_tokens: 4929536,
      output_tokens: 9118,
      total_tokens: 6064954,
      context_tokens: 131573,
      context_window: 258400,
    });
    expect(t.skipped).toEqual([]);
  });

  it('keeps the branch a session_meta line names (the first one of this rollout names none: a detached worktree)', () => {
    const lines = readCorpus('codex/hk/e5/cb0813e003/0/full.jsonl').split('\n');
    expect(branchOf(parseCodexRollout(lines.slice(0, 190).join('\n')).state)).toBeNull();
    expect(branchOf(parseCodexRollout(lines.slice(0, 200).join('\n')).state)).toBe(
      'codex/fix-no-commit-detached-head',
    );
  });

  it('attributes non-zero exits to the command that ran, across write_stdin polls', () => {
    const t = parseCodexRollout(readCorpus(desktop));
    const failed = t.entries.filter((e) => e.kind === 'tool_result' && (e.tool?.exit_code ?? 0) !== 0);
    expect(failed.every((e) => e.tool?.name === 'exec_command' && e.tool.is_error === true)).toBe(true);
    const rg = failed.find((e) => e.line === 142);
    expect(rg?.tool?.exit_code).toBe(2);
    expect(rg?.text).toContain('No such file or directory');
    const test = failed.find((e) => e.line === 272);
    expect(test?.tool?.exit_code).toBe(1);
    expect(JSON.stringify(test?.tool?.input)).toContain('npm test -- --run');
    const patch = t.entries.find((e) => e.kind === 'tool_call' && e.tool?.name === 'apply_patch');
    expect(patch?.text).toContain('*** Begin Patch');
  });

  it("reads a poll of a session whose exit a poll already read as that poll's own, not as the command's", () => {
    const item = (payload: object) =>
      JSON.stringify({ timestamp: '2026-05-11T11:27:00.000Z', type: 'response_item', payload });
    const call = (id: string, name: string, args: object) =>
      item({ type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
    const output = (id: string, out: string) =>
      item({ type: 'function_call_output', call_id: id, output: out });
    const text = [
      call('build', 'exec_command', { cmd: 'npm run build' }),
      output('build', 'Process running with session ID 7\nOutput:\nbuilding'),
      call('poll', 'write_stdin', { session_id: 7, chars: '' }),
      output('poll', 'Process exited with code 0\nOutput:\nbuilt'),
      call('again', 'write_stdin', { session_id: 7, chars: '' }),
      output('again', 'write_stdin failed: Unknown process id 7'),
    ].join('\n');
    const results = parseCodexRollout(text).entries.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => [e.tool?.id, e.tool?.name, e.tool?.exit_code])).toEqual([
      ['build', 'exec_command', null],
      ['build', 'exec_command', 0],
      ['again', 'write_stdin', null],
    ]);
  });

  it('reads a rollout without token counts and its failing ps command', () => {
    const t = parseCodexRollout(readCorpus(demo));
    expect(t.usage.llm_calls).toBe(0);
    expect(t.usage.context_tokens).toBeNull();
    const ps = t.entries.find((e) => e.line === 47);
    expect(ps?.tool).toMatchObject({ exit_code: 1, is_error: true });
    expect(ps?.text).toContain('operation not permitted: ps');
    expect(t.entries.filter((e) => e.role === 'user' && e.kind === 'text')).toHaveLength(3);
  });

  it('records user text once although rollouts write it twice, and marks injected context', () => {
    const t = parseCodexRollout(readCorpus('codex/claude-code-transcripts/sample_codex_session.jsonl'));
    expect(t.model).toBe('gpt-5.2-codex');
    expect(t.entries.filter((e) => e.kind === 'text').map((e) => e.text)).toEqual([
      'can you analyse the MD files in this directory and determine if the info we have is clear enough to start planning the migration?',
    ]);
    expect(t.entries.filter((e) => e.kind === 'meta')).toHaveLength(2);
  });

  it("marks a shell command the user ran, skills and sub-agent notifications as meta, not the user's words", () => {
    const user = (text: string, event = false) =>
      JSON.stringify(
        event
          ? {
              timestamp: '2026-01-01T00:00:00Z',
              type: 'event_msg',
              payload: { type: 'user_message', message: text },
            }
          : {
              timestamp: '2026-01-01T00:00:00Z',
              type: 'response_item',
              payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
            },
      );
    const shell =
      'The user ran the following shell command themselves in the session workspace.\n<user_shell_command>\n<command>\ngit status\n</command>\n</user_shell_command>';
    const t = parseCodexRollout(
      [
        user(shell),
        user(shell, true),
        user('<skill>\n<name>review</name>\n</skill>', true),
        user('<subagent_notification>{"agent":"a1","status":"completed"}</subagent_notification>', true),
        user('Fix the flaky test in src/app.ts', true),
      ].join('\n'),
    );
    expect(t.entries.filter((e) => e.role === 'user').map((e) => e.text)).toEqual([
      'Fix the flaky test in src/app.ts',
    ]);
    expect(t.entries.filter((e) => e.kind === 'meta')).toHaveLength(4);
  });

  it('keeps token figures whole when a writer left fractions (every stored count is a whole number)', () => {
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: '2026-04-04T00:00:00Z', type, payload });
    const counts = {
      input_tokens: 20230.25,
      cached_input_tokens: 100.5,
      output_tokens: 7.4,
      total_tokens: 20237.65,
    };
    const t = parseCodexRollout(
      [
        line('session_meta', { id: 's-1', cwd: '/w' }),
        line('event_msg', { type: 'task_started', model_context_window: 258400.5 }),
        line('event_msg', {
          type: 'token_count',
          info: { total_token_usage: counts, last_token_usage: counts, model_context_window: 258400.5 },
        }),
      ].join('\n'),
    );
    const figures = Object.values(t.usage).filter((v): v is number => typeof v === 'number');
    expect(figures.length).toBeGreaterThan(3);
    for (const v of figures) expect(Number.isInteger(v)).toBe(true);
    expect(t.usage).toMatchObject({ context_tokens: 20230, context_window: 258401, output_tokens: 7 });
  });

  it('leaves out the markers around an image the user attached, as parts of their own or before the prompt', () => {
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: '2026-04-04T00:00:00Z', type, payload });
    const image = { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' };
    const t = parseCodexRollout(
      [
        line('response_item', {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: '<image name=[Image #1]>' },
            image,
            { type: 'input_text', text: '</image>' },
            { type: 'input_text', text: 'Why is the total wrong on this screen?' },
          ],
        }),
        line('event_msg', { type: 'user_message', message: 'Why is the total wrong on this screen?' }),
        line('event_msg', {
          type: 'user_message',
          message: '<image name=[Image #2]></image>Make it match this one',
        }),
        line('response_item', {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: '<image name=[Image #3]>' },
            image,
            { type: 'input_text', text: '</image>' },
          ],
        }),
      ].join('\n'),
    );
    expect(t.entries.filter((e) => e.role === 'user').map((e) => e.text)).toEqual([
      'Why is the total wrong on this screen?',
      'Make it match this one',
    ]);
  });

  it('skips bad lines with their numbers and accepts chunked input', () => {
    const lines = readCorpus(demo).trimEnd().split('\n');
    lines.splice(4, 0, '{"timestamp": 1, "type": "response_item"}', 'garbage');
    const text = lines.join('\n');
    const parser = new CodexRolloutParser();
    for (let i = 0; i < text.length; i += 1000) parser.push(text.slice(i, i + 1000));
    const t = parser.end();
    expect(t.skipped.map((s) => s.line)).toEqual([5, 6]);
    expect(t).toEqual(parseCodexRollout(text));
  });
});

describe('codex exec --json', () => {
  // No real exec --json capture is in the corpus; these lines follow the documented event schema.
  it('reads thread, command items with exit codes, usage and a failed turn', () => {
    const lines = [
      { type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
      { type: 'turn.started' },
      {
        type: 'item.started',
        item: {
          id: 'item_1',
          type: 'command_execution',
          command: 'bash -lc "npm test"',
          aggregated_output: '',
          exit_code: null,
          status: 'in_progress',
        },
      },
      {
        type: 'item.completed',
        item: {
          id: 'item_1',
          type: 'command_execution',
          command: 'bash -lc "npm test"',
          aggregated_output: 'FAIL src/a.test.ts',
          exit_code: 1,
          status: 'failed',
        },
      },
      { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: 'Tests fail; fixing.' } },
      {
        type: 'turn.completed',
        usage: { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122 },
      },
      { type: 'turn.failed', error: { message: 'stream disconnected' } },
    ].map((l) => JSON.stringify(l));
    const t = parseCodexRollout(lines.join('\n'));
    expect(t.format).toBe('codex-exec-json');
    expect(t.session_id).toBe('0199a213-81c0-7800-8aa1-bbab2a035a53');
    expect(t.entries.find((e) => e.kind === 'tool_result')?.tool).toMatchObject({
      id: 'item_1',
      exit_code: 1,
      is_error: true,
    });
    expect(t.usage).toMatchObject({ input_tokens: 315, cache_read_input_tokens: 24448, output_tokens: 122 });
    // the totals are the thread's, all calls added up: no measure of the context
    expect(t.usage.context_tokens).toBeNull();
    expect(t.result).toMatchObject({ subtype: 'turn.failed', is_error: true, text: 'stream disconnected' });
  });

  it('takes the usage of each turn.completed as the totals so far, not as one more call to add', () => {
    const usage = (input: number, cached: number, output: number) =>
      JSON.stringify({
        type: 'turn.completed',
        usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
      });
    const t = parseCodexRollout(
      [
        JSON.stringify({ type: 'thread.started', thread_id: 't-1' }),
        usage(20_000, 15_000, 300),
        usage(90_000, 70_000, 900),
      ].join('\n'),
    );
    expect(t.usage).toMatchObject({
      input_tokens: 20_000,
      cache_read_input_tokens: 70_000,
      output_tokens: 900,
    });
    expect(t.usage.total_tokens).toBe(90_900);
    expect(t.usage.context_tokens).toBeNull();
  });
});
