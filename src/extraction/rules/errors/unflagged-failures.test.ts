import { describe, expect, it } from 'vitest';
import { parseCorpusLines as parse } from '../../../../test/helpers/corpus-lines.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { findErrors } from './error-rules.js';
import {
  expectedOutcome,
  failed,
  gitRefused,
  httpRefused,
  pythonCrashed,
  unflaggedFailure,
} from './failure.js';
import { resolveKnown } from './resolve-known.js';
import { statusAnswers as isNoMatch } from './exit-status.js';

/**
 * Failures no flag or exit code marks, and their fate, read from real lines of the copied corpus (the files of the
 * former untuned split, opened for study on 2026-11-25): Codex collaboration tools refusing a call, code-mode cells
 * that printed only a failing command's output, a sub-agent that stopped before its result; and what is not a
 * failure: the agent stopping its own command with Ctrl-C, grep finding nothing inside `bash -c`.
 */
const results = (entries: TranscriptEntry[]) => entries.filter((e) => e.kind === 'tool_result');
const brief = (entries: TranscriptEntry[]) =>
  findErrors(entries, null).map((e) => ({
    line: e.evidence_line,
    type: e.error_type,
    resolution: e.resolution,
    notes: e.resolution_notes,
  }));

const lineage = 'codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl';
const hk = 'codex/hk/e5/cb0813e003/0/full.jsonl';
const telemetry = 'claude-code/entire-cli/9f/d2fc39aa5f/0/full.jsonl';
const spotter = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';
const mcp2 = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';
const cliSpec = 'claude-code/codemie-code-2/turn-2.jsonl';
const idaHcli = 'claude-code/HexRaysSA-ida-hcli/0/full.jsonl';
const zedRecovery = 'claude-code/DiscourseGraphs-discourse-graph/0/full.jsonl';

describe('Codex collaboration tools: a plain-text answer is a refusal, JSON or nothing is a result', () => {
  it('spawn_agent, wait_agent and followup_task refusals are errors, fixed when the same tool succeeds later, worked around when another hands the work on', () => {
    // 216-217: a wait between the refused follow-up and the one that worked: that one was not retried at once
    const entries = parse(
      lineage,
      [43, 44, 47, 49, 113, 114, 117, 118, 208, 209, 212, 213, 216, 217, 241, 243],
    );
    const byLine = new Map(results(entries).map((e) => [e.line, e]));
    // '{"task_name":"/root/correctness_adversarial"}', '{"message":"Wait timed out.",...}' and '' are results
    for (const line of [49, 118, 243]) expect(failed(byLine.get(line) as TranscriptEntry)).toBe(false);
    expect(byLine.get(209)?.tool).toMatchObject({ name: 'spawn_agent', is_error: true });
    expect(brief(entries)).toEqual([
      // retried at once with the argument the refusal asked for: a slip fixed at once
      {
        line: 44,
        type: 'tool_error',
        resolution: 'fixed',
        notes: 'the same call succeeded right after it (transcript line 49)',
      },
      {
        line: 114,
        type: 'tool_error',
        resolution: 'fixed',
        notes: 'the same call succeeded right after it (transcript line 118)',
      },
      // the spawn refused at the thread limit is never retried: a follow-up to a running reviewer did its job
      {
        line: 209,
        type: 'tool_error',
        resolution: 'workaround',
        notes: 'the followup_task tool succeeded (transcript line 243)',
      },
      { line: 213, type: 'tool_error', resolution: 'fixed', notes: 'succeeded later (transcript line 243)' },
    ]);
    expect(findErrors(entries, null)[2]?.error_message).toBe(
      'spawn_agent: collab spawn failed: agent thread limit reached',
    );
  });
});

describe('Codex code-mode cells without an exit code: the failing program says so itself', () => {
  it("the shell's own diagnostic (zsh:2: command not found, sh: pkl: command not found) and a network failure", () => {
    const entries = parse(hk, [171, 172, 175, 176, 230, 231, 234, 235, 238, 239]);
    expect(results(entries).every((e) => e.tool?.exit_code === null)).toBe(true);
    const errors = findErrors(entries, null);
    expect(errors.map((e) => [e.evidence_line, e.error_type])).toEqual([
      [176, 'command_failed'],
      [231, 'command_failed'],
      [239, 'command_failed'],
    ]);
    expect(errors.map((e) => e.error_message.split('`: ')[1])).toEqual([
      'Post "https://api.github.com/graphql": net/http: TLS handshake timeout',
      'zsh:2: command not found: hk',
      'sh: pkl: command not found',
    ]);
    // a command of several lines is named on one line (the message is one item of a list)
    expect(errors[1]?.error_message).toMatch(
      /^`git status --short --branch; hk fix -S pkl-format; git diff --check; /,
    );
    // "hk no files to run" (line 235) is an answer, not a failure
    expect(failed(results(entries).find((e) => e.line === 235) as TranscriptEntry)).toBe(false);
  });

  it("a task runner's closing verdict ([lint] ERROR task failed); the cause is the diagnostic before it, once", () => {
    // line 251 is the cell's end (a `wait`); line 258 shows the same compiler error again before it was fixed
    const entries = parse(hk, [246, 247, 250, 251, 257, 258]);
    expect(failed(results(entries).find((e) => e.line === 258) as TranscriptEntry)).toBe(true);
    const errors = findErrors(entries, null);
    expect(errors.map((e) => e.evidence_line)).toEqual([251]);
    expect(errors[0]?.error_message).toContain(
      ': error: trailing semicolon in macro used in expression position',
    );
  });

  it("other runners' verdicts and a Python traceback, as those programs print them as they exit", () => {
    // no corpus cell without an exit code ends this way: the lines are the programs' own wording
    const ends = [
      'make: *** [Makefile:12: build] Error 2',
      'npm error Lifecycle script `build` failed with error:',
      ' ELIFECYCLE  Command failed with exit code 1.',
      'error Command failed with exit code 1.',
      'error: Recipe `test` failed on line 4 with exit code 101',
    ];
    for (const end of ends) expect(unflaggedFailure(`building...\n${end}\n`)).toBe(true);
    const traceback =
      'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    main()\nKeyError: \'pr\'';
    expect(unflaggedFailure(`fetching checks\n${traceback}\n`)).toBe(true);
    // a verdict in the middle of a run that went on (a retry loop, a log) is not the end
    expect(unflaggedFailure('make: *** [a] Error 1\nretrying\nbuilt 3 targets\nok\ndone\n')).toBe(false);
    expect(unflaggedFailure('0 errors, 0 failures\nall checks passed\n')).toBe(false);
  });

  it("git refusing a change ends the output with fatal:, a look's fatal: is its answer", () => {
    const lock = "fatal: Unable to create '/w/.git/index.lock': Permission denied";
    const output = `diff --git a/t.md b/t.md\n+Hello\n${lock}\n${lock}\n`;
    expect(gitRefused(['git diff -- t.md; git add -- t.md; git commit -m "Greet"'], output)).toBe(true);
    expect(gitRefused(['git -C app push origin main'], 'fatal: could not read Username\n')).toBe(true);
    expect(gitRefused(['git show v1.0:README.md'], "fatal: invalid object name 'v1.0'.\n")).toBe(false);
    expect(gitRefused(['git symbolic-ref HEAD'], 'fatal: ref HEAD is not a symbolic ref\n')).toBe(false);
    expect(
      gitRefused(['git commit -m x'], 'fatal: bad config\n[main 1a2b3c4] x\n 1 file changed\ndone\n'),
    ).toBe(false);
  });

  it('a look at a file prints what the file holds: the same output from `cat` is not a failure', () => {
    // line 230 changed only in its command: `cat shell.log` instead of the commands that printed line 231
    const edit = (line: string, n: number) =>
      n === 230 ? line.replace(/cmd:\\"[^"]*?\\",\\"workdir/, 'cmd:\\"cat shell.log\\",\\"workdir') : line;
    const entries = parse(hk, [230, 231], edit);
    expect(JSON.stringify(results(entries)[0]?.tool?.input)).toContain('cat shell.log');
    expect(findErrors(entries, null)).toEqual([]);
  });

  it('a poll that sends Ctrl-C to the command it watches stops it: exit 1, not an error', () => {
    const entries = parse(hk, [342, 343]);
    const [result] = results(entries);
    expect(result?.tool).toMatchObject({ exit_code: 1, interrupted: true });
    expect(expectedOutcome(result as TranscriptEntry)).toBe('stopped by the agent');
    expect(findErrors(entries, null)).toEqual([]);
  });
});

describe('a sub-agent that stopped before its result', () => {
  it('a Task result that only announces the next step is an error; the caller going on is a workaround', () => {
    const entries = parse(cliSpec, [6, 7, 10, 11]);
    expect(brief(entries)).toEqual([
      {
        line: 7,
        type: 'subagent_incomplete',
        resolution: 'workaround',
        notes: 'the agent went on without it (transcript line 11)',
      },
    ]);
    expect(findErrors(entries, null)[0]?.error_message).toContain(
      'Let me create a detailed technical specification',
    );
  });

  it("a sub-agent's full report and a background agent's launch notice are results", () => {
    expect(findErrors(parse(spotter, [1473, 1480]), null)).toEqual([]);
    expect(findErrors(parse(mcp2, [177, 179]), null)).toEqual([]);
  });
});

describe('one error per failure, and its fate', () => {
  it('grep finding nothing inside bash -c (Claude Code: "Exit code 1" and no output) is an answer', () => {
    expect(findErrors(parse(telemetry, [71, 72]), null)).toEqual([]);
  });

  it('exit status 1 answers a question (no match, false, files differ) unless the output says otherwise', () => {
    // the convention of grep, test, diff, cmp, which: 1 is "no", 2 or more is trouble
    expect(isNoMatch('npm test 2>&1 | grep -c FAIL', 1, '0')).toBe(true);
    expect(isNoMatch('test -f dist/index.js && echo built', 1, 'Exit code 1')).toBe(true);
    expect(isNoMatch('diff -u a.txt b.txt', 1, '--- a.txt\n+++ b.txt\n@@ -1 +1 @@\n-a\n+b')).toBe(true);
    expect(isNoMatch('which pkl', 1, 'pkl not found')).toBe(true);
    // the status is the last part's: a build failing after a test that held is a failure
    expect(isNoMatch('test -d node_modules && npm run build', 1, 'error TS2304: Cannot find name')).toBe(
      false,
    );
    expect(isNoMatch('grep -r foo src', 1, 'grep: src: Permission denied')).toBe(false);
    expect(isNoMatch('grep -r foo src', 2, '')).toBe(false);
  });

  it('the same shell error again after the program succeeded in between is a new error', () => {
    // X=$(go env GOMODCACHE) && grep ...: the program is grep; grep succeeded at line 53
    expect(brief(parse(telemetry, [46, 47, 52, 53, 69, 70])).map((e) => e.line)).toEqual([47, 70]);
  });

  it('a retry failing the same way is one error, named by the compiler line, not the runner verdict', () => {
    const errors = findErrors(parse(telemetry, [85, 86, 89, 90]), null);
    expect(errors.map((e) => e.evidence_line)).toEqual([86]);
    expect(errors[0]?.error_message).toContain('cannot use silentLogger{}');
    expect(errors[0]?.error_message).not.toContain('ERROR task failed');
  });

  it('the failed step run again with other flags is fixed: git push, then git push --set-upstream', () => {
    expect(brief(parse(spotter, [608, 615, 616, 624]))).toEqual([
      {
        line: 615,
        type: 'command_failed',
        resolution: 'fixed',
        // the very next call: a slip fixed at once, which the briefing leaves out
        notes:
          'a corrected call succeeded right after it (transcript line 624): `git push --set-upstream origin spotter-gqc 2>&1`',
      },
    ]);
    // `mise run fmt && mise run lint` stopped at lint; `mise run lint` passes later
    expect(brief(parse(telemetry, [25, 26, 29, 30]))[0]).toMatchObject({ resolution: 'fixed' });
  });

  it('a fix in a later turn is a fix: hk panicking on a missing generated file runs after the user asked more', () => {
    // line 98 is the user's next request; `cargo run --bin hk` runs clean at line 142 (after mise run pkl:gen)
    expect(brief(parse(hk, [39, 40, 43, 44, 98, 141, 142]))).toEqual([
      {
        line: 44,
        type: 'file_not_found',
        resolution: 'fixed',
        notes: 'the same step succeeded later (transcript line 142)',
      },
    ]);
  });

  it('an error left open by an earlier import is fixed when the next import runs its step again', () => {
    const [open] = findErrors(parse(spotter, [608, 615]), null);
    expect(open?.resolution).toBe('unresolved');
    const later = parse(spotter, [616, 624]);
    expect(
      resolveKnown(
        [{ id: 'e1', error_type: 'command_failed', error_message: open?.error_message ?? '' }],
        later,
      ),
    ).toEqual([
      { error_id: 'e1', resolution: 'fixed', notes: 'succeeded later (transcript line 624)', line: 624 },
    ]);
  });

  it('another subcommand is not the same step: gh pr merge failing, gh pr close succeeding', () => {
    expect(brief(parse(mcp2, [925, 927, 933, 936]))[0]?.resolution).not.toBe('fixed');
  });
});

describe('a tool that answers its own failure in plain text, unflagged', () => {
  it("Claude Code's LSP tool without its language server: one error, the same cause twice, worked around", () => {
    const entries = parse(idaHcli, [46, 47, 48, 49, 50, 51, 52, 53]);
    const lsp = results(entries).filter((e) => e.tool?.name === 'LSP');
    expect(lsp.map((e) => [e.line, e.tool?.is_error])).toEqual([
      [47, null],
      [49, null],
    ]);
    for (const e of lsp) expect(failed(e)).toBe(true);
    const [error, ...more] = brief(entries);
    expect(more).toEqual([]);
    // finding code another way (a grep) gets past it: the LSP tool is a search
    expect(error).toMatchObject({ line: 47, resolution: 'workaround' });
    expect(error?.notes).toMatch(/^the Bash tool succeeded \(transcript line 53\)/);
  });

  it('not what a sub-agent, a web page or an MCP server says, nor a result that only mentions an error later', () => {
    const answer = (name: string, text: string) =>
      ({
        line: 1,
        at: null,
        role: 'tool',
        kind: 'tool_result',
        text,
        tool: { id: 't', name, input: {}, is_error: null, exit_code: null },
      }) as TranscriptEntry;
    expect(failed(answer('LSP', 'Error performing findReferences: Language server exited'))).toBe(true);
    expect(failed(answer('mcp__db__query', 'Error: relation "users" does not exist'))).toBe(false);
    expect(failed(answer('Task', 'Error: the config is missing, so I stopped.'))).toBe(false);
    expect(failed(answer('WebFetch', 'Error: 404 Not Found'))).toBe(false);
    expect(failed(answer('LSP', 'Found 3 references; no Error: lines'))).toBe(false);
  });
});

describe('a Python program that died, whatever status the command line ends with', () => {
  it('`python3 carve.py ... | tail -20; echo ...; python3 carve.py ... | wc -l` exits 0: the crash is the error', () => {
    const entries = parse(zedRecovery, [100, 101]);
    const [result] = results(entries);
    expect(result?.tool).toMatchObject({ is_error: false });
    expect(brief(entries)).toMatchObject([{ line: 101, type: 'exception', resolution: 'unresolved' }]);
    expect(findErrors(entries, null)[0]?.error_message).toContain(
      "ValueError: invalid literal for int() with base 10: 'postquit/db.sqlite'",
    );
  });

  it('only an exception raised to the module: not one a program logged and went on from', () => {
    const crash =
      'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    main()\n  File "a.py", line 2, in main\n    int("x")\nValueError: invalid literal\n=== total ===\n9';
    expect(pythonCrashed(crash)).toBe(true);
    const logged =
      'ERROR retrying\nTraceback (most recent call last):\n  File "/app/worker.py", line 40, in run\n    fetch()\nTimeoutError: read timed out\nINFO retry 2 ok';
    expect(pythonCrashed(logged)).toBe(false);
    expect(pythonCrashed('Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n')).toBe(
      false,
    );
  });
});

describe('a web API refusing in the JSON body an HTTP client printed, exiting 0', () => {
  const ohMyPosh = 'claude-code/JanDeDobbeleer-oh-my-posh/09/11216ed051/0/full.jsonl';

  it("curl -s of GitHub's search API without a token: the 401 is a failure, worked around by a page fetched later", () => {
    const errors = findErrors(parse(ohMyPosh, [44, 45, 46, 47, 48]), null);
    expect(errors.map((e) => [e.evidence_line, e.error_type, e.resolution])).toEqual([
      [45, 'command_failed', 'workaround'],
    ]);
    expect(errors[0]?.error_message).toContain('Requires authentication');
  });

  it('a status of 400 or more, an error said, GraphQL errors without data; not a 404, nor a body that only holds data', () => {
    const curl = ['curl -s https://api.example.com/v1/items'];
    expect(httpRefused(curl, '{"message": "Bad credentials", "status": "401"}')).toBe(true);
    expect(httpRefused(curl, '{"statusCode": 503, "message": "unavailable"}')).toBe(true);
    expect(httpRefused(curl, '{"error": "invalid_token"}')).toBe(true);
    expect(httpRefused(curl, '{"errors": [{"message": "Field x missing"}], "data": null}')).toBe(true);
    expect(httpRefused(curl, '{"message": "Not Found", "status": "404"}')).toBe(false);
    expect(httpRefused(curl, '{"status": "ok", "items": [], "error": null}')).toBe(false);
    expect(httpRefused(curl, '{"errors": [{"message": "partial"}], "data": {"x": 1}}')).toBe(false);
    // what a file or another program prints is not a server's answer
    expect(httpRefused(['cat response.json'], '{"error": "invalid_token"}')).toBe(false);
    expect(httpRefused(curl, 'error: not JSON')).toBe(false);
  });
});
