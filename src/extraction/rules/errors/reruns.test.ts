import { describe, expect, it } from 'vitest';
import { bash, cell, say, toolResult } from '../../../../test/helpers/tool-results.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { findErrors, wayAroundSaid } from './error-rules.js';
import { resolveKnown } from './resolve-known.js';
import { coversTests, otherInput, sameStep, sharesWords } from '../shell-command.js';

/**
 * What clears an error and what fixes it: the program that failed (not `cd` before it, not a look at files), the
 * same step run again (not another target, not a question about the program), the same tests passing (not other
 * tests), another attempt rather than a look around.
 */
const brief = (entries: TranscriptEntry[]) =>
  findErrors(entries, null).map((e) => [
    e.error_type,
    e.resolution,
    e.resolution_notes?.replace(/\d+/g, 'N'),
  ]);

/** Another tool's call and result, with its input. */
const call = (
  name: string,
  input: Record<string, unknown>,
  out: string,
  isError = false,
): TranscriptEntry => {
  const result = toolResult(name, out, isError);
  return { ...result, tool: { ...(result.tool as NonNullable<TranscriptEntry['tool']>), input } };
};

const elixir = [
  '== Compilation error in file lib/app/worker.ex ==',
  '** (CompileError) lib/app/worker.ex:12: undefined function fetch/1 (expected App.Worker to define such a function)',
].join('\n');

describe('the same failure again is one error until the program that failed works', () => {
  it('cd X && mix compile failing, a look at lib, the same failure: one error', () => {
    const entries = [
      ...bash('cd /app && mix compile', 1, elixir),
      ...bash('cd /app && ls lib/app', 0, 'worker.ex\nrepo.ex'),
      ...bash('cd /app && mix compile', 1, elixir),
    ];
    expect(findErrors(entries, null).map((e) => e.error_type)).toEqual(['command_failed']);
  });

  it('mix compile working in between makes the next failure a new error', () => {
    const entries = [
      ...bash('cd /app && mix compile', 1, elixir),
      ...bash('cd /app && mix compile', 0, 'Compiling 2 files (.ex)\nGenerated app app'),
      ...bash('cd /app && mix compile', 1, elixir),
    ];
    expect(findErrors(entries, null)).toHaveLength(2);
  });
});

describe('a fix runs the failed step or the failed tests again', () => {
  it('the same step: other flags and arguments; not another target, not --version', () => {
    expect(sameStep('git push', 'git push --set-upstream origin fix-x')).toBe(true);
    expect(sameStep('npx tsc --noEmit', 'npx tsc --noEmit -p tsconfig.build.json')).toBe(true);
    expect(sameStep('make', 'make -j4')).toBe(true);
    expect(sameStep('make', 'make clean')).toBe(false);
    expect(sameStep('npx tsc --noEmit', 'npx tsc --version')).toBe(false);
    expect(sameStep('cargo build --release', 'cargo --version')).toBe(false);
  });

  it('an if/else ran one of its branches: either is the failed step, its condition is not; `a; b` is neither', () => {
    const branches =
      'if [[ -x target/debug/hk ]]; then target/debug/hk util check; else cargo run --quiet -- util check; fi';
    expect(sameStep(branches, 'cargo run --quiet --bin hk -- util check')).toBe(true);
    expect(sameStep(branches, 'target/debug/hk util check --verbose')).toBe(true);
    expect(sameStep(branches, '[[ -x target/debug/hk ]]')).toBe(false);
    // a branch fails at its last step: not at the steps before it, nor at an elif's condition
    const build =
      'if [ -d build ]; then cd build && make; elif command -v yarn; then yarn build; else mkdir build && cd build && cmake .. && make; fi';
    expect(sameStep(build, 'make -j4')).toBe(true);
    expect(sameStep(build, 'yarn build --verbose')).toBe(true);
    expect(sameStep(build, 'mkdir -p build')).toBe(false);
    expect(sameStep(build, 'command -v yarn')).toBe(false);
    // known from the output only: an earlier part may have printed it
    expect(sameStep('make build; make test', 'make test')).toBe(false);
  });

  it('a list of lines failed by its exit status: its last line is the failed step, or the step its output names', () => {
    const lines = 'cargo fmt --check\nmise run lint && cargo test';
    const byStatus = { output: 'error: could not compile', statusFailed: true };
    expect(sameStep(lines, 'cargo test --all', byStatus)).toBe(true);
    expect(sameStep(lines, 'cargo fmt --check', byStatus)).toBe(false);
    expect(sameStep(lines, 'cargo test --all', { ...byStatus, statusFailed: false })).toBe(false);
    expect(sameStep('cargo fmt --check || cargo test', 'cargo test', byStatus)).toBe(false);
    // mise names the task that failed (SOURCES.md: codex/hk/e5/cb0813e003/0/full.jsonl, jdx/hk, line 251)
    const lint = { output: 'Finished in 27.18s\n[lint] ERROR task failed\n', statusFailed: true };
    expect(sameStep(lines, 'mise run lint', lint)).toBe(true);
    expect(sameStep(lines, 'cargo test', lint)).toBe(false);
  });

  it('a failed line `a\\nb && c` is fixed by a later `b && c` passing, and by the task its output named passing', () => {
    const lines = 'cargo fmt --check\nmise run lint && cargo test';
    const rerun = [
      ...bash(
        lines,
        1,
        'Diff in src/main.rs at line 3:\nerror: could not compile `hk` (lib) due to 1 previous error',
      ),
      ...bash('mise run lint && cargo test', 0, 'test result: ok. 12 passed; 0 failed'),
    ];
    expect(brief(rerun)[0]?.slice(0, 2)).toEqual(['command_failed', 'fixed']);
    const named = [
      ...bash(lines, 1, '[lint] $ ~/hk/mise-tasks/lint\nFinished in 27.18s\n[lint] ERROR task failed'),
      ...bash('mise run lint', 0, '[lint] $ ~/hk/mise-tasks/lint\nFinished in 25.02s'),
    ];
    expect(brief(named)[0]?.slice(0, 2)).toEqual(['command_failed', 'fixed']);
    // another segment passing later is not the failed one
    const other = [
      ...bash(lines, 1, '[lint] $ ~/hk/mise-tasks/lint\nFinished in 27.18s\n[lint] ERROR task failed'),
      ...bash('cargo fmt --check', 0, ''),
    ];
    expect(brief(other)[0]?.[1]).not.toBe('fixed');
  });

  it('a script named by its absolute path or from the project folder is the same step; another script is not', () => {
    expect(sameStep('bash /home/ci/shop/scripts/seed.sh', 'bash scripts/seed.sh')).toBe(true);
    expect(sameStep('./bin/migrate up', 'bin/migrate up')).toBe(true);
    expect(sameStep('python tools/gen_schema.py', 'python /opt/repo/tools/gen_schema.py --strict')).toBe(
      true,
    );
    // near misses: the same file name in another folder, a bare name matching only the end of a path
    expect(sameStep('bash /home/ci/shop/scripts/seed.sh', 'bash fixtures/seed.sh')).toBe(false);
    expect(sameStep('bash /home/ci/shop/scripts/seed.sh', 'bash seed.sh')).toBe(false);
    const fixed = [
      ...bash('bash /home/ci/shop/scripts/seed.sh', 1, 'ERROR: DATABASE_URL is not set'),
      ...bash('export DATABASE_URL=postgres://localhost/shop && bash scripts/seed.sh', 0, 'seeded 40 rows'),
    ];
    // right after it: a slip fixed at once
    expect(brief(fixed)).toEqual([
      [
        'command_failed',
        'fixed',
        'a corrected call succeeded right after it (transcript line N): `export DATABASE_URL=postgres://localhost/shop && bash scripts/seed.sh`',
      ],
    ]);
  });

  it('a search run again with other flags only is the same search; the same search on more paths is exploring', () => {
    expect(sameStep('rg -n "--gap-lg|gap-xl" src', 'rg -n -e "--gap-lg|gap-xl" src')).toBe(true);
    expect(sameStep('grep -rn "--verbose" scripts', 'grep -rn -e "--verbose" scripts')).toBe(true);
    expect(sameStep('rg -n "--gap-lg" src', 'rg -n "--gap-lg" src tests')).toBe(false);
    expect(sameStep('rg -n "--gap-lg" src', 'rg -n "gap-xl" src')).toBe(false);
    // the same search answering "nothing found" (exit 1) ran, but is no fix of the search that failed
    const failing = bash('rg -n "--gap-lg" src', 2, 'rg: unrecognized flag --gap-lg');
    expect(
      brief([...failing, ...bash('rg -n -e "--gap-lg" src', 0, 'src/theme.css:4:  --gap-lg: 2rem;')]),
    ).toEqual([
      [
        'command_failed',
        'fixed',
        'a corrected call succeeded right after it (transcript line N): `rg -n -e "--gap-lg" src`',
      ],
    ]);
    expect(brief([...failing, ...bash('rg -n -e "--gap-lg" src', 1, '')])[0]?.[1]).toBe('unresolved');
  });

  it('go test ./... failing: the failed package passing alone is the fix, another package is not', () => {
    const report = [
      '--- FAIL: TestQuota (0.00s)',
      '    quota_test.go:21: got 11, want 10',
      'FAIL',
      'FAIL\texample.org/meter/internal/quota\t0.008s',
      'ok  \texample.org/meter/internal/store\t(cached)',
      'FAIL',
    ].join('\n');
    expect(coversTests('go test ./...', 'go test ./internal/quota/', report)).toBe(true);
    expect(coversTests('go test ./...', 'go test ./internal/...', report)).toBe(true);
    expect(coversTests('go test ./...', 'go test ./...', report)).toBe(true);
    expect(coversTests('go test ./...', 'go test ./internal/store', report)).toBe(false);
    expect(coversTests('go test ./internal/...', 'go test ./internal/quota')).toBe(true);
    expect(coversTests('go test ./internal/...', 'go test ./cmd/meter')).toBe(false);
    const failing = bash('go test ./...', 1, report);
    expect(
      brief([
        ...failing,
        ...bash('go test ./internal/quota/', 0, 'ok  \texample.org/meter/internal/quota\t0.007s'),
      ]),
    ).toEqual([['test_failure', 'fixed', 'succeeded later (transcript line N)']]);
    expect(
      brief([
        ...failing,
        ...bash('go test ./internal/store', 0, 'ok  \texample.org/meter/internal/store\t0.004s'),
      ])[0]?.[1],
    ).not.toBe('fixed');
  });

  it('the same tests: the whole suite or the failed file; not another file', () => {
    expect(coversTests('pytest tests/test_a.py::test_div', 'pytest tests/test_a.py')).toBe(true);
    expect(coversTests('pytest tests/test_a.py', 'pytest tests')).toBe(true);
    expect(coversTests('pytest tests/test_a.py', 'pytest -q')).toBe(true);
    expect(coversTests('pytest tests/test_a.py', 'pytest tests/test_b.py')).toBe(false);
    const red =
      '=== FAILURES ===\nFAILED tests/test_a.py::test_div - ZeroDivisionError\n1 failed, 2 passed in 0.1s';
    const entries = [
      ...bash('pytest tests/test_a.py', 1, red),
      ...bash('pytest tests/test_b.py', 0, '3 passed in 0.1s'),
    ];
    expect(brief(entries)).toEqual([['test_failure', 'unresolved', undefined]]);
    expect(brief([...entries, ...bash('pytest', 0, '12 passed in 0.4s')])[0]?.[1]).toBe('fixed');
  });

  it('a build failing before its tests is no test failure, and a test run passing is not its fix', () => {
    const entries = [
      ...bash('npm run build && npm test', 2, "src/a.ts(3,5): error TS2322: Type 'string' is not assignable"),
      ...bash('npm test', 0, '      Tests  8 passed (8)'),
    ];
    expect(brief(entries)).toEqual([['command_failed', 'unresolved', undefined]]);
  });

  it('a look around after a failure is no workaround; another attempt that works is', () => {
    const failing = bash('npm run build', 1, 'Error: Cannot find module "vite"');
    expect(brief([...failing, ...bash('ls node_modules/.bin', 0, 'tsc\nvitest')])).toEqual([
      ['command_failed', 'unresolved', undefined],
    ]);
    expect(
      brief([...failing, say('Let me build with npx.'), ...bash('npx vite build', 0, '✓ built in 1.2s')]),
    ).toEqual([
      [
        'command_failed',
        'workaround',
        'a different shell call succeeded (transcript line N): `npx vite build`',
      ],
    ]);
  });

  it('a look at the forge is no way around a refused write; after a failed look, another look is one', () => {
    const merge = bash(
      'gh pr merge 234 --squash --auto 2>&1',
      1,
      'GraphQL: Auto merge is not allowed for this repository (enablePullRequestAutoMerge)',
    );
    const watch = bash('sleep 120 && gh pr checks 234 --json name,state', 0, 'test: PENDING');
    const closeOther = bash('gh pr close 222 --comment "superseded"', 0, '✓ Closed pull request o/r#222');
    expect(brief([...merge, ...watch, ...closeOther])).toEqual([['command_failed', 'unresolved', undefined]]);
    const field = bash(
      'gh pr checks 222 --json name,state,conclusion',
      1,
      'Unknown JSON field: "conclusion"\nAvailable fields:\n  bucket\n  name\n  state',
    );
    // right after it, the look corrected: a slip fixed at once
    expect(brief([...field, ...bash('gh pr checks 222', 0, 'type-check\tfail')])).toEqual([
      [
        'command_failed',
        'workaround',
        'a corrected call succeeded right after it (transcript line N): `gh pr checks N`',
      ],
    ]);
  });

  it('another tool doing the same job is a workaround: a search, a write, a page found another way', () => {
    const search = bash('rg -n "TenantScope" --include "*.kt" app', 2, 'rg: unrecognized flag --include');
    const grepTool = call(
      'Grep',
      { pattern: 'TenantScope', glob: '*.kt' },
      'app/src/Scope.kt:3:class TenantScope',
    );
    expect(brief([...search, grepTool])).toEqual([
      ['command_failed', 'workaround', 'the Grep tool succeeded (transcript line N)'],
    ]);
    const refused = [
      call(
        'Bash',
        { command: 'printf "v2.1.0\\n" > VERSION' },
        "Claude requested permissions to use Bash, but you haven't granted it yet.",
        true,
      ),
    ];
    const write = call(
      'Write',
      { file_path: '/srv/app/VERSION', content: 'v2.1.0\n' },
      'File created successfully',
    );
    expect(brief([...refused, write])[0]?.[1]).toBe('workaround');
    const fetch = call(
      'WebFetch',
      { url: 'https://docs.example.io/v3/auth' },
      'Request failed with status code 404',
      true,
    );
    const find = call(
      'WebSearch',
      { query: 'example.io v3 auth guide' },
      'Links: [{"url":"https://docs.example.io/auth"}]',
    );
    expect(brief([fetch, find])[0]?.[1]).toBe('workaround');
    // near misses: another tool doing another job after the failure
    expect(brief([fetch, call('Edit', { file_path: '/srv/app/auth.ts' }, 'updated')])[0]?.[1]).toBe(
      'unresolved',
    );
    expect(brief([...refused, grepTool])[0]?.[1]).toBe('unresolved');
  });

  it('a shell command doing another job is no workaround: a build passing after the typecheck failed', () => {
    const typecheck = bash(
      'npx tsc --noEmit',
      2,
      "src/api.ts(9,3): error TS2339: Property 'id' does not exist",
    );
    expect(brief([...typecheck, ...bash('npm run build', 0, '✓ built in 2.1s')])[0]?.[1]).toBe('unresolved');
    // the other way round the check reads what the build's compiler reported
    const build = bash('npm run build', 2, "src/api.ts(9,3): error TS2339: Property 'id' does not exist");
    expect(brief([...build, ...bash('npx tsc --noEmit', 0, '')])[0]?.[1]).toBe('workaround');
    // the same job by another command is one: a missing script's check done by tsc itself, make lint by go vet
    const missing = bash('npm run typecheck', 1, 'npm error Missing script: "typecheck"');
    expect(brief([...missing, ...bash('npx tsc --noEmit -p .', 0, '')])[0]?.[1]).toBe('workaround');
    const lint = bash('make lint', 2, 'make: golangci-lint: No such file or directory');
    expect(brief([...lint, ...bash('go vet ./...', 0, '')])[0]?.[1]).toBe('workaround');
    // a command whose job is not known still counts, as before
    const script = bash('python3 scripts/export.py', 1, "ModuleNotFoundError: No module named 'yaml'");
    expect(brief([...script, ...bash('python3 scripts/export_json.py', 0, 'wrote 12 rows')])[0]?.[1]).toBe(
      'workaround',
    );
  });

  it('an error left open by an earlier import: make clean is no fix of make', () => {
    const open = [
      { id: 'e1', error_type: 'command_failed', error_message: '`make`: make: *** [all] Error 2' },
    ];
    expect(resolveKnown(open, bash('make clean', 0, 'rm -rf build'))).toEqual([]);
    expect(resolveKnown(open, bash('make -j4', 0, 'cc -o app main.c'))).toHaveLength(1);
    const tests = [
      { id: 'e2', error_type: 'test_failure', error_message: '`pytest tests/test_a.py`: 1 failed' },
    ];
    expect(resolveKnown(tests, bash('pytest tests/test_b.py', 0, '3 passed in 0.1s'))).toEqual([]);
  });
});

/** A Codex trial (cargo, a calculator binary): what the agent says it will do resolves nothing; what ran does. */
const cargoTest = [
  '     Running unittests src/lib.rs (target/debug/deps/calc-1a2b3c)',
  '',
  'running 2 tests',
  'test tests::a ... ok',
  'test tests::b ... ok',
  '',
  'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
  '',
  '     Running tests/ops.rs (target/debug/deps/ops-4d5e6f)',
  '',
  'running 1 test',
  'test t_div ... FAILED',
  '',
  'failures:',
  '',
  '---- t_div stdout ----',
  "thread 't_div' panicked at tests/ops.rs:5:45:",
  'assertion `left == right` failed',
  '  left: 3',
  ' right: 2',
  '',
  'failures:',
  '    t_div',
  '',
  'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
  '',
  'error: test failed, to rerun pass `--test ops`',
].join('\n');
const cargoBuild = [
  'error[E0308]: mismatched types',
  ' --> src/main.rs:6:9',
  'error: could not compile `calc` (bin "calc") due to 1 previous error',
].join('\n');

describe('an error is over when something shows it, not when the agent says what it will do', () => {
  const trial = () => [
    say('Running the test suite.'),
    ...bash('cargo test', 101, cargoTest),
    ...bash('cargo build', 101, cargoBuild),
    say("The closure returns () instead of i32; I'll make exit() diverge explicitly."),
    ...bash('./target/debug/calc 6 / 0', 2, 'division by zero'),
    ...bash('./target/debug/calc 6 / 3', 0, '2'),
  ];

  it('a plan after a failed test run and a build error, then the binary run on other numbers: all three open', () => {
    const errors = findErrors(trial(), null);
    expect(errors.map((e) => [e.error_message, e.resolution])).toEqual([
      [
        "`cargo test`: thread 't_div' panicked at tests/ops.rs:5:45: assertion `left == right` failed (left: 3, right: 2)",
        'unresolved',
      ],
      ['`cargo build`: error[E0308]: mismatched types', 'unresolved'],
      ['`./target/debug/calc 6 / 0`: division by zero', 'unresolved'],
    ]);
  });

  it('the same build and the same tests succeeding later fix them', () => {
    const later = [
      ...trial(),
      ...bash('cargo build', 0, '    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.52s'),
      ...bash('cargo test', 0, 'test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out'),
    ];
    expect(brief(later)).toEqual([
      ['test_failure', 'fixed', 'succeeded later (transcript line N)'],
      ['command_failed', 'fixed', 'succeeded later (transcript line N)'],
      ['command_failed', 'unresolved', undefined],
    ]);
  });

  it('says a way around only where the agent acts in the clause, not where it describes the code', () => {
    expect(
      wayAroundSaid("The closure returns () instead of i32; I'll make exit() diverge explicitly."),
    ).toBeNull();
    expect(wayAroundSaid('The loader falls back to defaults when the file is missing.')).toBeNull();
    expect(wayAroundSaid("There's no workaround for a locked keychain, I'm afraid.")).toBeNull();
    expect(wayAroundSaid("rg isn't installed. I'll use grep instead.")).toBe("I'll use grep instead.");
    // what it replaced names the failure, or the clause is another choice
    const missing = 'python -m pytest -q\n/usr/bin/python: No module named pytest';
    expect(
      wayAroundSaid(
        'pytest is not installed here, so I could not run the test yet. I decided to use argparse for the CLI instead of click because it has no dependency.',
        missing,
      ),
    ).toBeNull();
    expect(wayAroundSaid("I'll run the tests with unittest instead of pytest.", missing)).toBe(
      "I'll run the tests with unittest instead of pytest.",
    );
    expect(wayAroundSaid("I'll use unittest instead.", missing)).toBe("I'll use unittest instead.");
    expect(wayAroundSaid('Instead, let me read the generated file directly.')).toBe(
      'Instead, let me read the generated file directly.',
    );
    expect(wayAroundSaid('Falling back to the REST API for the checks.')).toBe(
      'Falling back to the REST API for the checks.',
    );
  });

  it('a way around said is a workaround once the work goes on past it; said alone, or only announced, it is not', () => {
    const failing = bash(
      'npm ci',
      1,
      'npm error code ECONNREFUSED\nnpm error network request to https://registry.npmjs.org/vite failed',
    );
    const words = say(
      "The registry is unreachable from here; I'll install from the vendored tarballs instead.",
    );
    const install = bash('npm install --offline ./vendor/vite-5.4.2.tgz', 0, 'added 12 packages in 2s');
    expect(brief([...failing, words, ...install])).toEqual([
      [
        'command_failed',
        'workaround',
        "I'll install from the vendored tarballs instead. (went on: transcript line N)",
      ],
    ]);
    // said, and nothing done after the words: a plan, not a way around
    expect(brief([...failing, words])[0]?.[1]).toBe('unresolved');
  });

  it('a failed test run is got past only by tests passing, whatever else works after it', () => {
    const red = bash(
      'pytest tests/test_sync.py',
      1,
      'FAILED tests/test_sync.py::test_push - ConnectionRefusedError: [Errno 111] Connection refused\n1 failed in 0.31s',
    );
    const skip = say(
      "The sync test needs a live server; I'll skip it and check the rest of the suite instead.",
    );
    const commit = bash('git commit -am "wip: client retries"', 0, '[main 3f2a1b9] wip: client retries');
    expect(brief([...red, skip, ...commit])[0]?.[1]).toBe('unresolved');
    expect(brief([...red, ...bash('python3 scripts/seed.py', 0, 'seeded 40 rows')])[0]?.[1]).toBe(
      'unresolved',
    );
    const rest = bash('pytest tests/test_api.py', 0, '14 passed in 0.52s');
    expect(brief([...red, skip, ...rest])[0]?.[1]).toBe('workaround');
  });

  it('a later run of the same tests failing for another cause got past the first; one still showing it did not', () => {
    const compile = bash(
      'mix test test/app_web/live/page_test.exs',
      1,
      '** (CompileError) test/app_web/live/page_test.exs:14: undefined function get/2 (expected AppWeb.PageTest to define such a function)',
    );
    const assertion = [
      '  1) test mount renders the page (AppWeb.PageTest)',
      '     test/app_web/live/page_test.exs:20',
      '     Assertion with =~ failed',
      '',
      'Finished in 0.4 seconds',
      '3 tests, 1 failure',
    ].join('\n');
    const next = bash('mix test test/app_web/live/page_test.exs', 2, assertion);
    expect(brief([...compile, ...next])).toEqual([
      [
        'test_failure',
        'fixed',
        'got past: a later run of the same tests failed further on, for another cause (transcript line N)',
      ],
      ['test_failure', 'unresolved', undefined],
    ]);
    // the same test failing again, on another line of the file: still this error
    const again = bash('mix test', 2, assertion.replace(':20', ':23'));
    expect(brief([...next, ...again])[0]?.[1]).toBe('unresolved');
    // the same test failing on other values is the same failure; a cut output may hide the cause
    const first = bash(
      'npx vitest run src/greet.test.ts',
      1,
      "FAIL src/greet.test.ts > greets\nAssertionError: expected 'hi world' to be 'Hello World'\n Tests  1 failed (1)",
    );
    const second = bash(
      'npx vitest run src/greet.test.ts',
      1,
      "FAIL src/greet.test.ts > greets\nAssertionError: expected 'Hello world!' to be 'Hello World'\n Tests  1 failed (1)",
    );
    expect(brief([...first, ...second])[0]?.[1]).toBe('unresolved');
    const cut = next.map((e) => (e.kind === 'tool_result' ? { ...e, truncated: true } : e));
    expect(brief([...compile, ...cut])[0]?.[1]).toBe('unresolved');
    // unless the cut run got further than the failing one: more of its tests passed, past what held them all back
    const setupFailed = () =>
      bash(
        'mix test test/app_web/live/page_test.exs',
        2,
        '  1) test mount renders the page (AppWeb.PageTest)\n     ** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.\n\nFinished in 0.3 seconds\n3 tests, 3 failures',
      );
    const cutRun = (failures: number) =>
      bash(
        'mix test test/app_web/live/page_test.exs',
        2,
        assertion.replace('3 tests, 1 failure', `3 tests, ${failures} failures`),
      ).map((e) => (e.kind === 'tool_result' ? { ...e, truncated: true } : e));
    expect(brief([...setupFailed(), ...cutRun(2)])[0]?.[1]).toBe('fixed');
    expect(brief([...setupFailed(), ...cutRun(3)])[0]?.[1]).toBe('unresolved');
    // more tests run is no sign: the same failures among them may still be this one
    const moreTests = bash(
      'mix test test/app_web/live/page_test.exs',
      2,
      assertion.replace('3 tests, 1 failure', '9 tests, 3 failures'),
    ).map((e) => (e.kind === 'tool_result' ? { ...e, truncated: true } : e));
    expect(brief([...setupFailed(), ...moreTests])[0]?.[1]).toBe('unresolved');
    // other tests failing is no sign that these pass
    const other = bash(
      'mix test test/app_web/live/list_test.exs',
      2,
      '  1) test lists (AppWeb.ListTest)\n1 test, 1 failure',
    );
    expect(brief([...compile, ...other])[0]?.[1]).toBe('unresolved');
  });

  it('the same program on other operands is another job; a command about nothing the failed one named is the next one', () => {
    expect(otherInput('./target/debug/calc 6 / 0', './target/debug/calc 6 / 3')).toBe(true);
    expect(otherInput('make build', 'make clean')).toBe(true);
    // other numbered things, whatever the words around them: another pull request is another job
    expect(otherInput('gh pr merge 234 --squash --auto 2>&1', 'gh pr close 222 --comment "superseded"')).toBe(
      true,
    );
    expect(otherInput('gh pr merge 234 --squash --auto', 'gh pr merge 234 --squash')).toBe(false);
    expect(otherInput('npx playwright test --workers 2', 'npx playwright test e2e --workers 1')).toBe(false);
    // near misses: another script, other flags, more words, a list whose every part runs
    expect(otherInput('python3 scripts/export.py', 'python3 scripts/export_json.py')).toBe(false);
    expect(otherInput('./target/debug/calc 6 / 0', './target/debug/calc --checked 6 / 0')).toBe(false);
    expect(otherInput('curl -sf https://api.local/v1/a', 'curl -s https://api.local/v1/a')).toBe(false);
    expect(otherInput('./calc 6 / 0; echo done', './calc 6 / 3; echo done')).toBe(false);
    // a word typed right is the same input corrected; words that differ in more, or only in digits, are others
    expect(otherInput('cargo biuld --release', 'cargo build --release')).toBe(false);
    expect(otherInput('make stash', 'make stage')).toBe(true);
    expect(otherInput('make test1', 'make test2')).toBe(true);
    expect(sharesWords('npm run build', 'npx vite build')).toBe(true);
    expect(
      sharesWords(
        'cd packages/lib && wc -l src/**/*.ts 2>/dev/null | tail -5',
        'bun run typecheck 2>&1 | tail -5',
      ),
    ).toBe(false);
    const failing = bash(
      'cd packages/lib && node scripts/count-lines.mjs',
      1,
      "Error: Cannot find module '/app/packages/lib/scripts/count-lines.mjs'",
    );
    expect(
      brief([...failing, ...bash('bun run typecheck 2>&1 | tail -5', 0, '$ tsc --noEmit')])[0]?.[1],
    ).toBe('unresolved');
  });

  it('a command still running when its result came has not worked: a Codex cell "Script running", polled later', () => {
    const failing = bash(
      'cargo run -- util check',
      101,
      'error: `cargo run` could not determine which binary to run',
    );
    const running = cell(['cargo run --bin hk -- util check'], '', { running: true });
    expect(brief([...failing, running])).toEqual([['command_failed', 'unresolved', undefined]]);
    const done = cell(['cargo run --bin hk -- util check'], 'checked 3 branches');
    expect(brief([...failing, running, done])[0]?.[1]).not.toBe('unresolved');
  });

  it('the same step failing again for another cause got past it: the compiler moved on to the next error', () => {
    const first = bash(
      'cargo build',
      101,
      'error[E0425]: cannot find value `limit` in this scope\n --> src/main.rs:12:9\nerror: could not compile `calc`',
    );
    const next = bash(
      'cargo build',
      101,
      'error[E0308]: mismatched types\n --> src/main.rs:20:5\nerror: could not compile `calc`',
    );
    const [a, b] = brief([...first, ...next]);
    expect(a).toEqual([
      'command_failed',
      'fixed',
      'got past: a later run of the same step failed further on, for another cause (transcript line N)',
    ]);
    expect(b?.[1]).toBe('unresolved');
    // a run cut short before it could get that far (out of time, the network) got past nothing
    const timedOut = bash(
      'cargo build',
      124,
      'Updating crates.io index\nerror: Command timed out after 2m 0s',
    );
    expect(brief([...first, ...timedOut])[0]?.[1]).toBe('unresolved');
    const offline = bash(
      'cargo build',
      101,
      'error: failed to get `serde` as a dependency\nCaused by: Could not resolve host: index.crates.io',
    );
    expect(brief([...first, ...offline])[0]?.[1]).toBe('unresolved');
    // the same cause again is the same failure still
    const again = bash('cargo build', 101, first[1]?.text.replace(/^Exit code \d+\n/, '') ?? '');
    expect(brief([...first, ...again])[0]?.[1]).toBe('unresolved');
  });
});

describe('a slip fixed at once: the very next call, the failed one corrected, succeeds', () => {
  /** The fate of a failed command followed by the calls given. */
  const fate = (failed: [string, number, string], ...after: TranscriptEntry[][]) =>
    brief([...bash(...failed), ...after.flat()]);

  it('a typo in a path, a missing flag, a missing program run another way: corrected right after it', () => {
    const tsc = fate(
      ['npx tsc -p tsconfg.json', 1, "error TS5058: The specified path does not exist: 'tsconfg.json'."],
      bash('npx tsc -p tsconfig.json', 0),
    );
    expect(tsc).toEqual([
      [
        'file_not_found',
        'workaround',
        'a corrected call succeeded right after it (transcript line N): `npx tsc -p tsconfig.json`',
      ],
    ]);
    const script = fate(
      [
        'python3 scirpt.py',
        2,
        "python3: can't open file '/app/scirpt.py': [Errno 2] No such file or directory",
      ],
      bash('python3 script.py', 0, 'done'),
    );
    expect(script[0]?.[2]).toBe(
      'a corrected call succeeded right after it (transcript line N): `pythonN script.py`',
    );
    const python = fate(
      ['python scan.py', 127, 'zsh:1: command not found: python'],
      bash('python3 scan.py', 0),
    );
    expect(python[0]?.[2]).toBe(
      'a corrected call succeeded right after it (transcript line N): `pythonN scan.py`',
    );
    // the same step with the flag it asked for: fixed, as before, and a slip
    const push = fate(
      ['git push', 128, 'fatal: The current branch fix-x has no upstream branch.'],
      bash('git push --set-upstream origin fix-x', 0),
    );
    expect(push).toEqual([
      [
        'command_failed',
        'fixed',
        'a corrected call succeeded right after it (transcript line N): `git push --set-upstream origin fix-x`',
      ],
    ]);
  });

  it('a subcommand the failure named mistyped, typed right at once', () => {
    const cargo = fate(
      ['cargo biuld', 101, 'error: no such command: `biuld`\n\n\tDid you mean `build`?'],
      bash('cargo build', 0, 'Finished `dev` profile'),
    );
    expect(cargo).toEqual([
      [
        'command_failed',
        'workaround',
        'a corrected call succeeded right after it (transcript line N): `cargo build`',
      ],
    ]);
    const git = fate(
      ['git comit -m "fix"', 1, "git: 'comit' is not a git command. See 'git --help'."],
      bash('git commit -m "fix"', 0, '[main 1a2b3c4] fix'),
    );
    expect(git[0]?.[2]).toBe(
      'a corrected call succeeded right after it (transcript line N): `git commit -m "fix"`',
    );
    // another subcommand one letter away that the failure did not name is another call
    const other = fate(
      ['git stash pop', 1, 'error: Your local changes would be overwritten'],
      bash('git stage .', 0),
    );
    expect(other[0]?.[2] ?? '').not.toMatch(/^a corrected call/);
  });

  it('not when another call came between, nor when the call right after does another thing', () => {
    const between = fate(
      [
        'python3 scirpt.py',
        2,
        "python3: can't open file '/app/scirpt.py': [Errno 2] No such file or directory",
      ],
      bash('ls', 0, 'script.py'),
      bash('python3 script.py', 0, 'done'),
    );
    expect(between[0]?.[2]).toBe('a different shell call succeeded (transcript line N): `pythonN script.py`');
    const push = fate(
      ['git push', 128, 'fatal: The current branch fix-x has no upstream branch.'],
      bash('git status', 0, 'On branch fix-x'),
      bash('git push --set-upstream origin fix-x', 0),
    );
    expect(push[0]?.[2]).toBe('the same step succeeded later (transcript line N)');
    // a protected branch got round by another branch: a way round the next session should know, not a slip
    const protectedMain = fate(
      [
        'git push origin main',
        1,
        'remote: error: GH006: Protected branch update failed for refs/heads/main.',
      ],
      bash('git checkout -b docs/retro && git push -u origin docs/retro', 0),
    );
    expect(protectedMain[0]?.[1]).toBe('workaround');
    expect(protectedMain[0]?.[2]).toMatch(
      /^a different shell call succeeded \(transcript line N\): `git checkout/,
    );
  });
});
