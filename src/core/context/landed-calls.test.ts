import { describe, expect, it } from 'vitest';
import type { DoneCommit } from './done-commits.js';
import { landedCalls as landed } from './landed-calls.js';

const landedCalls = (text: string, commits: DoneCommit[]) => landed(text, commits).text;

const gitOnly = (hash: string, subject: string): DoneCommit => ({
  hash,
  subject,
  task_id: null,
  git_only: true,
});
const open = (...calls: string[]) =>
  `Committing.\n\nThe transcript ends before ${calls.length === 1 ? 'this call' : 'these calls'} returned (check whether ${calls.length === 1 ? 'it' : 'they'} ran): ${calls.map((c) => `\`${c}\``).join('; ')}`;

describe('the calls cut off before they returned, with what git shows of them', () => {
  it('says a git commit whose message git has as a commit only it knows landed, with its hash', () => {
    const rename = gitOnly('1e96132', 'refactor: rename a.js to alpha.js');
    expect(landedCalls(open("Bash: git commit -am 'refactor: rename a.js to alpha.js'"), [rename])).toBe(
      "Committing.\n\nThe transcript ends before this call returned: `Bash: git commit -am 'refactor: rename a.js to alpha.js'` (it landed: commit 1e96132)",
    );
    // -m with double quotes after other flags, a short subject said whole, a here-document's first line
    expect(
      landedCalls(open('Bash: git add -A && git commit -q -m "wip"'), [gitOnly('abc1234', 'wip')]),
    ).toContain('(it landed: commit abc1234)');
    const heredoc = "Bash: git commit -F - <<'EOF' Fix the PATH in the image … EOF; git push origin main";
    expect(landedCalls(open(heredoc), [gitOnly('def5678', 'Fix the PATH in the image')])).toContain(
      `\`${heredoc}\` (it landed: commit def5678)`,
    );
    expect(landed(open('Bash: git commit -m "wip"'), [gitOnly('abc1234', 'wip')]).all_landed).toBe(true);
  });

  it('leaves the others to check, and a call whose commit git does not have, or a transcript reported', () => {
    const two = open('Bash: git commit -m "Add mul"', 'Bash: npm test');
    expect(landed(two, [gitOnly('aaa1111', 'Add mul')]).all_landed).toBe(false);
    expect(landedCalls(two, [gitOnly('aaa1111', 'Add mul')])).toBe(
      'Committing.\n\nThe transcript ends before these calls returned (check whether the other ran): `Bash: git commit -m "Add mul"` (it landed: commit aaa1111); `Bash: npm test`',
    );
    // another subject; a commit a transcript reported (its own call returned); not a commit command
    const one = open('Bash: git commit -m "Add mul"');
    expect(landedCalls(one, [gitOnly('aaa1111', 'Add div')])).toBe(one);
    expect(landedCalls(one, [{ hash: 'aaa1111', subject: 'Add mul', task_id: null }])).toBe(one);
    const log = open('Bash: git log --grep "Add mul"');
    expect(landedCalls(log, [gitOnly('aaa1111', 'Add mul')])).toBe(log);
    // one commit is made by one call: the second of two like calls is left to check
    const twice = open('Bash: git commit -m "Add mul"', 'Bash: git commit -m "Add mul"');
    expect(landedCalls(twice, [gitOnly('aaa1111', 'Add mul')])).toContain(
      '(check whether the other ran): `Bash: git commit -m "Add mul"` (it landed: commit aaa1111); `Bash: git commit -m "Add mul"`',
    );
  });
});
