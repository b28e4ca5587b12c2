import { describe, expect, it } from 'vitest';
import { bash, say, toolResult } from '../../../../test/helpers/tool-results.js';
import { findTestRuns } from '../../session/test-runs.js';
import { findErrors } from './error-rules.js';
import { resolveKnown } from './resolve-known.js';

describe('findErrors: what the agent was doing', () => {
  it('is what it said in the same turn, never the last message of a turn before', () => {
    const entries = [
      say('Add subtract with a test', 'user'),
      say('Subtract is in and committed (tests pass: 2 passed). Next I will add multiply.'),
      say('now run the whole suite', 'user'),
      ...bash('node --test test/', 1, "not ok 3 - pow\n  error: '6 == 7'"),
    ];
    const [error] = findErrors(entries, null);
    expect(error).toMatchObject({ error_type: 'test_failure', context: null });
    // said in the failing turn: that is what it was doing
    const said = [
      ...entries.slice(0, 3),
      say('Running the whole suite before the README.'),
      ...entries.slice(3),
    ];
    expect(findErrors(said, null)[0]?.context).toBe('Running the whole suite before the README.');
  });
});

describe('findErrors: a failed test run', () => {
  it('is named by its test command, as its test run is, not by the whole shell line', () => {
    const line = 'cd pkg && npm ci && npm test 2>&1 | tail -20';
    const entries = [
      say('run the tests', 'user'),
      ...bash(
        line,
        1,
        ' FAIL  src/sum.test.ts > adds\n Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)',
      ),
    ];
    const [error] = findErrors(entries, null);
    expect(error?.error_type).toBe('test_failure');
    expect(findTestRuns(entries)[0]?.step).toBe('cd pkg && npm test');
    expect(error?.error_message).toMatch(/^`cd pkg && npm test`: /);
    // a later import still knows it by that name: the same tests passing, by the whole line again, fix it
    const later = bash(line, 0, ' Test Files  1 passed (1)\n      Tests  3 passed (3)');
    expect(
      resolveKnown([{ id: 'e1', error_type: 'test_failure', error_message: error!.error_message }], later),
    ).toMatchObject([{ error_id: 'e1', resolution: 'fixed' }]);
  });
});

describe('findErrors: a failure the agent leaves on purpose', () => {
  const lint = () =>
    bash('npm run lint', 1, 'src/legacy/parse.js\n  12:5  error  no-unused-vars\n✖ 3 problems');
  it.each([
    'These lint errors are pre-existing in src/legacy and unrelated to my changes.',
    'The failing lint rule is not caused by this change: it already fails on main.',
    "That's out of scope for this task, so I'll leave them as is.",
    "I'll address these lint errors in a separate PR.",
  ])('is deferred when its words say so soon after: %s', (words) => {
    const [error] = findErrors([say('add the parser option', 'user'), ...lint(), say(words)], null);
    expect(error?.resolution).toBe('deferred');
    expect(error?.resolution_notes).toContain(words.slice(0, 30));
  });

  it('stays open when nothing says so, or the words are the tool output, or the user speaks first', () => {
    const quiet = findErrors([say('add the parser option', 'user'), ...lint(), say('Let me look.')], null);
    expect(quiet[0]?.resolution).toBe('unresolved');
    const echoed = bash(
      'npm run lint',
      1,
      'warning: pre-existing issues are unrelated to my changes\n✖ 1 problem',
    );
    expect(findErrors([say('lint it', 'user'), ...echoed], null)[0]?.resolution).toBe('unresolved');
    const later = [
      say('add the parser option', 'user'),
      ...lint(),
      say('and the docs?', 'user'),
      say('Those lint errors are pre-existing.'),
    ];
    expect(findErrors(later, null)[0]?.resolution).toBe('unresolved');
  });

  it.each([
    'The new `parse` conflicts with the pre-existing `parse` export. Let me rename it.',
    'The pre-existing fixture has a negative value. Let me update the fixture.',
    "Refactoring the parser is out of scope; I'll just fix the type error.",
    "I'll commit the docs in a separate commit.",
    "I'll leave this file untouched and change the caller.",
    'This file is unrelated to my changes.',
  ])('stays open when the words are of something else, or go on to fix it: %s', (words) => {
    const [error] = findErrors([say('add the parser option', 'user'), ...lint(), say(words)], null);
    expect(error?.resolution).toBe('unresolved');
  });

  it('is fixed, not deferred, when the same command succeeds later', () => {
    const entries = [
      say('add the parser option', 'user'),
      ...lint(),
      say('These look pre-existing, but they are quick to fix.'),
      ...bash('npm run lint', 0, ''),
    ];
    expect(findErrors(entries, null)[0]?.resolution).toBe('fixed');
  });
});

describe('findErrors: a call the agent meant to fail', () => {
  const badInput = () => bash('node bin/calc.js 6 % 3', 2, 'calc: bad input: 6 % 3');
  it.each([
    ['before', 'Now let me check that bad input is rejected: it should exit 2.'],
    ['before', 'This should be rejected with exit 2.'],
    ['before', "I'm expecting it to fail with exit 2."],
    ['after', 'Exits 2 with the usage message, as expected.'],
    ['after', 'Rejected as intended: exit 2 and the usage line.'],
  ])('is no error when it says so %s the call: %s', (when, words) => {
    const entries = [
      say('make bad input exit 2', 'user'),
      ...(when === 'before' ? [say(words), ...badInput()] : [...badInput(), say(words)]),
    ];
    expect(findErrors(entries, null)).toEqual([]);
  });

  it('is an error when nothing says so, or the words deny it', () => {
    const plain = [say('make bad input exit 2', 'user'), say('Running it.'), ...badInput()];
    expect(findErrors(plain, null)).toHaveLength(1);
    const denied = [
      say('make bad input exit 2', 'user'),
      ...badInput(),
      say('That is not working as expected.'),
    ];
    expect(findErrors(denied, null)).toHaveLength(1);
  });

  it.each([
    ['before', 'I expect the error is in the parser.'],
    ['before', "I don't expect an error here; running it."],
    ['before', 'The parser should fail fast on bad tokens now. Let me run it.'],
    ['before', "It shouldn't fail any more."],
    ['after', 'The config loads as expected, but calc.js has a type error I need to fix.'],
    ['after', "It doesn't exit as expected."],
    ['after', "The check isn't failing as expected."],
  ])('is an error when the words %s it are of something else, or deny it: %s', (when, words) => {
    const entries = [
      say('make bad input exit 2', 'user'),
      ...(when === 'before' ? [say(words), ...badInput()] : [...badInput(), say(words)]),
    ];
    expect(findErrors(entries, null)).toHaveLength(1);
  });
});

describe("findErrors: a failed call of the agent's own task list", () => {
  it('is no error of the work (a TaskUpdate of a task Claude Code lost when the conversation was resumed)', () => {
    const entries = [
      say('go on', 'user'),
      toolResult('TaskUpdate', 'Task not found', true),
      ...bash('npm test', 1, 'Error: Cannot find module ./cli.js'),
    ];
    expect(findErrors(entries, null).map((e) => e.error_message)).toEqual([
      '`npm test`: Error: Cannot find module ./cli.js',
    ]);
  });
});
