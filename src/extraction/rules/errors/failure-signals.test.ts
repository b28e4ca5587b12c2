import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../../test/helpers/corpus.js';
import { bash, toolResult } from '../../../../test/helpers/tool-results.js';
import { claudeTool } from '../../../../test/helpers/transcript-lines.js';
import { corpusLines, parseCorpusLines } from '../../../../test/helpers/corpus-lines.js';
import { parseClaudeTranscript } from '../../../agents/claude-code/transcript.js';
import { parseTranscript } from '../../../agents/parse-transcript.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { findErrors } from './error-rules.js';
import { failed } from './failure.js';
import { fixedAtOnce } from '../../../core/fixed-at-once.js';
import type { ErrorDraft } from '../../extractor.js';

/**
 * Each signal a transcript format carries for a failed command, tool call or patch, read from real lines of the
 * copied corpus (test/fixtures/corpus, sources in its SOURCES.md; never holdout/ nor the untuned split's files).
 * Where the tuning corpus holds no failing example of a signal, the test takes a real line of that format and
 * changes only the fields that say the outcome, as the format's producer writes them (each such change is named).
 */
const lines = corpusLines;
const parse = parseCorpusLines;
const results = (entries: TranscriptEntry[]) => entries.filter((e) => e.kind === 'tool_result');
const json = (line: string) => JSON.parse(line) as Record<string, unknown>;

const spotter = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';
const codemieClaude = 'claude-code/codemie-code/session-3fe1b6bc.jsonl';
const entirecontext = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';
const codex125 = 'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
const codex128 = 'codex/codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl';
const codex077 =
  'codex/codemie-code-2/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl';
const codex144 = 'codex/hk/a3/e13cc6b6d2/0/full.jsonl';
const gleam = 'stream-json/claude-agent-sdk-gleam';

describe('Claude Code transcripts: a failed call is read as a failure', () => {
  it('2.0.76: a Bash result flagged is_error with "Exit code 1" (toolUseResult "Error: Exit code 1")', () => {
    const entries = parse(codemieClaude, [99, 100]);
    const [result] = results(entries);
    expect(result?.tool).toMatchObject({ is_error: true, exit_code: 1 });
    const [error] = findErrors(entries, null);
    expect(error).toMatchObject({ evidence_line: 100, error_type: 'command_failed' });
    expect(error?.error_message).toContain('codemie-codex --task');
  });

  it('2.1.39: a failing test run (Exit code 2) is a test failure', () => {
    const entries = parse(spotter, [974, 988]);
    expect(results(entries)[0]?.tool).toMatchObject({ is_error: true, exit_code: 2 });
    expect(findErrors(entries, null)).toMatchObject([{ evidence_line: 988, error_type: 'test_failure' }]);
  });

  it('2.1.232: a tool refusing the call (<tool_use_error>) is an error, fixed when the same file is edited later', () => {
    // only a Read of the same file between them (590, 592): a slip, fixed once the agent had read the file
    const entries = parse(entirecontext, [587, 588, 590, 592, 595, 598]);
    const [error] = findErrors(entries, null);
    expect(error).toMatchObject({
      evidence_line: 588,
      error_type: 'tool_error',
      resolution: 'fixed',
      resolution_notes: 'the same call succeeded once the agent had read the file (transcript line 598)',
    });
    expect(fixedAtOnce(error as ErrorDraft)).toBe(true);
    // with no Read between them, the edit succeeding later is a fix, not a slip of reading first
    const [later] = findErrors(parse(entirecontext, [587, 588, 595, 598]), null);
    expect(later?.resolution_notes).toBe('the same call succeeded right after it (transcript line 598)');
  });

  it('an edit made again after reading another file is a fix that took more, not a slip', () => {
    // the Read at 590 changed to read README.md, as Claude Code writes a Read of another file
    const entries = parse(entirecontext, [587, 588, 590, 592, 595, 598], (line, n) =>
      n === 590 ? line.replace('ROADMAP.md', 'README.md') : line,
    );
    const error = findErrors(entries, null).find((e) => e.evidence_line === 588);
    expect(error?.resolution_notes).toBe('succeeded later (transcript line 598)');
  });

  it('a Read of a folder (EISDIR) is an error; another file read later is not its fix', () => {
    const entries = parse(entirecontext, [184, 186, 189, 191]);
    const [error] = findErrors(entries, null);
    expect(error).toMatchObject({ evidence_line: 186, error_type: 'tool_error' });
    expect(error?.resolution).not.toBe('fixed');
  });

  it('a background command that failed: its <task-notification> fails the call that started it', () => {
    // line 779 is a real notification (status completed, exit code 0); the status and summary are changed to the
    // failed form Claude Code writes: status failed, "... failed with exit code 1"
    const entries = parse(entirecontext, [763, 764, 779], (line, n) =>
      n === 779
        ? line
            .replace('<status>completed</status>', '<status>failed</status>')
            .replace('completed (exit code 0)', 'failed with exit code 1')
        : line,
    );
    const failure = results(entries).find((e) => e.line === 779);
    expect(failure?.tool).toMatchObject({
      id: 'toolu_01UkvLigKCNJf8gppu1UvbBP',
      is_error: true,
      exit_code: 1,
    });
    expect(failure?.tool?.name).toBe('Bash');
    expect(findErrors(entries, null).map((e) => e.evidence_line)).toEqual([779]);
    // the real, successful notification is no failure
    expect(results(parse(entirecontext, [763, 764, 779])).filter(failed)).toEqual([]);
  });

  it('2.1.39: a queued notification naming only the task id fails the command that started the task', () => {
    // changed: the real notification (completed, exit code 0) in its failed form
    const entries = parse(spotter, [445, 477, 520], (line, n) =>
      n === 520
        ? line
            .replace('<status>completed</status>', '<status>failed</status>')
            .replace('completed (exit code 0)', 'failed with exit code 1')
        : line,
    );
    expect(results(entries).find((e) => e.line === 520)?.tool).toMatchObject({
      id: 'toolu_015vWPk1LbLJMS7eW65VHeY3',
      is_error: true,
      exit_code: 1,
    });
    expect(findErrors(entries, null)).toMatchObject([{ evidence_line: 520, error_type: 'test_failure' }]);
    expect(results(parse(spotter, [445, 477, 520])).filter(failed)).toEqual([]);
  });

  it('2.1.39: TaskOutput reading a finished background command reports on the command that started it', () => {
    const ok = parse(spotter, [445, 477, 518, 522]);
    const read = results(ok).find((e) => e.line === 522);
    expect(read?.tool).toMatchObject({ id: 'toolu_015vWPk1LbLJMS7eW65VHeY3', exit_code: 0, is_error: false });
    expect(read?.tool?.input).toMatchObject({ command: expect.stringContaining('mix test') as unknown });
    expect(findErrors(ok, null)).toEqual([]);
    // changed: the status and exit code of the real read, as Claude Code writes them for a command that failed
    const bad = parse(spotter, [445, 477, 518, 522], (line, n) =>
      n === 522
        ? line.replace(
            '<status>completed</status>\\n\\n<exit_code>0</exit_code>',
            '<status>failed</status>\\n\\n<exit_code>1</exit_code>',
          )
        : line,
    );
    expect(results(bad).find((e) => e.line === 522)?.tool).toMatchObject({ exit_code: 1, is_error: true });
    expect(findErrors(bad, null)).toMatchObject([{ evidence_line: 522, error_type: 'test_failure' }]);
    // a read while the command still runs stays the read's own (line 490: status running)
    const running = parse(spotter, [445, 477, 487, 490]);
    expect(results(running).find((e) => e.line === 490)?.tool?.id).toBe('toolu_01UzVvupiB1fZ78NXnUiPWZE');
  });

  it('a declined call and a grep that found nothing are expected outcomes, not errors', () => {
    const declined = parse(spotter, [494]);
    expect(findErrors(declined, null)).toEqual([]);
    const noMatch = parse(codemieClaude, [122, 123]);
    expect(results(noMatch).filter(failed)).toEqual([]);
  });
});

describe('Stop-hook feedback written as text parts', () => {
  const userLine = (content: unknown, isMeta?: boolean) =>
    JSON.stringify({ type: 'user', ...(isMeta ? { isMeta } : {}), message: { role: 'user', content } });
  const errorsOf = (...jsonl: string[]) => findErrors(parseClaudeTranscript(jsonl.join('\n')).entries, null);

  it('a meta user line whose content is an array of text parts is read whole: its Stop-hook feedback is an error', () => {
    const feedback = [
      { type: 'text', text: 'Stop hook feedback:' },
      { type: 'text', text: 'The changelog was not updated for this change. Add an entry before stopping.' },
    ];
    const errors = errorsOf(userLine(feedback, true));
    expect(errors.map((e) => [e.error_type, e.error_message])).toEqual([
      [
        'hook_feedback',
        'Stop hook: The changelog was not updated for this change. Add an entry before stopping.',
      ],
    ]);
    // the same words without the meta flag are Claude Code's too
    expect(errorsOf(userLine(feedback))).toHaveLength(1);
  });

  it('feedback naming a command is fixed when that command succeeds later; other feedback stays open', () => {
    const hook = (text: string) =>
      JSON.stringify({
        type: 'user',
        isMeta: true,
        message: { role: 'user', content: [{ type: 'text', text }] },
      });
    const asks = hook(
      'Stop hook feedback:\nThe API schema changed. Run `npm run gen:client` before finishing.',
    );
    const ran = (command: string, out: string, err = false) =>
      claudeTool(`t-${command.length}-${String(err)}`, 'Bash', { command }, out, err);
    const fates = (...jsonl: string[]) =>
      findErrors(parseClaudeTranscript(jsonl.join('\n')).entries, null).map((e) => e.resolution);
    expect(fates(asks, ...ran('npm run gen:client', 'generated 14 files'))).toEqual(['fixed']);
    // near misses: the command failing, another command succeeding, feedback that names no command
    expect(
      fates(asks, ...ran('npm run gen:client', 'Exit code 1\nError: schema.json not found', true)),
    ).toEqual(['unresolved', 'unresolved']);
    expect(fates(asks, ...ran('npm run build', 'built'))).toEqual(['unresolved']);
    const vague = hook('Stop hook feedback:\nCheck that the docs still match the code.');
    expect(fates(vague, ...ran('npm run gen:client', 'generated 14 files'))).toEqual(['unresolved']);
  });

  it('near misses: other meta text parts (a skill loaded) and the user typing about the hook', () => {
    const skill = [{ type: 'text', text: 'Base directory for this skill: /home/dev/.claude/skills/release' }];
    expect(errorsOf(userLine(skill, true))).toEqual([]);
    const typed = [{ type: 'text', text: 'Why does the Stop hook feedback: keep firing?' }];
    expect(errorsOf(userLine(typed))).toEqual([]);
  });
});

describe('parallel calls cancelled because a sibling failed', () => {
  it('"Sibling tool call errored" is not an error of its own, nor a success; the sibling that failed is', () => {
    const sibling = (name: string, input: unknown): TranscriptEntry => ({
      ...toolResult(name, '<tool_use_error>Sibling tool call errored</tool_use_error>', true),
      tool: { id: `s-${name}`, name, input, is_error: true, exit_code: null },
    });
    const entries = [
      ...bash('./scripts/check-env.sh', 1, 'MISSING: STRIPE_KEY is not set'),
      sibling('Bash', { command: 'git log --oneline -3' }),
      sibling('Read', { file_path: '/srv/shop/.env.example' }),
    ];
    const errors = findErrors(entries, null);
    expect(errors.map((e) => e.error_message)).toEqual([
      '`./scripts/check-env.sh`: MISSING: STRIPE_KEY is not set',
    ]);
    // the cancelled call did not run: it is no workaround of the failure either
    expect(errors[0]?.resolution).toBe('unresolved');
    // near miss: a refusal in the same wrapper is the call's own error
    const refused = toolResult(
      'Edit',
      '<tool_use_error>File has not been read yet. Read it first.</tool_use_error>',
      true,
    );
    expect(findErrors([refused], null)).toHaveLength(1);
  });
});

describe('stream-json: the same Anthropic tool results', () => {
  it('a tool_result with is_error and tool_use_result "Error: Exit code 1" is a failed command', () => {
    const call = JSON.stringify(json(readCorpus(`${gleam}/assistant_message.json`)));
    const result = json(readCorpus(`${gleam}/user_message.json`)) as {
      message: { content: { content: string; is_error: boolean }[] };
      tool_use_result: unknown;
    };
    // changed: the real result (ls -la, success) as Claude Code writes a failing one
    const block = result.message.content[0] as { content: string; is_error: boolean };
    block.content = 'Exit code 1\nls: cannot access missing: No such file or directory';
    block.is_error = true;
    result.tool_use_result = `Error: ${block.content}`;
    const entries = parseTranscript(`${call}\n${JSON.stringify(result)}\n`).entries;
    expect(results(entries)[0]?.tool).toMatchObject({ is_error: true, exit_code: 1, name: 'Bash' });
  });
});

describe('Codex rollouts: a failed command or patch is read as a failure', () => {
  it('0.128: "Process exited with code 1" in function_call_output', () => {
    const entries = parse(codex128, [46, 47]);
    expect(results(entries)[0]?.tool).toMatchObject({ exit_code: 1, is_error: true });
    expect(findErrors(entries, null)).toMatchObject([{ evidence_line: 47, error_type: 'command_failed' }]);
  });

  it('0.125: exec_command_end exit_code 2 / status failed finishes a command whose output came first', () => {
    const entries = parse(codex125, [131, 135, 143]);
    const result = results(entries).find((e) => e.line === 135);
    expect(result?.tool).toMatchObject({ exit_code: 2, is_error: true });
    expect(failed(result as TranscriptEntry)).toBe(true);
  });

  it('0.77: the JSON envelope {"output", "metadata": {"exit_code"}} of the shell tool', () => {
    const ok = parse(codex077, [10, 12]);
    expect(results(ok)[0]?.tool).toMatchObject({ exit_code: 0, is_error: false });
    // changed: exit_code 0 -> 1 in the metadata
    const bad = parse(codex077, [10, 12], (line, n) =>
      n === 12 ? line.replace('\\"exit_code\\":0', '\\"exit_code\\":1') : line,
    );
    expect(results(bad)[0]?.tool).toMatchObject({ exit_code: 1, is_error: true });
  });

  it('the shell tool\'s freeform output "Exit code: N\\nWall time: ...\\nOutput:"', () => {
    // changed: the 0.77 output replaced by the freeform form of the same tool (format_exec_output_for_model_freeform)
    const entries = parse(codex077, [10, 12], (line, n) => {
      if (n !== 12) return line;
      const l = json(line) as { payload: { output: string } };
      l.payload.output =
        'Exit code: 2\nWall time: 0.1 seconds\nOutput:\nls: docs/missing: No such file or directory\n';
      return JSON.stringify(l);
    });
    const [result] = results(entries);
    expect(result?.tool).toMatchObject({ exit_code: 2, is_error: true });
    expect(result?.text).toBe('ls: docs/missing: No such file or directory\n');
  });

  it('0.144 code mode: a cell that ended "Script failed" failed, its cause the script error', () => {
    // changed: the real "Script completed" cell output as Codex writes a cell whose script threw
    const entries = parse(codex144, [13, 14], (line, n) => {
      if (n !== 14) return line;
      const l = json(line) as { payload: { output: { type: string; text: string }[] } };
      l.payload.output = [
        { type: 'input_text', text: 'Script failed\nWall time 0.1 seconds\nOutput:\n' },
        { type: 'input_text', text: 'Script error:\nTypeError: tools.exec_command is not a function' },
      ];
      return JSON.stringify(l);
    });
    const [result] = results(entries);
    expect(result?.tool?.is_error).toBe(true);
    const [error] = findErrors(entries, null);
    expect(error?.evidence_line).toBe(14);
    expect(error?.error_message).toContain('TypeError: tools.exec_command is not a function');
  });

  it('patch_apply_end success=false fails the apply_patch call, before or after its output', () => {
    // changed: the event's success true -> false, and the output to the plain text Codex returns for a patch that
    // did not apply
    const fail = (line: string, n: number) => {
      if (n === 259) return line.replace('"success":true', '"success":false');
      if (n !== 260) return line;
      const l = json(line) as { payload: { output: string } };
      l.payload.output = 'apply_patch verification failed: Failed to find expected lines in src/a.test.ts';
      return JSON.stringify(l);
    };
    const before = parse(codex125, [257, 259, 260], fail);
    expect(results(before)[0]?.tool?.is_error).toBe(true);
    // the event after the output (the order varies between versions)
    const all = lines(codex125, 257, 259, 260).map((l, i) => fail(l, [257, 259, 260][i] as number));
    const after = parseTranscript([all[0], all[2], all[1]].join('\n')).entries;
    expect(results(after)[0]?.tool?.is_error).toBe(true);
    expect(findErrors(after, null)).toHaveLength(1);
    // the real, successful patch is no failure
    expect(results(parse(codex125, [257, 259, 260])).filter(failed)).toEqual([]);
  });

  it('a failure is fixed when the same command succeeds later in the turn; the very next call, at once (0.128: ps denied, then allowed)', () => {
    const entries = parseTranscript(readCorpus(codex128)).entries;
    expect(findErrors(entries, null).find((e) => e.evidence_line === 47)).toMatchObject({
      resolution: 'fixed',
      resolution_notes: 'the same call succeeded right after it (transcript line 50)',
    });
  });

  it('a failed patch is fixed by a later patch of the same file, not by a patch of another file', () => {
    const fail = (line: string, n: number) =>
      n === 259 ? line.replace('"success":true', '"success":false') : line;
    // the same real patch applied again (its call id changed), and once more with its file renamed
    const again = (line: string, n: number) =>
      n === 257 || n === 260 ? line.replace('call_0gOiGGSkJEBvvlrXtBn0xzwL', 'call_again') : line;
    const base = lines(codex125, 257, 259, 260).map((l, i) => fail(l, [257, 259, 260][i] as number));
    const retry = lines(codex125, 257, 260).map((l, i) => again(l, [257, 260][i] as number));
    const fixed = findErrors(parseTranscript([...base, ...retry].join('\n')).entries, null);
    expect(fixed).toMatchObject([{ evidence_line: 3, resolution: 'fixed' }]);
    const other = retry.map((l) => l.replace(/codemie-code-reasoning\.test\.ts/g, 'other.test.ts'));
    const notFixed = findErrors(parseTranscript([...base, ...other].join('\n')).entries, null);
    expect(notFixed[0]?.resolution).not.toBe('fixed');
  });

  it('mcp_tool_call_end with an Err result fails the MCP call', () => {
    // no rollout of the corpus calls an MCP tool: the real exec call, output and end event (lines 131, 135, 143)
    // turned into an MCP call whose end event carries Codex's Result (`{"Err": ...}`); the output is the text Codex
    // writes for it ("err: ...")
    const entries = parse(codex125, [131, 135, 143], (line, n) => {
      const l = json(line) as { payload: Record<string, unknown> };
      if (n === 131) l.payload.name = 'docs__search';
      if (n === 135) l.payload.output = 'err: "tool call failed: connection closed"';
      if (n === 143)
        l.payload = {
          type: 'mcp_tool_call_end',
          call_id: l.payload.call_id,
          result: { Err: 'connection closed' },
        };
      return JSON.stringify(l);
    });
    expect(results(entries)[0]?.tool).toMatchObject({
      name: 'docs__search',
      is_error: true,
      exit_code: null,
    });
    expect(findErrors(entries, null)).toMatchObject([{ evidence_line: 135, error_type: 'tool_error' }]);
  });
});
