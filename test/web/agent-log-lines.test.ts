import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentLogLines, shorten } from '../../web/src/api/agent-log-lines.js';
import { fakeCodex } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

const corpus = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/corpus/stream-json/${path}`, import.meta.url)), 'utf8');

/** The dashboard's reading of a task log, on real Claude Code `--output-format stream-json` captures. */
describe('a task log in words', () => {
  it('reads a real Claude Code 2.1.138 run: its text, each tool call on one line, results shortened, the result', () => {
    const log = corpus('trackgentic/stream.jsonl');
    const lines = agentLogLines(log);
    const kinds = (k: string) => lines.filter((l) => l.kind === k).map((l) => l.text);
    expect(kinds('raw')).toEqual([]);
    expect(kinds('system')[2]).toBe('session started · model glm-5.1 · /Users/javi/projects/trackgentic');
    expect(kinds('system')).toContain('api_retry 1/10: rate_limit');
    expect(kinds('system')).toContain('hook_started: SessionStart:startup');
    // the 24 KB hook response is one short line
    expect(Math.max(...kinds('system').map((t) => t.length))).toBeLessThan(200);
    expect(kinds('text')[0]).toMatch(
      /^Pong! I'm the library developer agent for the \*\*trackgentic\*\* project/,
    );
    expect(kinds('thinking')).toHaveLength(1);
    const tools = kinds('tool');
    expect(tools).toHaveLength(11);
    expect(tools).toContain(
      'Bash cd /Users/javi/projects/trackgentic/packages/library && git log --oneline -20',
    );
    expect(tools).toContain(
      'Read /Users/javi/projects/trackgentic/.agentic/expertise/library-developer/library-developer-index.yaml',
    );
    expect(tools.every((t) => !t.includes('\n') && t.length < 160)).toBe(true);
    // results: each one line, the 22 KB file read cut with what was left out
    const results = [...kinds('tool-result'), ...kinds('tool-error')];
    expect(results).toHaveLength(11);
    expect(results.every((t) => !t.includes('\n') && t.length < 300)).toBe(true);
    expect(results[0]).toMatch(
      /^1\t# Library Developer Expertise Index ⏎ 2\t# Agent: library-developer.*… \(\+\d+ chars\) \(\d+ lines\)$/,
    );
    expect(kinds('tool-error')).toHaveLength(2);
    expect(kinds('tool-error')[1]).toContain('Claude requested permissions to write to');
    expect(kinds('user')).toEqual(['Stop hook feedback: ⏎ Check updating your expertise']);
    const last = lines.at(-1);
    expect(last?.kind).toBe('result');
    expect(last?.text).toMatch(
      /^Result \(success, 13 turns, 138\.9 s, \$0\.12\): It seems I don't have write access/,
    );
  });

  it('reads the per-message captures of 2.1.7 and the normalised ones of 2.1.12 (string content, placeholders)', () => {
    expect(agentLogLines(corpus('claude-agent-sdk-gleam/golden/basic_query.ndjson'))).toEqual([
      {
        kind: 'system',
        text: 'session started · model claude-opus-4-5-20251101 · /home/cyou/claude-agent-sdk-gleam',
      },
      { kind: 'text', text: '4' },
      { kind: 'result', text: 'Result (success, 1 turns, 2.4 s, $0.14): 4' },
    ]);
    const oneLine = (file: string) =>
      JSON.stringify(JSON.parse(corpus(`claude-agent-sdk-gleam/${file}`))) + '\n';
    expect(agentLogLines(oneLine('assistant_message.json') + oneLine('user_message.json'))).toEqual([
      { kind: 'tool', text: 'Bash ls -la' },
      {
        kind: 'tool-result',
        text: 'total 1976 ⏎ drwxrwxr-x  9 cyou cyou    4096 Jan 11 00:22 . ⏎ drwxr-x--- 54 cyou cyou    4096 Jan 11 00:26 ..',
      },
    ]);
    expect(agentLogLines(corpus('claudeless/v2.1.12/stream-json/output.jsonl'))).toEqual([
      { kind: 'system', text: 'session started · model claude-3-5-haiku-latest · <CWD>' },
      { kind: 'text', text: '<CONTENT>' },
      { kind: 'result', text: 'Result (success, 1 turns): <RESPONSE_TEXT>' },
    ]);
  });

  it('shows a line it does not know as it is, standard error marked, and waits for a line still being written', () => {
    const unknown = '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}';
    const text = [
      'plain words from another agent',
      unknown,
      '[stderr] warning: slow disk',
      '[1, 2]',
      '',
    ].join('\n');
    expect(agentLogLines(text + '{"type":"assis')).toEqual([
      { kind: 'raw', text: 'plain words from another agent' },
      { kind: 'raw', text: unknown },
      { kind: 'stderr', text: 'warning: slow disk' },
      { kind: 'raw', text: '[1, 2]' },
    ]);
    // a last line that is not JSON is shown at once (a progress line of a command agent)
    expect(agentLogLines('step 1 of 3').map((l) => l.text)).toEqual(['step 1 of 3']);
    // a failed run's result reads as one
    expect(
      agentLogLines('{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":3}\n'),
    ).toEqual([{ kind: 'result-error', text: 'Result (error_max_turns, 3 turns)' }]);
  });

  it("reads Codex's exec --json: each command once with its output, files changed, its message, how the turn ended", () => {
    // the fake Codex replays a real recorded rollout as `codex exec --json` events
    const dir = tempDir('codex-log-');
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [fakeCodex, 'exec', '--json', '-'], {
        cwd: dir,
        input: '## Task T1: First\n',
        env: { ...process.env, CODEX_HOME: dir, FAKE_ROLLOUT: 'none', ...env },
        encoding: 'utf8',
      }).stdout;
    const lines = agentLogLines(run({ FAKE_FILE_CHANGE: '1' }));
    const kinds = (k: string) => lines.filter((l) => l.kind === k).map((l) => l.text);
    expect(kinds('raw')).toEqual([]);
    expect(kinds('system')).toEqual([expect.stringMatching(/^thread [0-9a-f-]{36} started$/)]);
    const tools = kinds('tool');
    expect(tools).toHaveLength(3);
    expect(tools[0]).toMatch(/^exec sed -n '1,180p' /);
    expect(tools[2]).toBe(`apply_patch add ${dir}/work-T1.txt, update ${dir}/README.md`);
    expect(kinds('tool-result')).toHaveLength(2);
    expect(kinds('text')[0]).toMatch(/^Implemented the default context compaction setting/);
    expect(kinds('result')).toEqual(['Turn completed (131,573 input tokens, 433 output)']);
    // a failed turn reads as one
    const failed = agentLogLines(run({ FAKE_FAIL: "Codex ran out of room in the model's context window." }));
    expect(failed.at(-1)).toEqual({
      kind: 'result-error',
      text: "Turn failed: Codex ran out of room in the model's context window.",
    });
  });

  it('shortens to one line of at most the length asked, saying how much was left out', () => {
    expect(shorten('a\n  b\nc', 20)).toBe('a ⏎ b ⏎ c');
    expect(shorten('x'.repeat(30), 10)).toBe(`${'x'.repeat(10)}… (+20 chars)`);
  });
});
