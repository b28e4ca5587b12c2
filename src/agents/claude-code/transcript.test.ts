import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { ParsedTranscript } from '../transcript-types.js';
import { ClaudeTranscriptParser, parseClaudeTranscript } from './transcript.js';
import { parseStreamJson } from './stream-json.js';

const spotter = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';

describe('parseClaudeTranscript on real transcripts', () => {
  it('reads the long spotter session: ids, deduplicated usage, the auto compaction and its context sizes', () => {
    const t = parseClaudeTranscript(readCorpus(spotter));
    expect(ParsedTranscript.parse(t)).toBeTruthy();
    expect(t.session_id).toBe('258c7280-ae70-4798-800f-63464d01a85d');
    expect(t.model).toBe('claude-opus-4-6');
    expect(t.lines).toBe(1863);
    expect(t.skipped).toEqual([]);
    // 299 assistant lines share 152 message ids (FORMATS.md): each call counts once.
    expect(t.usage.llm_calls).toBe(152);
    expect(t.compactions).toEqual([
      { line: 1256, at: '2026-02-11T21:18:41.543Z', trigger: 'auto', pre_tokens: 167094, post_tokens: 33960 },
    ]);
    expect(t.entries.find((e) => e.line === 1257)?.kind).toBe('summary');
    const codes = t.entries
      .filter((e) => e.kind === 'tool_result' && e.tool?.exit_code)
      .map((e) => e.tool?.exit_code);
    expect(codes).toEqual([128, 1, 2, 2, 2]);
    const rejected = t.entries.find((e) => e.line === 494);
    expect(rejected?.tool).toMatchObject({ name: 'TaskOutput', is_error: true });
  });

  it('counts what a message wrote when its lines recorded only the output count it started with (2.1.58)', () => {
    // every line of each of the 17 messages records 1 to 55 output tokens, 251 in all, for some 30 KB written
    const aidev =
      'claude-code/tomochang-aidev/.entire/metadata/c5f4a9cc-124d-4ca2-a57a-a111f631f14c/full.jsonl';
    const t = parseClaudeTranscript(readCorpus(aidev));
    expect(t.usage.output_estimated).toBe(true);
    expect(t.usage.output_tokens).toBeGreaterThan(4000);
    expect(t.usage.output_tokens).toBeLessThan(10_000);
    // 2.1.39 records most messages' final count on their last line (38,899 in all), not all: a message that wrote a
    // 22 KB tool input records 2; its 13 such messages count what they wrote
    const whole = parseClaudeTranscript(readCorpus(spotter));
    expect(whole.usage.output_estimated).toBe(true);
    expect(whole.usage.output_tokens).toBeGreaterThan(38_899 + 5_500);
    expect(whole.usage.output_tokens).toBeLessThan(38_899 + 8_000);
    // a stream's messages carry their final counts: nothing estimated
    expect(
      parseStreamJson(readCorpus('stream-json/trackgentic/stream.jsonl')).usage.output_estimated,
    ).toBeUndefined();
  });

  it('reads the last context size before a compaction from the latest main-chain call', () => {
    const lines = readCorpus(spotter).split('\n').slice(0, 1255).join('\n');
    const t = parseClaudeTranscript(lines);
    expect(t.usage.context_tokens).toBe(166759);
  });

  it('reads the codemie compaction, tool errors with exit codes and legacy summary lines', () => {
    const a = parseClaudeTranscript(readCorpus('claude-code/codemie-code/session-624a4a58.jsonl'));
    expect(a.compactions).toHaveLength(1);
    expect(a.compactions[0]).toMatchObject({ line: 158, trigger: 'auto', pre_tokens: 155979 });
    const b = parseClaudeTranscript(readCorpus('claude-code/codemie-code/session-3fe1b6bc.jsonl'));
    const jq = b.entries.find((e) => e.line === 120);
    expect(jq?.tool).toMatchObject({ name: 'Bash', exit_code: 5, is_error: true });
    expect(jq?.text).toContain('jq: parse error');
    expect(b.entries.find((e) => e.line === 43)?.tool).toMatchObject({ name: 'Read', is_error: true });
    const c = parseClaudeTranscript(readCorpus('claude-code/codemie-code/session-9eda1058.jsonl'));
    // the legacy `summary` lines are session titles, not summaries of the work: meta
    expect(c.entries.filter((e) => e.kind === 'summary')).toHaveLength(0);
    const titles = c.entries.filter((e) => e.kind === 'meta' && e.line >= 3 && e.line <= 19);
    expect(titles).toHaveLength(16);
    expect(titles.map((e) => e.text)).toContain('Analyzing missing user message in session file');
  });

  it('marks successful Bash results with exit code 0 and links results to their calls', () => {
    const t = parseClaudeTranscript(readCorpus('claude-code/spotter/short.jsonl'));
    const results = t.entries.filter((e) => e.kind === 'tool_result');
    expect(results.map((r) => [r.line, r.tool?.name, r.tool?.is_error])).toEqual([
      [11, 'Bash', true],
      [12, 'Glob', true],
    ]);
    expect(results[0]?.tool?.input).toMatchObject({ command: expect.any(String) });
    const heavy = parseClaudeTranscript(readCorpus('claude-code/spotter/tool_heavy.jsonl'));
    const bash = heavy.entries.filter((e) => e.kind === 'tool_result' && e.tool?.name === 'Bash');
    expect(bash.length).toBeGreaterThan(0);
    expect(bash.every((e) => e.tool?.exit_code === 0)).toBe(true);
  });

  it("reads a sub-agent's own file as its conversation, with its model and context", () => {
    const t = parseClaudeTranscript(
      readCorpus(
        'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl',
      ),
    );
    expect(t.model).toBe('claude-opus-4-6');
    expect(t.usage.context_tokens).toBe(3 + 2487 + 166758);
    expect(t.entries.some((e) => e.sidechain)).toBe(false);
  });

  it("reads the sub-agent's prompt as the request, its prose and tools as the session's own", () => {
    const t = parseClaudeTranscript(
      readCorpus('claude-code/codemie-code-2/turn-2/subagents/agent-a485154.jsonl'),
    );
    const request = t.entries.find((e) => e.role === 'user' && e.kind === 'text');
    expect(request).toMatchObject({ line: 1, sidechain: false });
    expect(request?.text).toMatch(/^Analyze the existing CLI command structure/);
    expect(t.entries.filter((e) => e.role === 'assistant' && e.kind === 'text').length).toBeGreaterThan(0);
    expect(t.usage.num_turns).toBe(1);
  });
});

describe('what the user did not say to the agent', () => {
  it('reads bash mode (! cmd) and local-command output as meta, a compaction summary without its flag as a summary', () => {
    const user = (content: string, n: number) =>
      JSON.stringify({
        type: 'user',
        timestamp: `2026-01-01T00:00:0${n}Z`,
        message: { role: 'user', content },
      });
    const t = parseClaudeTranscript(
      [
        user('<bash-input>git status</bash-input>', 1),
        user('<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>', 2),
        user('<local-command-stderr>no such command</local-command-stderr>', 3),
        user('<command-name>/review</command-name>\n<command-contents>Review the diff</command-contents>', 4),
        user('This session is being continued from a previous conversation that ran out of context. ...', 5),
        user('Fix the failing test', 6),
      ].join('\n'),
    );
    expect(t.entries.map((e) => [e.role, e.kind])).toEqual([
      ['system', 'meta'],
      ['system', 'meta'],
      ['system', 'meta'],
      ['system', 'meta'],
      ['system', 'summary'],
      ['user', 'text'],
    ]);
    expect(t.usage.num_turns).toBe(1);
  });
});

describe('malformed lines', () => {
  it('skips garbage and reports the right line numbers without losing the other lines', () => {
    const lines = readCorpus('claude-code/spotter/short.jsonl').trimEnd().split('\n');
    const clean = parseClaudeTranscript(lines.join('\n'));
    const dirty = [...lines];
    dirty.splice(2, 0, 'this is not json');
    dirty.splice(6, 0, '{"type": "assistant", "message": ');
    dirty.splice(9, 0, '[1, 2, 3]');
    const t = parseClaudeTranscript(dirty.join('\n'));
    expect(t.skipped.map((s) => s.line)).toEqual([3, 7, 10]);
    expect(t.skipped[0]?.reason).toMatch(/invalid JSON/);
    expect(t.skipped[2]?.reason).toMatch(/not a transcript line/);
    expect(t.entries.map((e) => e.text)).toEqual(clean.entries.map((e) => e.text));
  });

  it('accepts any chunking when fed incrementally', () => {
    const text = readCorpus(
      'claude-code/codemie-code/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl',
    );
    const parser = new ClaudeTranscriptParser();
    for (let i = 0; i < text.length; i += 97) parser.push(text.slice(i, i + 97));
    expect(parser.end()).toEqual(parseClaudeTranscript(text));
  });
});
