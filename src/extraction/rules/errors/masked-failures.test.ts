import { describe, expect, it } from 'vitest';
import { parseCorpusLines } from '../../../../test/helpers/corpus-lines.js';
import { bash, cell, say, toolResult } from '../../../../test/helpers/tool-results.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { findErrors } from './error-rules.js';
import { failed, refusalType } from './failure.js';

/**
 * Failures the exit status does not show: a filter ending the pipeline (`| tail`, `| head`, `| grep`) exits 0
 * whatever ran before it, and a Codex code-mode cell records no exit code. The runner's own summary (as the test
 * runs read it) or a compiler's diagnostic says the run failed. Outputs as vitest, tsc, cargo, pytest, go, eslint
 * and pnpm print them.
 */
const last = (entries: TranscriptEntry[]) => entries.at(-1) as TranscriptEntry;
const types = (entries: TranscriptEntry[]) => findErrors(entries, null).map((e) => e.error_type);

const vitestRed = [
  ' ❯ src/parser.test.ts (21 tests | 1 failed) 12ms',
  '   × parser > reads nested arrays 5ms',
  '',
  ' FAIL  src/parser.test.ts > parser > reads nested arrays',
  'AssertionError: expected [ 1, [ 2 ] ] to deeply equal [ 1, 2 ]',
  '',
  ' Test Files  1 failed (1)',
  '      Tests  1 failed | 20 passed (21)',
  '   Duration  412ms',
].join('\n');
const cargoRed = [
  'error[E0308]: mismatched types',
  ' --> src/main.rs:4:18',
  '  |',
  '4 |     let x: i32 = "five";',
  '  |            ---   ^^^^^^ expected `i32`, found `&str`',
  '',
  'For more information about this error, try `rustc --explain E0308`.',
  'error: could not compile `demo` (bin "demo") due to 1 previous error',
].join('\n');

describe('a filter ending the pipeline hides the exit status: the run reports its own failure', () => {
  it('a failing test run, a type error and a Rust build piped into tail or head are errors (exit code 0)', () => {
    const test = bash('npm test 2>&1 | tail -20', 0, vitestRed);
    const tsc = bash(
      'npx tsc --noEmit 2>&1 | head -30',
      0,
      "src/config.ts(42,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    const cargo = bash('cargo build 2>&1 | tail -15', 0, cargoRed);
    for (const run of [test, tsc, cargo]) expect(failed(last(run))).toBe(true);
    expect(types([...test, ...tsc, ...cargo])).toEqual(['test_failure', 'command_failed', 'command_failed']);
    expect(findErrors(test, null)[0]?.error_message).toContain('src/parser.test.ts');
    // gates run one after another, each piped into tail: the last one's build tool verdict ends the output
    const gates = bash(
      'make lint 2>&1 | tail -3; echo; make types 2>&1 | tail -3',
      0,
      'All checks passed!\n\napp/a.py:3: error: Incompatible types in assignment\nFound 1 error in 1 file (checked 4 source files)\nmake: *** [types] Error 1',
    );
    expect(failed(last(gates))).toBe(true);
    expect(findErrors(gates, null)[0]?.error_message).toContain(
      ': app/a.py:3: error: Incompatible types in assignment',
    );
    // a run failed by its coverage threshold alone says so
    const coverage = bash(
      'make test 2>&1 | tail -4',
      0,
      'TOTAL  562  100  76%\nFAIL Required test coverage of 85.0% not reached. Total coverage: 75.65%\n11 passed in 0.22s\nmake: *** [test] Error 1',
    );
    expect(findErrors(coverage, null)[0]?.error_message).toContain(
      ': FAIL Required test coverage of 85.0% not reached. Total coverage: 75.65%',
    );
    // grep keeps only the lines it matched: the diagnostic is there
    expect(
      failed(last(bash('npm run build 2>&1 | grep -i error', 0, 'src/a.ts:3:5 - error TS2304: x'))),
    ).toBe(true);
  });

  it('not: a passing run, a pipefail line (its 0 is true), a file that holds errors, a red run announced', () => {
    expect(failed(last(bash('npm test 2>&1 | tail -5', 0, '      Tests  21 passed (21)')))).toBe(false);
    expect(failed(last(bash('npm run build 2>&1 | tail -3', 0, '✓ built in 1.21s')))).toBe(false);
    expect(failed(last(bash('set -o pipefail; cargo build 2>&1 | tail', 0, 'Finished `dev` profile')))).toBe(
      false,
    );
    // a look at a log or at the sources prints what they hold
    expect(failed(last(bash('cat build.log | tail -20', 0, 'src/a.ts(3,5): error TS2322: x')))).toBe(false);
    expect(failed(last(bash('grep -rn "error TS" docs | head', 0, 'docs/faq.md:3:error TS2322: ...')))).toBe(
      false,
    );
    // an earlier part of a list is not the line's outcome
    const list = bash('pip install x 2>&1 | head -3; pip index versions x | head -2', 0, 'error: externally');
    expect(failed(last(list))).toBe(false);
    // a build tool's verdict from an earlier part, a later part ending the output cleanly, is not the line's outcome
    const earlier = bash(
      'make lint 2>&1 | tail -3; make docs 2>&1 | tail -3',
      0,
      'Found 3 errors.\nmake: *** [lint] Error 1\nsphinx-build -b html docs build\nbuild succeeded.\nwrote build/index.html',
    );
    expect(failed(last(earlier))).toBe(false);
    // the red step of test-first work stays an expected failure
    const red = [
      say('Now run the test to confirm it fails.'),
      ...bash('npx vitest run 2>&1 | tail -20', 0, vitestRed),
    ];
    expect(findErrors(red, null)).toEqual([]);
  });

  it('a red run announced before the agent writes the test: the edit of the test keeps the announcement', () => {
    const edit = (path: string): TranscriptEntry => ({
      ...toolResult('Edit', `The file ${path} has been updated successfully.`, false),
      tool: { id: `e-${path}`, name: 'Edit', input: { file_path: path }, is_error: false, exit_code: null },
    });
    const announce = say('Writing the regression test first; it should fail until slugify keeps the dashes.');
    const run = () => bash('npx vitest run src/slug.test.ts', 1, vitestRed);
    expect(findErrors([announce, edit('/app/src/slug.test.ts'), ...run()], null)).toEqual([]);
    expect(findErrors([announce, edit('/app/tests/test_slug.py'), ...run()], null)).toEqual([]);
    // near misses: an edit of the code under test in between (the fix), or another command run in between
    expect(findErrors([announce, edit('/app/src/slug.ts'), ...run()], null)).toHaveLength(1);
    expect(findErrors([announce, ...bash('npm run build', 0, 'built'), ...run()], null)).toHaveLength(1);
  });
});

describe('no exit code (Codex code-mode cells): the runner or compiler says the command failed', () => {
  it('pytest, go test, go build, eslint and pnpm reports of failure are errors', () => {
    const pytest = cell(
      ['pytest -q'],
      'F...\nFAILED tests/test_calc.py::test_div - ZeroDivisionError: division by zero\n1 failed, 3 passed in 0.12s',
    );
    const goTest = cell(
      ['go test ./...'],
      '--- FAIL: TestAdd (0.00s)\n    add_test.go:9: Add(2, 2) = 5, want 4\nFAIL\nFAIL\texample.com/app\t0.003s\nFAIL',
    );
    const goBuild = cell(['go build ./...'], '# example.com/app\n./main.go:12:2: undefined: foo');
    const eslint = cell(
      ['npx eslint src'],
      "/app/src/index.js\n  3:7  error  'x' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
    );
    const pnpm = cell(
      ['pnpm add left-pad@9.9.9'],
      ' ERR_PNPM_NO_MATCHING_VERSION  No matching version found for left-pad@9.9.9\n\nThis error happened while installing a direct dependency of /app',
    );
    for (const e of [pytest, goTest, goBuild, eslint, pnpm]) expect(failed(e)).toBe(true);
    expect(types([pytest, goTest])).toEqual(['test_failure', 'test_failure']);
  });

  it('not: passing runs, warnings only, a unittest run that logged a traceback and ended OK', () => {
    expect(failed(cell(['pytest -q'], '....\n4 passed in 0.10s'))).toBe(false);
    expect(failed(cell(['go test ./...'], 'ok  \texample.com/app\t0.004s'))).toBe(false);
    expect(failed(cell(['npx eslint src'], '✖ 2 problems (0 errors, 2 warnings)'))).toBe(false);
    const logged = [
      'ERROR:root:retrying fetch',
      'Traceback (most recent call last):',
      '  File "/app/client.py", line 12, in fetch',
      '    raise ConnectionError("refused")',
      'ConnectionError: refused',
      '.....',
      '----------------------------------------------------------------------',
      'Ran 12 tests in 0.031s',
      '',
      'OK',
    ].join('\n');
    expect(failed(cell(['python -m unittest'], logged))).toBe(false);
    // a script whose traceback ends its output did fail
    const crash =
      'Traceback (most recent call last):\n  File "/app/run.py", line 3, in <module>\nKeyError: \'PORT\'';
    expect(failed(cell(['python run.py'], crash))).toBe(true);
  });

  it('a poll of a command still running is judged by its final result, not by what it logged so far', () => {
    const poll = cell(['npm test'], 'connect ECONNREFUSED 127.0.0.1:5432 (retrying)', { running: true });
    expect(failed(poll)).toBe(false);
  });

  it('log readers print what the logs hold: docker logs, kubectl logs, journalctl are not failures', () => {
    const traceback =
      'Traceback (most recent call last):\n  File "/app/main.py", line 9\nValueError: bad port';
    expect(failed(cell(['docker logs api --tail 50'], traceback))).toBe(false);
    expect(failed(cell(['kubectl logs deploy/api'], 'Error: connect ECONNREFUSED 10.0.0.3:5432'))).toBe(
      false,
    );
    expect(
      failed(cell(['journalctl -u nginx -n 20'], 'nginx: [emerg] bind() failed (98: Address in use)')),
    ).toBe(false);
  });
});

describe("a tool's answer that quotes an error is not the tool failing", () => {
  it('a sub-agent quoting a stack trace, an MCP result, a search match; a flagged result or a refusal still fails', () => {
    const task = toolResult(
      'Task',
      'The crash comes from TypeError: Cannot read properties of undefined\n    at parseConfig (src/config.ts:42:17)',
      false,
    );
    const mcp = toolResult(
      'mcp__db__query',
      'Error: ECONNRESET\n    at TLSSocket.onend (node:net:1:1)',
      null,
    );
    const grep = toolResult('Grep', 'src/fs.ts:12: throw new Error("permission denied")', false);
    for (const e of [task, mcp, grep]) expect(failed(e)).toBe(false);
    expect(failed(toolResult('mcp__db__query', 'Error: ECONNRESET', true))).toBe(true);
    expect(
      failed(toolResult('js', 'Browser Use rejected this action due to browser security policy.', null)),
    ).toBe(true);
  });
});

describe('Codex: a poll that finds the command still running is marked so', () => {
  it('0.125: "Process running with session ID" output is running; the exec_command_end after it gives the code', () => {
    const file = 'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    const [poll] = parseCorpusLines(file, [9, 11]).filter((e) => e.kind === 'tool_result');
    expect(poll?.tool).toMatchObject({ exit_code: null, running: true });
    const [ended] = parseCorpusLines(file, [9, 11, 12]).filter((e) => e.kind === 'tool_result');
    expect(ended?.tool?.exit_code).toBe(0);
  });
});

describe('a sub-agent that stopped before its result: a short answer announcing work, with no result in it', () => {
  it('announcing the next step is stopping short; a conclusion, a result or a list announced is an answer', () => {
    const stopped = [
      'I have read the handlers. Let me create the migration plan now.',
      'Now I understand the router. I will write the integration tests next.',
    ];
    for (const answer of stopped) expect(failed(toolResult('Task', answer, false))).toBe(true);
    const answers = [
      "The refactor is done and all 42 tests pass. I'll leave the deprecated wrapper in place for now.",
      "No usages exist. I'll need the other repo to check further.",
      'Found 3 call sites of parseConfig. I will summarize them below:\n- src/a.ts:12\n- src/b.ts:40',
      'The bug is in src/config/load.ts, where the default port is read as a string. Let me know if you want a fix.',
      'Updated `retry()` to back off exponentially. Let me run the tests if you want.',
    ];
    for (const answer of answers) expect(failed(toolResult('Task', answer, false))).toBe(false);
  });

  it('any verb of work announced counts, not only a listed one; a verb that concludes does not', () => {
    const stopped = [
      "I'll begin with the fixtures folder. Let me list what it holds.",
      'The cache layer is spread over several modules. Next I will scan them for stale keys.',
      "I'm going to trace the request through the middleware.",
    ];
    for (const answer of stopped) expect(failed(toolResult('Agent', answer, false))).toBe(true);
    const conclusions = [
      'The config loader has no callers left. I will also note that nothing imports it.',
      "Nothing in the queue code touches retries. I'll stop here.",
      'Both endpoints already validate input. Let me know whether to look at the workers too.',
    ];
    for (const answer of conclusions) expect(failed(toolResult('Agent', answer, false))).toBe(false);
  });
});

describe("other shells' diagnostics and other build tools' verdicts (no exit code recorded)", () => {
  it('dash, fish and PowerShell saying a command is missing; Gradle, Maven and turbo closing a failed build', () => {
    const outputs = [
      'sh: 1: pkl: not found',
      'fish: Unknown command: pkl',
      "pkl : The term 'pkl' is not recognized as the name of a cmdlet, function, script file, or operable program.",
      "pkl: \nLine |\n   1 |  pkl eval app.pkl\n     | The term 'pkl' is not recognized as a name of a cmdlet, function, script file, or executable program.",
      '> Task :app:compileJava FAILED\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 3s',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile\n[ERROR] BUILD FAILURE',
      ' Tasks:    1 successful, 2 total\nFailed:    web#build\n ERROR  run failed: command  exited (1)',
    ];
    for (const output of outputs) expect(failed(cell(['./build'], output))).toBe(true);
    expect(failed(cell(['./gradlew build'], 'BUILD SUCCESSFUL in 4s\n7 actionable tasks: 7 executed'))).toBe(
      false,
    );
  });
});

describe('hook refusals as Claude Code words them', () => {
  it('PreToolUse and PostToolUse hooks blocking a call are hook refusals', () => {
    const post = toolResult(
      'Edit',
      'PostToolUse:Edit hook blocking error from command: "./hooks/lint.sh": src/a.ts:3:1 missing semicolon',
      true,
    );
    const pre = toolResult(
      'Bash',
      'PreToolUse:Bash hook error: [./hooks/guard.sh]: rm -rf is not allowed',
      true,
    );
    expect(refusalType(post)).toBe('hook_refusal');
    expect(refusalType(pre)).toBe('hook_refusal');
    expect(refusalType(toolResult('Bash', 'Installed the pre-commit hook in .git/hooks', false))).toBeNull();
  });
});

describe('a stack trace is a crash when it ends the output (no exit code recorded)', () => {
  it("Node's uncaught error ends with its stack and version; a logged stack followed by more output is not the end", () => {
    const crash = [
      '/app/server.js:12',
      "    throw new Error('PORT is not set');",
      'Error: PORT is not set',
      '    at Object.<anonymous> (/app/server.js:12:11)',
      '    at Module._compile (node:internal/modules/cjs/loader:1364:14)',
      '',
      'Node.js v20.11.1',
    ].join('\n');
    expect(failed(cell(['node server.js'], crash))).toBe(true);
    const logged = [
      'Traceback (most recent call last):',
      '  File "/app/worker.py", line 40, in poll',
      'TimeoutError: queue empty',
      'retrying in 1s',
      'processed 12 jobs',
    ].join('\n');
    expect(failed(cell(['python worker.py --once'], logged))).toBe(false);
    const jsLogged =
      'warn: retry\nError: socket hang up\n    at TLSSocket.onClose (node:_tls_wrap:1:1)\nsynced 40 rows';
    expect(failed(cell(['node sync.js'], jsLogged))).toBe(false);
  });
});
