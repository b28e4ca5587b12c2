import { describe, expect, it } from 'vitest';
import { bash, say } from '../../../../test/helpers/tool-results.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { findErrors } from './error-rules.js';
import { resolveKnown } from './resolve-known.js';
import { coversTests, sameStep } from '../shell-command.js';

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
    ).toEqual([['command_failed', 'workaround', 'a different shell call succeeded (line N)']]);
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
