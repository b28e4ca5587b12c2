import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../test/helpers/corpus.js';
import { claudeTool } from '../../test/helpers/transcript-lines.js';
import { parseClaudeTranscript } from './claude-code/transcript.js';
import { parseStreamJson } from './claude-code/stream-json.js';
import { parseCodexRollout } from './codex/rollout.js';
import { findTestRuns } from '../extraction/session/test-runs.js';
import type { ParseOptions, ParsedTranscript } from './transcript-types.js';

type Parse = (text: string, options?: ParseOptions) => ParsedTranscript;

/** Parse the first `cut` lines, then the rest from the first parse's state. */
function inTwo(parse: Parse, text: string, cut: number) {
  const lines = text.split('\n');
  const head = parse(lines.slice(0, cut).join('\n') + '\n');
  const tail = parse(lines.slice(cut).join('\n'), { startLine: cut, state: head.state });
  return { head, tail };
}

const cases: [string, Parse, string][] = [
  ['claude-code', parseClaudeTranscript, 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'],
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
