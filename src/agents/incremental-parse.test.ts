import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../test/helpers/corpus.js';
import { claudeTool } from '../../test/helpers/transcript-lines.js';
import { parseClaudeTranscript } from './claude-code/transcript.js';
import { parseStreamJson } from './claude-code/stream-json.js';
import { parseCodexRollout } from './codex/rollout.js';
import { findTestRuns } from '../extraction/session/test-runs.js';
import { slimInput } from './parser-state.js';
import type { ParseOptions, ParsedTranscript } from './transcript-types.js';

type Parse = (text: string, options?: ParseOptions) => ParsedTranscript;

/** Read `text` in pieces of `size` lines, each from the state the piece before left; the pieces' entries and states. */
function inPieces(parse: Parse, text: string, size: number) {
  const lines = text.split('\n');
  const entries: ParsedTranscript['entries'] = [];
  const states: unknown[] = [];
  let state: unknown;
  for (let from = 0; from < lines.length; from += size) {
    const piece = parse(lines.slice(from, from + size).join('\n') + '\n', { startLine: from, state });
    entries.push(...piece.entries);
    states.push((state = piece.state));
  }
  return { entries, states };
}

/**
 * What a result says of the call it answers: which call, its tool, its input (as a state carries it: long strings cut),
 * how it ended.
 */
const results = (entries: ParsedTranscript['entries']) =>
  entries
    .filter((e) => e.kind === 'tool_result')
    .map((e) => [
      e.line,
      e.tool?.id,
      e.tool?.name,
      slimInput(e.tool?.input),
      e.tool?.exit_code,
      e.tool?.is_error,
    ]);

/** Parse the first `cut` lines, then the rest from the first parse's state. */
function inTwo(parse: Parse, text: string, cut: number) {
  const lines = text.split('\n');
  const head = parse(lines.slice(0, cut).join('\n') + '\n');
  const tail = parse(lines.slice(cut).join('\n'), { startLine: cut, state: head.state });
  return { head, tail };
}

const cases: [string, Parse, string][] = [
  ['claude-code', parseClaudeTranscript, 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'],
  [
    'claude-code (output counts estimated)',
    parseClaudeTranscript,
    'claude-code/tomochang-aidev/.entire/metadata/c5f4a9cc-124d-4ca2-a57a-a111f631f14c/full.jsonl',
  ],
  ['codex (code mode)', parseCodexRollout, 'codex/hk/e5/cb0813e003/0/full.jsonl'],
  [
    'codex',
    parseCodexRollout,
    'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
  ],
  ['stream-json', parseStreamJson, 'stream-json/trackgentic/stream.jsonl'],
];

describe('reading a transcript in pieces, from the state of the previous piece', () => {
  it.each(cases)(
    '%s: the pieces hold the same entries and end with the same usage as one read',
    (_, parse, file) => {
      const text = readCorpus(file);
      const whole = parse(text);
      const total = text.split('\n').length;
      for (const cut of [3, Math.floor(total / 3), Math.floor(total / 2) + 1, total - 2]) {
        const { head, tail } = inTwo(parse, text, cut);
        expect([...head.entries, ...tail.entries].map((e) => [e.line, e.kind, e.text])).toEqual(
          whole.entries.map((e) => [e.line, e.kind, e.text]),
        );
        expect(tail.usage).toEqual(whole.usage);
        expect(tail.lines).toBe(whole.lines);
        expect(tail.session_id).toBe(whole.session_id);
        expect(JSON.stringify(tail.state).length).toBeLessThan(100_000);
      }
    },
  );

  it.each(cases)(
    '%s: read a few lines at a time, each result still names the call it answers',
    (_, parse, file) => {
      const text = readCorpus(file);
      // how a call ended is left out: an exit code Codex writes after the output (exec_command_end) in the next piece
      // cannot change a result recorded with the piece before
      const calls = (entries: ParsedTranscript['entries']) => results(entries).map((r) => r.slice(0, 4));
      expect(calls(inPieces(parse, text, 7).entries)).toEqual(calls(parse(text).entries));
    },
  );

  it('carries a few KB from one piece to the next, not the latest 200 calls with their inputs (a real session)', () => {
    const text = readCorpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    // the tool calls with long inputs (Edit's old and new strings, Write's content) made this state 85 KB
    for (const size of [50, 100, 300]) {
      const sizes = inPieces(parseClaudeTranscript, text, size).states.map((s) => JSON.stringify(s).length);
      expect(Math.max(...sizes)).toBeLessThan(8000);
      expect(sizes.at(-1)).toBeLessThan(5000);
    }
  });

  /** `n` Read calls and their results, between a call and what a later line says of it. */
  const reads = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) =>
      claudeTool(`read${from + i}`, 'Read', { file_path: `src/file-${from + i}.ts` }, 'export {};'),
    ).flat();
  const claudeUser = (content: unknown) =>
    JSON.stringify({ type: 'user', message: { role: 'user', content } });
  const claudeCall = (id: string, name: string, input: unknown) =>
    JSON.stringify({
      type: 'assistant',
      message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
  const claudeResult = (id: string, content: string) =>
    claudeUser([{ type: 'tool_result', tool_use_id: id, content, is_error: true }]);

  it('claude-code: a result, a background command, a background sub-agent, many calls and pieces after the call', () => {
    const text = [
      claudeUser('build it, test it, and survey the code'),
      claudeCall('build', 'Bash', { command: 'npm run build' }),
      ...claudeTool(
        'tests',
        'Bash',
        { command: 'npm test', run_in_background: true },
        'Command running in background with ID: bg1',
      ),
      ...claudeTool(
        'survey',
        'Agent',
        { description: 'Survey the code', prompt: 'Survey the code' },
        'Async agent launched successfully.\nagentId: ag1 (internal ID)',
      ),
      ...reads(15),
      claudeResult('build', 'Exit code 2\nerror TS2322: Type string is not assignable to type number'),
      ...reads(15, 15),
      ...claudeTool(
        'read-tests',
        'TaskOutput',
        { task_id: 'bg1' },
        '<task_id>bg1</task_id>\n<status>completed</status>\n<exit_code>1</exit_code>\n<output>1 failed</output>',
      ),
      ...reads(15, 30),
      claudeUser(
        '<task-notification>\n<task-id>ag1</task-id>\n<tool-use-id>survey</tool-use-id>\n<status>failed</status>\n' +
          '<summary>Agent "Survey the code" failed</summary>\n</task-notification>',
      ),
    ].join('\n');
    const whole = results(parseClaudeTranscript(text).entries);
    const later = (id: string) => whole.filter(([line, call]) => call === id && Number(line) > 20);
    expect(later('build')).toMatchObject([
      [expect.any(Number), 'build', 'Bash', { command: 'npm run build' }, 2, true],
    ]);
    expect(later('tests')).toMatchObject([
      [expect.any(Number), 'tests', 'Bash', { command: 'npm test' }, 1, true],
    ]);
    expect(later('survey').map((r) => r.slice(1, 3))).toEqual([['survey', 'Agent']]);
    for (const size of [1, 2, 5, 13]) {
      const { entries, states } = inPieces(parseClaudeTranscript, text, size);
      expect(results(entries)).toEqual(whole);
      expect(Math.max(...states.map((s) => JSON.stringify(s).length))).toBeLessThan(5000);
    }
  });

  it('codex: a PTY session polled and a code cell waited on many calls and pieces after they began', () => {
    const at = '2026-05-11T11:27:00.000Z';
    const item = (payload: object) => JSON.stringify({ timestamp: at, type: 'response_item', payload });
    const call = (id: string, name: string, args: object) =>
      item({ type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
    const output = (id: string, out: unknown) =>
      item({ type: 'function_call_output', call_id: id, output: out });
    const shells = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => [
        call(`ls${from + i}`, 'exec_command', { cmd: `ls dir-${from + i}` }),
        output(`ls${from + i}`, 'Process exited with code 0\nOutput:\nfile'),
      ]).flat();
    const text = [
      call('build', 'exec_command', { cmd: 'npm run build' }),
      output('build', 'Process running with session ID 7\nOutput:\nbuilding'),
      item({
        type: 'custom_tool_call',
        name: 'exec',
        call_id: 'cell',
        input: 'text(await tools.exec_command({cmd:"npm test"}));',
      }),
      output('cell', [{ type: 'input_text', text: 'Script running with cell ID k1' }]),
      ...shells(15, 0),
      call('poll', 'write_stdin', { session_id: 7, chars: '' }),
      output('poll', 'Process exited with code 1\nOutput:\nerror: build failed'),
      ...shells(15, 15),
      call('wait', 'wait', { cell_id: 'k1' }),
      output('wait', [
        { type: 'input_text', text: 'Script failed\nWall time 1.0 seconds\nOutput:\n1 test failed' },
      ]),
    ].join('\n');
    const whole = results(parseCodexRollout(text).entries);
    expect(whole.filter(([, id]) => id === 'build').at(-1)).toEqual([
      expect.any(Number),
      'build',
      'exec_command',
      { cmd: 'npm run build' },
      1,
      true,
    ]);
    expect(
      whole
        .filter(([, id]) => id === 'cell')
        .at(-1)
        ?.slice(1, 3),
    ).toEqual(['cell', 'exec']);
    for (const size of [1, 2, 5, 13]) {
      const { entries, states } = inPieces(parseCodexRollout, text, size);
      expect(results(entries)).toEqual(whole);
      // the session and the cell ended: their calls are carried no longer
      expect(JSON.stringify(states.at(-1))).not.toContain('npm run build');
    }
  });

  it('codex exec --json: an item completed pieces after it started is one call and its result', () => {
    const event = (type: string, item: object) => JSON.stringify({ type, item });
    const text = [
      JSON.stringify({ type: 'thread.started', thread_id: 't1' }),
      event('item.started', {
        id: 'build',
        type: 'command_execution',
        command: 'npm run build',
        status: 'in_progress',
      }),
      ...Array.from({ length: 15 }, (_, i) =>
        event('item.completed', {
          id: `ls${i}`,
          type: 'command_execution',
          command: `ls dir-${i}`,
          aggregated_output: 'file',
          exit_code: 0,
          status: 'completed',
        }),
      ),
      event('item.completed', {
        id: 'build',
        type: 'command_execution',
        command: 'npm run build',
        aggregated_output: 'error: build failed',
        exit_code: 1,
        status: 'failed',
      }),
    ].join('\n');
    const whole = parseCodexRollout(text).entries;
    for (const size of [1, 3]) {
      const { entries } = inPieces(parseCodexRollout, text, size);
      expect(entries.map((e) => [e.line, e.kind, e.tool?.id])).toEqual(
        whole.map((e) => [e.line, e.kind, e.tool?.id]),
      );
      expect(results(entries)).toEqual(results(whole));
    }
  });

  it('reads on from a state kept before open and held calls were (its latest 200 calls, every one)', () => {
    const text = readCorpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    const whole = parseClaudeTranscript(text);
    const cut = 1000;
    const { head, tail } = inTwo(parseClaudeTranscript, text, cut);
    // the state as versions before kept it: the latest 200 calls with their slimmed inputs, none said open or held
    const {
      open_calls: _open,
      held_calls: _held,
      ...builder
    } = (head.state as { builder: Record<string, unknown> }).builder;
    const calls = whole.entries
      .filter((e) => e.kind === 'tool_call' && e.line <= cut && e.tool?.id)
      .slice(-200)
      .map((e) => [e.tool?.id, { name: e.tool?.name, input: slimInput(e.tool?.input) }]);
    expect(calls.length).toBeGreaterThan(100);
    const older = { ...(head.state as object), builder: { ...builder, tool_calls: calls } };
    const lines = text.split('\n').slice(cut).join('\n');
    const read = parseClaudeTranscript(lines, { startLine: cut, state: older });
    expect(results(read.entries)).toEqual(results(tail.entries));
    expect(read.usage).toEqual(tail.usage);
    // and what it carries on is the few calls a later line may need
    expect(JSON.stringify(read.state).length).toBeLessThan(5000);
  });

  it('links a tool result to a call made in the previous piece', () => {
    const text = readCorpus('claude-code/spotter/short.jsonl');
    const { tail } = inTwo(parseClaudeTranscript, text, 10); // the calls are on lines 8 and 10, results on 11 and 12
    expect(tail.entries.filter((e) => e.kind === 'tool_result').map((e) => e.tool?.name)).toEqual([
      'Bash',
      'Glob',
    ]);
  });

  it('ignores a state that is not one (the piece is read as a fresh transcript)', () => {
    const t = parseClaudeTranscript(readCorpus('claude-code/spotter/short.jsonl'), {
      state: { nonsense: 1 },
    });
    expect(t.entries.length).toBeGreaterThan(0);
  });
});

describe('what the parsers keep', () => {
  it('keeps compaction summaries and prose whole, cuts long tool outputs in the middle (head and tail kept)', () => {
    const t = parseClaudeTranscript(
      readCorpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'),
    );
    const summary = t.entries.find((e) => e.kind === 'summary');
    expect(summary?.text.length).toBeGreaterThan(4000);
    expect(summary?.truncated).toBe(false);
    const cut = t.entries.find((e) => e.kind === 'tool_result' && e.truncated);
    expect(cut?.text).toMatch(/\[\.\.\. \d+ characters cut \.\.\.\]/);
    expect(t.usage.peak_context_tokens).toBe(166759);
    expect(t.usage.context_tokens).toBeLessThan(t.usage.peak_context_tokens ?? 0);
  });

  it("keeps git's commit line when a long hook output before it and the files after it are cut", () => {
    const hooks = Array.from({ length: 60 }, (_, i) => `check-hook-${i}${'.'.repeat(50)}Passed`).join('\n');
    const files = Array.from({ length: 80 }, (_, i) => ` create mode 100644 src/module-${i}/index.ts`).join(
      '\n',
    );
    const output = `${hooks}\n[main (root-commit) 0a1b2c3] Scaffold the app\n 80 files changed, 800 insertions(+)\n${files}`;
    const lines = claudeTool('t1', 'Bash', { command: 'git commit -m "Scaffold the app"' }, output);
    const result = parseClaudeTranscript(lines.join('\n')).entries.find((e) => e.kind === 'tool_result');
    expect(result?.truncated).toBe(true);
    expect(result?.text).toContain('characters cut ...]\n[main (root-commit) 0a1b2c3] Scaffold the app\n');
  });

  it('keeps the failing tests a long run names between its logs, so its count is whole', () => {
    const log = (test: string) =>
      Array.from(
        { length: 24 },
        (_, i) => `    hooks.go:155: ${test} step ${i}: ${'output '.repeat(12)}`,
      ).join('\n');
    const failing = ['TestShadow_Concurrent', 'TestRewind_Clears', 'TestRewind_Multiple'];
    const output = [
      'Exit code 1',
      'ok  \texample.com/cli\t6.239s',
      ...failing.map((t) => `--- FAIL: ${t} (0.55s)\n${log(t)}`),
      'FAIL',
      'FAIL\texample.com/cli/integration\t12.1s',
    ].join('\n');
    expect(output.length).toBeGreaterThan(8000);
    const lines = claudeTool('t1', 'Bash', { command: 'go test -race ./...' }, output);
    const entries = parseClaudeTranscript(lines.join('\n')).entries;
    expect(entries.find((e) => e.kind === 'tool_result')?.truncated).toBe(true);
    const [run] = findTestRuns(entries);
    expect(run).toMatchObject({ runner: 'go', failed: 3, failing });
  });

  it("keeps a run's summary that the chained commands after it push into the middle (cargo test && a lint)", () => {
    const build = (tag: string) =>
      Array.from({ length: 80 }, (_, i) => `  ${tag} – checking file-${i}.rs ${'.'.repeat(40)} ok`).join(
        '\n',
      );
    const output = [
      build('fmt'),
      'running 2 tests',
      'test util::tests::detached ... ok',
      'test util::tests::named ... ok',
      '',
      'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 40 filtered out; finished in 0.01s',
      build('clippy'),
    ].join('\n');
    expect(output.length).toBeGreaterThan(8000);
    const lines = claudeTool('t1', 'Bash', { command: 'cargo test && mise run lint' }, output);
    const entries = parseClaudeTranscript(lines.join('\n')).entries;
    expect(entries.find((e) => e.kind === 'tool_result')?.truncated).toBe(true);
    expect(findTestRuns(entries)).toMatchObject([{ runner: 'cargo', passed: 2, failed: 0, outcome: 'pass' }]);
  });

  it("keeps ExUnit's numbered failures from the middle of a long run (a real mix test, spotter line 1111)", () => {
    const entries = parseClaudeTranscript(
      readCorpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'),
    ).entries.filter((e) => e.line <= 1111);
    expect(entries.find((e) => e.line === 1111)?.truncated).toBe(true);
    const run = findTestRuns(entries).at(-1);
    expect(run).toMatchObject({ line: 1111, runner: 'exunit', passed: 1, failed: 4 });
    expect(run?.failing).toEqual([
      'test mount renders project review page with open annotations (SpotterWeb.ProjectReviewLiveTest)',
      'test mount renders transcript annotation with message ref count (SpotterWeb.ProjectReviewLiveTest)',
      'test mount shows empty state when no open annotations (SpotterWeb.ProjectReviewLiveTest)',
    ]);
  });

  it('reads messages the user typed while the agent worked (queued), and leaves notifications out', () => {
    const t = parseClaudeTranscript(
      readCorpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'),
    );
    const queued = t.entries.filter((e) => e.queued);
    expect(queued.map((e) => [e.line, e.text])).toEqual([
      [497, 'check again'],
      [603, 'new beads for the epic were added. tackle them'],
    ]);
    expect(t.entries.find((e) => e.line === 280)?.kind).toBe('meta'); // <task-notification>
  });

  it("marks a Stop hook's feedback in stream-json as meta, not as the user's words", () => {
    const t = parseStreamJson(readCorpus('stream-json/trackgentic/stream.jsonl'));
    const feedback = t.entries.find((e) => e.line === 10);
    expect(feedback).toMatchObject({ role: 'system', kind: 'meta' });
    expect(feedback?.text).toMatch(/^Stop hook feedback:/);
  });

  it('records each Codex message once and treats injected context as meta', () => {
    const t = parseCodexRollout(readCorpus('codex/hk/a3/e13cc6b6d2/0/full.jsonl'));
    const users = t.entries.filter((e) => e.role === 'user' && e.kind === 'text');
    expect(users.map((e) => e.line)).toEqual([9, 77]);
    expect(t.entries.find((e) => e.line === 6)?.kind).toBe('meta'); // <recommended_plugins>
    const said = t.entries.filter((e) => e.role === 'assistant' && e.kind === 'text').map((e) => e.text);
    expect(new Set(said).size).toBe(said.length);
  });

  it('reads code-mode cells: the output of the commands, their exit codes, a wait finishing a running cell', () => {
    const t = parseCodexRollout(readCorpus('codex/hk/e5/cb0813e003/0/full.jsonl'));
    const failed = t.entries.find((e) => e.line === 36);
    expect(failed?.tool).toMatchObject({ name: 'exec', exit_code: 101, is_error: true });
    expect(failed?.text).toMatch(/^error: `cargo run` could not determine which binary to run/);
    const waited = t.entries.find((e) => e.line === 44);
    expect(waited?.tool?.input).toEqual(expect.stringContaining('cargo run --quiet --bin hk -- util'));
    expect(waited?.tool?.exit_code).toBe(101);
  });
});
