import { describe, expect, it } from 'vitest';
import { readTestOutput } from './test-output.js';
import { counts, lines } from '../../../test/helpers/test-reports.js';

describe('several test runs in one output', () => {
  it("turbo's prefixed lines: each package's run read on its own and added up", () => {
    const out = lines(
      '• Packages in scope: @acme/api, @acme/web',
      '• Running test in 2 packages',
      '@acme/api:test: cache miss, executing 1a2b3c4d5e6f7a8b',
      '@acme/api:test: ',
      '@acme/api:test: > @acme/api@0.1.0 test /repo/packages/api',
      '@acme/api:test: > vitest run',
      '@acme/api:test:  ✓ src/routes.test.ts (4 tests) 12ms',
      '@acme/api:test:  Test Files  1 passed (1)',
      '@acme/api:test:       Tests  4 passed (4)',
      '@acme/web:test: cache miss, executing 9f8e7d6c5b4a3f2e',
      '@acme/web:test: > vitest run',
      '@acme/web:test:  FAIL  src/form.test.tsx > Form > submits',
      '@acme/web:test: AssertionError: expected false to be true',
      '@acme/web:test:  Test Files  1 failed | 2 passed (3)',
      '@acme/web:test:       Tests  1 failed | 9 passed (10)',
      '@acme/web:test:  ELIFECYCLE  Test failed. See above for more details.',
      '@acme/web#test: command (/repo/packages/web) /usr/bin/pnpm run test exited (1)',
      '',
      ' Tasks:    1 successful, 2 total',
      'Cached:    0 cached, 2 total',
      'Failed:    @acme/web#test',
    );
    expect(counts(out)).toEqual({
      runner: 'vitest',
      passed: 13,
      failed: 1,
      skipped: null,
      failing: ['src/form.test.tsx > Form > submits'],
    });
  });

  it("pnpm -r's prefixed lines", () => {
    const out = lines(
      'Scope: 2 of 3 workspace projects',
      'packages/api test$ vitest run',
      'packages/api test:  RUN  v2.1.8 /repo/packages/api',
      'packages/api test:  Test Files  1 passed (1)',
      'packages/api test:       Tests  4 passed (4)',
      'packages/api test: Done',
      'packages/web test$ vitest run',
      'packages/web test:  Test Files  3 passed (3)',
      'packages/web test:       Tests  10 passed (10)',
      'packages/web test: Done',
    );
    expect(counts(out)).toMatchObject({ runner: 'vitest', passed: 14, failed: 0 });
  });

  it("nx run-many's headings, and npm scripts chained under their headings", () => {
    const nx = lines(
      ' NX   Running target test for 2 projects:',
      '',
      '> nx run api:test',
      '',
      ' PASS  src/app.spec.ts',
      'Tests:       3 passed, 3 total',
      '',
      '> nx run web:test',
      '',
      ' FAIL  src/form.spec.tsx',
      '  ● Form › submits',
      'Tests:       1 failed, 4 passed, 5 total',
      '',
      ' NX   Ran target test for 2 projects (3s)',
      '   ✖  1/2 targets failed, including the following:',
      '   - nx run web:test',
    );
    expect(counts(nx)).toEqual({
      runner: 'jest',
      passed: 7,
      failed: 1,
      skipped: null,
      failing: ['Form › submits'],
    });
    const chained = lines(
      '> web@1.0.0 test',
      '> npm run test:unit && npm run test:e2e',
      '',
      '> web@1.0.0 test:unit',
      '> vitest run',
      '',
      ' Test Files  2 passed (2)',
      '      Tests  8 passed (8)',
      '',
      '> web@1.0.0 test:e2e',
      '> playwright test',
      '',
      'Running 3 tests using 2 workers',
      '  3 passed (5.2s)',
    );
    expect(counts(chained)).toMatchObject({ runner: 'vitest+playwright', passed: 11, failed: 0 });
  });

  it('one run stays one run: cargo test names and a single npm script are not taken for prefixes or headings', () => {
    const cargo = lines(
      'running 4 tests',
      'test tests::adds ... ok',
      'test tests::subtracts ... ok',
      'test parser::tests::reads ... ok',
      'test parser::tests::fails ... FAILED',
      '',
      'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out',
    );
    expect(counts(cargo)).toEqual({
      runner: 'cargo',
      passed: 3,
      failed: 1,
      skipped: 0,
      failing: ['parser::tests::fails'],
    });
    const single = '> web@1.0.0 test\n> vitest run\n\n Test Files  1 passed (1)\n      Tests  2 passed (2)\n';
    expect(counts(single)).toMatchObject({ runner: 'vitest', passed: 2 });
    // a turbo run cut off before any summary still reports nothing
    expect(
      readTestOutput(
        '@acme/web:test: > vitest run\n@acme/web:test:  RUN  v2.1.8\n@acme/web:test:  ✓ a.test.ts',
      ),
    ).toBeNull();
  });
});
