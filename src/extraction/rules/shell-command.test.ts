import { describe, expect, it } from 'vitest';
import { assignmentOnly, testStep } from './shell-command.js';

describe('assignmentOnly', () => {
  it('knows a part that only sets variables, whatever its values hold, in a linear time', () => {
    for (const part of ['X=$(go env GOMODCACHE)', 'A=1 B=2 ', `A="x y" B='p q'`, 'A=x=y', 'A=', 'A="open'])
      expect(assignmentOnly.test(part), part).toBe(true);
    for (const part of ['A=1 make', 'X=$(a b) c', 'npm test', '=x'])
      expect(assignmentOnly.test(part), part).toBe(false);
    // each `a=` and each quoted piece could start a new split: 2^40 ways before (the test's timeout, not a clock)
    expect(assignmentOnly.test(`OPTS=${'a=1,'.repeat(40)} make`)).toBe(false);
    expect(assignmentOnly.test(`A=${'"a"'.repeat(40)} make`)).toBe(false);
  });
});

describe('testStep', () => {
  it('is the part of a command line that ran the tests, after the cd that chose where', () => {
    expect(testStep(`printf "import {pow}..." > test/pow.test.js && node --test test/ 2>&1 | tail -8`)).toBe(
      'node --test test/',
    );
    expect(testStep('cd web && npm ci && npm test -- --run 2>&1 | tail -5')).toBe(
      'cd web && npm test -- --run',
    );
    expect(testStep('npm run build && CI=1 npx vitest run src/a.test.ts')).toBe(
      'CI=1 npx vitest run src/a.test.ts',
    );
    expect(testStep("bash -c 'cd api && pytest -q'")).toBe('cd api && pytest -q');
    expect(testStep('if cargo test --workspace; then echo ok; fi')).toBe('cargo test --workspace');
    expect(testStep('./scripts/run-tests.sh --fast')).toBe('./scripts/run-tests.sh --fast');
    // a runner named in a message runs nothing; a package change names one without running it
    expect(testStep('git commit -m "make npm test pass" && npm test')).toBe('npm test');
    expect(testStep('npm install -D vitest && npx vitest run')).toBe('npx vitest run');
    // no part that runs tests by itself: the line as it is
    expect(testStep('make check')).toBe('make check');
  });
});
