import { describe, expect, it } from 'vitest';
import { freshWorkflow, testContext } from '../../test/helpers/fresh-workflow.js';
import { recordTestRun } from './commands/records.js';
import { fileOfTest, namedTests, notRunAgain } from './test-scope.js';

/** A workflow with no task, in a draft its test runs are recorded into. */
const newWorkflow = () => freshWorkflow({ title: 't' }, testContext({ actor: 'hook' }));

describe('the tests a command line names', () => {
  it('are its test files, folders and node ids; a line naming none runs them all', () => {
    expect(namedTests('npx vitest run src/a.test.ts src/b.spec.tsx')).toEqual([
      'src/a.test.ts',
      'src/b.spec.tsx',
    ]);
    expect(namedTests('npm test -- ./tests/unit/')).toEqual(['tests/unit']);
    expect(namedTests('python -m pytest "tests/test_io.py::test_read" -q')).toEqual([
      'tests/test_io.py::test_read',
    ]);
    // part of a path, for vitest
    expect(namedTests('npx vitest run src/parser')).toEqual(['src/parser']);
    expect(namedTests('npx vitest run')).toBeNull();
    // the folder it ran in, where its output went
    expect(namedTests('cd /home/me/app && npx vitest run > /tmp/out.txt 2>&1')).toBeNull();
    expect(namedTests('cd /home/me/app && pytest tests/unit 2> /tmp/err | tail -5')).toEqual(['tests/unit']);
    // the program, however it is named
    expect(namedTests('node_modules/.bin/vitest run')).toBeNull();
    expect(namedTests('bash scripts/test.sh')).toBeNull();
    expect(namedTests('./run-tests.sh --fast')).toBeNull();
    expect(namedTests('npm test')).toBeNull();
    expect(namedTests(null)).toBeNull();
    // a filter by name, a configuration file, an option's value: no tests named
    expect(namedTests('npx vitest run -t "reads a BOM"')).toBeNull();
    expect(namedTests('npx vitest run --config tests/vitest.config.ts')).toBeNull();
    expect(namedTests('pytest -c tests/pytest.ini --rootdir tests')).toBeNull();
  });

  it("give a failing test's file when its name begins with one", () => {
    expect(fileOfTest('src/a.test.ts > parser > reads a BOM')).toBe('src/a.test.ts');
    expect(fileOfTest('|unit| src/a.test.ts > parser')).toBe('src/a.test.ts');
    expect(fileOfTest('tests/test_io.py::TestRead::test_bom')).toBe('tests/test_io.py');
    expect(fileOfTest('parser › reads a BOM')).toBeNull();
    expect(fileOfTest('TestParse')).toBeNull();
    expect(fileOfTest('formats config.json')).toBeNull();
  });
});

describe('an earlier failure not run again', () => {
  const failing = [
    'src/a.test.ts > parser > reads a BOM',
    'tests/test_io.py::test_read',
    'parser › nameless',
  ];

  it('is one whose file the later run did not name', () => {
    expect(notRunAgain(failing, 'npx vitest run src/b.test.ts')).toEqual([
      'src/a.test.ts > parser > reads a BOM',
      'tests/test_io.py::test_read',
    ]);
    expect(notRunAgain(failing, 'pytest tests/test_io.py::test_read')).toEqual([
      'src/a.test.ts > parser > reads a BOM',
    ]);
    // a part of the path (vitest's filter), the file by its absolute path, the folder it is under
    expect(notRunAgain(failing, 'npx vitest run src/a tests/')).toEqual([]);
    expect(notRunAgain(failing, 'npx vitest run /home/me/app/src/a.test.ts /home/me/app/tests')).toEqual([]);
    // a run of everything, or of tests told by name only: all were run, as far as Baton can tell
    expect(notRunAgain(failing, 'npm test')).toEqual([]);
    expect(notRunAgain(failing, 'npx vitest run -t parser')).toEqual([]);
  });

  it('is kept by the test state until a run names its file, with the command that failed it', () => {
    const d = newWorkflow();
    const run = (command: string, failing_tests: string[]) =>
      recordTestRun(d, {
        phase: failing_tests.length ? 'red' : 'green',
        failing_tests,
        expected_failures: [],
        last_test_command: command,
        last_test_output_summary: null,
      });
    run('npx vitest run', ['src/a.test.ts > reads a BOM', 'src/b.test.ts > writes a BOM']);
    expect(run('npx vitest run src/a.test.ts', []).not_run_again).toEqual({
      tests: ['src/b.test.ts > writes a BOM'],
      command: 'npx vitest run',
    });
    // another file run alone: still not run, still the first command's
    expect(run('npx vitest run src/c.test.ts', ['src/c.test.ts > x']).not_run_again).toEqual({
      tests: ['src/b.test.ts > writes a BOM'],
      command: 'npx vitest run',
    });
    // now both are left: c failed last in its own run
    expect(run('npx vitest run src/d.test.ts', []).not_run_again).toEqual({
      tests: ['src/b.test.ts > writes a BOM', 'src/c.test.ts > x'],
      command: 'npx vitest run src/c.test.ts',
    });
    expect(run('npx vitest run src/b.test.ts src/c.test.ts', []).not_run_again).toBeNull();
    run('npx vitest run src/a.test.ts', ['src/a.test.ts > reads a BOM']);
    expect(run('npx vitest run', []).not_run_again).toBeNull();
  });
});

describe('the test state', () => {
  it('is the newest run: one read after a newer one is history (a sub-agent read late), not where tests stand', () => {
    const d = newWorkflow();
    const run = (failing_tests: string[], at: string) =>
      recordTestRun(
        d,
        {
          phase: failing_tests.length ? 'red' : 'green',
          failing_tests,
          expected_failures: [],
          last_test_command: 'npm test',
          last_test_output_summary: null,
        },
        at,
      );
    run([], '2026-03-01T10:05:00.000Z');
    run(['src/a.test.ts > works'], '2026-03-01T10:04:00.000Z');
    expect(d.state.test_state).toMatchObject({
      phase: 'green',
      last_test_run_at: '2026-03-01T10:05:00.000Z',
    });
    expect(d.state.counts.test_runs).toBe(2);
    run(['src/a.test.ts > works'], '2026-03-01T10:06:00.000Z');
    expect(d.state.test_state).toMatchObject({ phase: 'red' });
  });
});
