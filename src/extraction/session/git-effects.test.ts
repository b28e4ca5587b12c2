import { describe, expect, it } from 'vitest';
import { toolResultEntry } from '../../../test/helpers/transcript-lines.js';
import { parseCorpusLines } from '../../../test/helpers/corpus-lines.js';
import { findGitEffects } from './git-effects.js';

/** A shell tool's result as the parsers record it: the command in the input, the output as text. */
const ran = (command: string | string[], output: string, exit = 0, name = 'Bash') =>
  toolResultEntry(name, Array.isArray(command) ? { cmd: command } : { command }, output, exit);

describe('commits, pushes, pull requests, branches and worktrees, as git and gh print them', () => {
  it("reads git's commit line on a branch, a root commit, a detached HEAD and after hook output", () => {
    const { commits } = findGitEffects([
      ran('git add -A && git commit -m "Add parser"', '[main 1a2b3c4] Add parser\n 2 files changed'),
      ran('git commit -m init', '[feature/x (root-commit) 0f0f0f0] init\n 1 file changed'),
      ran('git commit --no-edit', '[detached HEAD 9e8d7c6] Fix rebase step\n 1 file changed'),
      ran(
        ['bash', '-lc', 'git -C repo commit -m "Lint"'],
        'check yaml...............Passed\ntrim whitespace..........Passed\n[dev 4455667] Lint\n 1 file changed',
        0,
        'exec_command',
      ),
    ]);
    expect(commits.map((c) => [c.hash, c.subject, c.branch])).toEqual([
      ['1a2b3c4', 'Add parser', 'main'],
      ['0f0f0f0', 'init', 'feature/x'],
      ['9e8d7c6', 'Fix rebase step', null],
      ['4455667', 'Lint', 'dev'],
    ]);
  });

  it('takes no commit from a command that made none: a refused commit, a log, a program printing such lines', () => {
    const { commits } = findGitEffects([
      ran('git commit -m x', 'On branch main\nnothing to commit, working tree clean', 1),
      ran('git log --oneline -3', '1a2b3c4 Add parser\n0f0f0f0 init'),
      ran('node test/git-tool.test.js', '[main 1234567] a commit the test made in a temporary repository'),
    ]);
    expect(commits).toEqual([]);
  });

  it('reads a push with its ref, not a rejected one, and the pull request gh created', () => {
    const { effects } = findGitEffects([
      ran('git push origin main', 'To github.com:o/r.git\n   1a2b3c4..4455667  main -> main'),
      ran(
        'git push',
        'To github.com:o/r.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs',
        1,
      ),
      ran('gh pr create --fill', 'https://github.com/o/r/pull/12\n'),
      ran('git push origin --delete ent-95', 'To github.com:o/r.git\n - [deleted]         ent-95'),
    ]);
    expect(effects.map((e) => [e.kind, e.summary])).toEqual([
      ['push', 'pushed main -> main (up to 4455667)'],
      ['pr', 'https://github.com/o/r/pull/12'],
      ['push', 'deleted the remote branch ent-95'],
    ]);
  });

  it('reads the branches and worktrees a command made or removed, not one git refused', () => {
    const { effects } = findGitEffects([
      ran(
        'git checkout -b codex/fix-util-skip-config',
        "Switched to a new branch 'codex/fix-util-skip-config'",
      ),
      ran('git fetch && git switch --create "fix login" origin/main', "Switched to a new branch 'fix login'"),
      ran(
        'git worktree add ../entirecontext-mcp-sdk-2-migration -b feat/mcp-sdk-2-migration 2>&1',
        "Preparing worktree (new branch 'feat/mcp-sdk-2-migration')\nHEAD is now at 1a2b3c4 init",
      ),
      ran('git worktree add --reason review ../review v1.2', 'Preparing worktree (detached HEAD 1a2b3c4)'),
      ran('git checkout -b main', "fatal: a branch named 'main' already exists", 128),
      ran('git switch -c x 2>/dev/null || true', "fatal: a branch named 'x' already exists"),
      ran('git checkout main && git worktree list', '/w  1a2b3c4 [main]'),
      // undone later: said as it was undone
      ran(
        'git worktree remove ../entirecontext-mcp-sdk-2-migration && git branch -d fix-a fix-b',
        'Deleted branch fix-a\nDeleted branch fix-b',
      ),
      ran('git branch -D x 2>/dev/null', "error: branch 'x' not found.", 1),
    ]);
    expect(effects.map((e) => [e.kind, e.summary])).toEqual([
      ['other', 'created the branch codex/fix-util-skip-config'],
      ['other', 'created the branch fix login'],
      [
        'other',
        'added the worktree ../entirecontext-mcp-sdk-2-migration on the new branch feat/mcp-sdk-2-migration',
      ],
      ['other', 'added the worktree ../review at v1.2'],
      ['other', 'removed the worktree ../entirecontext-mcp-sdk-2-migration'],
      ['other', 'deleted the branch fix-a'],
      ['other', 'deleted the branch fix-b'],
    ]);
  });

  it('says which commit an amend replaced (both stay commits the session made)', () => {
    const { commits, effects } = findGitEffects([
      ran('git commit -m "Add docs"', '[main 00fb9c4] Add docs\n 1 file changed'),
      ran(
        'git add -A && git commit --amend --no-edit',
        '[main 283c50a] Add docs\n Date: Mon\n 2 files changed',
      ),
    ]);
    expect(commits.map((c) => c.hash)).toEqual(['00fb9c4', '283c50a']);
    expect(effects.map((e) => e.summary)).toEqual(['00fb9c4 Add docs', '283c50a Add docs (amends 00fb9c4)']);
    // the commit it replaced was read before (an earlier turn's, imported at its Stop): said as an amend all the same
    const later = findGitEffects([
      ran('git commit --amend --no-edit', '[main 283c50a] Add docs\n Date: Mon\n 2 files changed'),
    ]);
    expect(later.effects.map((e) => e.summary)).toEqual(['283c50a Add docs (amends an earlier commit)']);
  });

  it('follows a branch renamed (an amend after it still says what it replaced), and a chain that deletes and pushes', () => {
    const { effects } = findGitEffects([
      ran('git commit -m "Add docs"', '[ent-95 00fb9c4] Add docs\n 1 file changed'),
      ran(
        'git branch -m ent-95 ent-95-docs && git push origin --delete ent-95 && git push -u origin ent-95-docs',
        'To github.com:o/r.git\n - [deleted]         ent-95\nTo github.com:o/r.git\n * [new branch]      ent-95-docs -> ent-95-docs',
      ),
      ran('git commit --amend --no-edit', '[ent-95-docs 283c50a] Add docs\n Date: Mon\n 2 files changed'),
      // one name only: the branch under way (the last commit's) is renamed
      ran(
        'git branch -m final 2>/dev/null && git commit --amend --no-edit',
        '[final 3a3a3a3] Add docs\n 2 files changed',
      ),
    ]);
    expect(effects.map((e) => e.summary)).toEqual([
      '00fb9c4 Add docs',
      'deleted the remote branch ent-95',
      'pushed ent-95-docs -> ent-95-docs',
      '283c50a Add docs (amends 00fb9c4)',
      '3a3a3a3 Add docs (amends 283c50a)',
    ]);
  });

  it('reads a forced push (what it replaced), and a push output with a long blank line in a linear time', () => {
    // quadratic before: seconds at 80,000 characters, past the test's timeout at these 800,000 (no clock asked)
    const blank = ' \t'.repeat(400_000);
    const { effects } = findGitEffects([
      ran('git push -f', `To github.com:o/r.git\n${blank}\n + 1a2b3c4...5d6e7f8 fix -> fix (forced update)`),
    ]);
    expect(effects.map((e) => e.summary)).toEqual(['force-pushed fix -> fix (5d6e7f8, replacing 1a2b3c4)']);
  });

  it('reads commits whatever options precede the verb and whatever language git speaks', () => {
    const { commits } = findGitEffects([
      ran(
        'git -c user.name="Release Bot" -c user.email=bot@example.com commit -m "Bump version"',
        '[main 1111111] Bump version\n 1 file changed',
      ),
      ran('git --no-pager commit -m "Add B"', '[hotfix/v1.2.x 2222222] Add B\n 1 file changed'),
      ran('git commit -m init', '[main (Basis-Commit) 3333333] init\n 1 file changed'),
      ran('git commit -m wip', '[HEAD détachée 4444444] wip\n 1 file changed'),
      ran('git commit -m big', `[main ${'a'.repeat(64)}] big\n 1 file changed`),
    ]);
    expect(commits.map((c) => [c.hash.slice(0, 7), c.subject, c.branch])).toEqual([
      ['1111111', 'Bump version', 'main'],
      ['2222222', 'Add B', 'hotfix/v1.2.x'],
      ['3333333', 'init', 'main'],
      ['4444444', 'wip', null],
      ['aaaaaaa', 'big', 'main'],
    ]);
  });

  it('takes no push from a dry run or a push that found the remote up to date', () => {
    const { effects } = findGitEffects([
      ran('git push', 'Everything up-to-date'),
      ran('git push --dry-run origin main', 'To github.com:o/r.git\n   1a2b3c4..4455667  main -> main'),
      ran(
        'git push -u origin feature/login-form',
        "remote:\nremote: Create a pull request for 'feature/login-form' on GitHub by visiting:\nremote:      https://github.com/o/r/pull/new/feature/login-form\nremote:\nTo github.com:o/r.git\n * [new branch]      feature/login-form -> feature/login-form\nbranch 'feature/login-form' set up to track 'origin/feature/login-form'.",
      ),
    ]);
    expect(effects.map((e) => [e.kind, e.summary])).toEqual([
      ['push', 'pushed feature/login-form -> feature/login-form'],
    ]);
  });

  it('reads pull requests on any GitHub host and GitLab merge requests; what gh pr merge did', () => {
    const { effects } = findGitEffects([
      ran(
        'gh pr create --title "Login form" --body "..."',
        '\nCreating pull request for feature/login-form into main in o/r\n\nhttps://github.example.com/o/r/pull/7\n',
      ),
      ran(
        'glab mr create --fill --yes',
        'Creating merge request for fix into main in g/sub/r\n\nhttps://gitlab.com/g/sub/r/-/merge_requests/3\n',
      ),
      ran(
        'gh pr merge --squash --delete-branch',
        '✓ Squashed and merged pull request o/r#7 (Login form)\n✓ Deleted local branch feature/login-form and switched to branch main',
      ),
      ran(
        'gh pr merge 8 --auto --squash',
        '✓ Pull request o/r#8 will be automatically merged via squash when all requirements are met',
      ),
      ran('gh pr merge https://github.com/o/r/pull/9 --merge', ''),
      ran('gh pr merge --rebase', ''),
      ran(
        'gh pr merge 10 --squash',
        'X Pull request o/r#10 is not mergeable: the merge commit cannot be cleanly created.',
        1,
      ),
    ]);
    expect(effects.map((e) => e.summary)).toEqual([
      'https://github.example.com/o/r/pull/7',
      'https://gitlab.com/g/sub/r/-/merge_requests/3',
      'merged PR #7',
      'enabled auto-merge of PR #8',
      'merged PR #9',
      "merged the current branch's pull request",
    ]);
  });

  it('reads a pull request it queued to merge or opened as merged when a later read shows it merged', () => {
    // entirecontext 39 (SOURCES.md: claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939, lines 36-42 and 934-939)
    const { effects } = findGitEffects([
      ran('gh pr merge 221 --squash --auto', '(Bash completed with no output)'),
      ran('gh pr create --fill', 'https://github.com/o/r/pull/233\n'),
      ran(
        "gh pr view 233 --json state,mergeCommit --jq '{state, mergeCommit: .mergeCommit.oid}'",
        '{"mergeCommit":"2ce9805c1352eb3fb406c79268a5cb0c6ee69510","state":"MERGED"}',
      ),
      ran("gh pr view 221 --json state --jq '.state' 2>/dev/null", 'MERGED'),
      ran("gh pr view 221 --json state --jq '.state'", 'MERGED'),
      // one the session neither opened nor merged: its state is no work of the session's
      ran("gh pr view 222 --json state --jq '.state'", 'MERGED'),
      // gh said it merged before: merged, whatever --auto asked
      ran('gh pr merge 240 --squash --auto', '! Pull request o/r#240 was already merged'),
    ]);
    expect(effects.map((e) => e.summary)).toEqual([
      'enabled auto-merge of PR #221',
      'https://github.com/o/r/pull/233',
      'merged PR #233',
      'merged PR #221',
      'merged PR #240',
    ]);
  });

  it('reads a pull request an earlier import saw queued to merge as merged when these lines show it merged', () => {
    const view = ran("gh pr view 221 --json state --jq '.state' 2>/dev/null", 'MERGED');
    expect(findGitEffects([view], ['enabled auto-merge of PR #221']).effects.map((e) => e.summary)).toEqual([
      'merged PR #221',
    ]);
    // said merged before: not again
    expect(findGitEffects([view], ['enabled auto-merge of PR #221', 'merged PR #221']).effects).toEqual([]);
  });

  it("reads a GitHub MCP server's pull request tools: the created address, the merged number", () => {
    // an MCP tool has no exit code: its failure is the error flag alone
    const mcp = (name: string, input: unknown, output: string, isError = false) => {
      const e = toolResultEntry(name, input, output, isError ? 1 : 0);
      return { ...e, tool: { ...e.tool!, exit_code: null } };
    };
    const { effects } = findGitEffects([
      mcp(
        'mcp__github__create_pull_request',
        { owner: 'o', repo: 'r', title: 'Add cache', head: 'cache', base: 'main' },
        '{"number":41,"html_url":"https://github.com/o/r/pull/41","diff_url":"https://github.com/o/r/pull/41.diff"}',
      ),
      mcp(
        'mcp__github__merge_pull_request',
        { owner: 'o', repo: 'r', pullNumber: 41, merge_method: 'squash' },
        '{"merged":true}',
      ),
      mcp(
        'mcp__github__merge_pull_request',
        { owner: 'o', repo: 'r', pull_number: 42 },
        'Pull Request is not mergeable',
        true,
      ),
    ]);
    expect(effects.map((e) => e.summary)).toEqual(['https://github.com/o/r/pull/41', 'merged PR #41']);
  });

  it('reads a quiet commit from the log or rev-parse the same chain prints, not from an older commit', () => {
    const { commits } = findGitEffects([
      ran(
        'git add -A && git commit -q -m "Add retry to the client" && git log --oneline -1',
        '3c4d5e6 Add retry to the client\n',
      ),
      ran("git commit --quiet -m 'Bump deps' && git rev-parse --short HEAD", '7a8b9c0\n'),
      ran('git commit -q -m "Tidy" && git log --oneline -1', '3c4d5e6 Add retry to the client\n'),
      ran('git commit -q -m "Fix typo" ; git log --oneline -1', '3c4d5e6 Add retry to the client\n'),
      ran(
        'git commit -q -m "Docs" && git rev-parse --short HEAD',
        'nothing to commit, working tree clean',
        1,
      ),
    ]);
    expect(commits.map((c) => [c.hash, c.subject])).toEqual([
      ['3c4d5e6', 'Add retry to the client'],
      ['7a8b9c0', 'Bump deps'],
    ]);
  });

  it('reads a quiet commit with a heredoc message from the full log or show the command prints after it', () => {
    const full = (hash: string, subject: string) =>
      `[COMPLETED] Running tasks for staged files...\ncommit ${hash}\nAuthor: A <a@b.c>\nDate:   Sat Aug 29 17:39:14 2026 -0400\n\n    ${subject}\n    \n    Body line.\n\n package-lock.json | 960 ++++---\n`;
    const { commits } = findGitEffects([
      ran(
        "git add package-lock.json && git commit -q -F - <<'EOF'\nSync package-lock.json with package.json\n\nBody line.\nEOF\ngit --no-pager log -1 --stat",
        full('6309664373d81d6c261b212226fa1df86f90233c', 'Sync package-lock.json with package.json'),
      ),
      ran(
        'git commit -q -m "$(cat <<\'EOF\'\nFix the Dockerfile PATH\n\nBody.\nEOF\n)" && git show --stat HEAD',
        full('a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', 'Fix the Dockerfile PATH'),
      ),
      ran(
        'git add -A && git commit -q -m "chore: add oxlint\n\nCo-Authored-By: A <a@b.c>" && git log --oneline -1',
        '2ac8c00 chore: add oxlint\n',
      ),
      // the commit failed (a hook refused it) and the log, run anyway, shows the commit before it
      ran(
        "git commit -q -F - <<'EOF'\nAdd the cache\nEOF\ngit log -1",
        full('0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6', 'Sync package-lock.json with package.json'),
      ),
    ]);
    expect(commits.map((c) => [c.hash, c.subject])).toEqual([
      ['6309664373d81d6c261b212226fa1df86f90233c', 'Sync package-lock.json with package.json'],
      ['a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', 'Fix the Dockerfile PATH'],
      ['2ac8c00', 'chore: add oxlint'],
    ]);
  });
});

describe('a pull request a Codex code-mode cell opened through an MCP tool', () => {
  it('is read from the tool call Codex records beside the cell: the cell printed only "Action completed."', () => {
    const hk = 'codex/hk/e5/cb0813e003/0/full.jsonl';
    const entries = parseCorpusLines(hk, [1, 161, 162, 163]);
    const mcp = entries.filter((e) => e.tool?.name === 'mcp__codex_apps__github_create_pull_request');
    expect(mcp.map((e) => [e.kind, e.line])).toEqual([
      ['tool_call', 162],
      ['tool_result', 162],
    ]);
    expect(mcp[1]?.tool).toMatchObject({
      is_error: false,
      input: { head_branch: 'codex/fix-no-commit-detached-head' },
    });
    expect(findGitEffects(entries).effects).toContainEqual(
      expect.objectContaining({ kind: 'pr', line: 162, summary: 'https://github.com/jdx/hk/pull/1075' }),
    );
  });
});
