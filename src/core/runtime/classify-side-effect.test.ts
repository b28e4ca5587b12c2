import { describe, expect, it } from 'vitest';
import { classifySideEffects, type ToolAction } from './classify-side-effect.js';

const call = (name: string, input: unknown, output = ''): ToolAction => ({
  name,
  input,
  is_error: null,
  output,
});

describe('side effects of completed tool actions', () => {
  it("takes Anthropic's text editor tool for a write unless it only viewed the file", () => {
    const editor = (command: string) =>
      call('str_replace_based_edit_tool', { command, path: '/w/README.md' });
    expect(classifySideEffects(editor('view'), '/w')).toEqual([]);
    expect(classifySideEffects(editor('str_replace'), '/w')).toEqual([
      { kind: 'file_write', summary: 'edited README.md' },
    ]);
    expect(
      classifySideEffects(call('str_replace_editor', { command: 'create', path: '/w/a.md' }), '/w'),
    ).toEqual([{ kind: 'file_write', summary: 'created a.md' }]);
  });

  it("says Claude Code's Write and Edit as created and edited, relative to the worktree; a path outside it stays whole", () => {
    const write = (path: string, said: string) => call('Write', { file_path: path, content: 'x' }, said);
    expect(
      classifySideEffects(
        write('/tmp/run3/work-T1.txt', 'File created successfully at: /tmp/run3/work-T1.txt'),
        '/tmp/run3/',
      ),
    ).toEqual([{ kind: 'file_write', summary: 'created work-T1.txt' }]);
    expect(
      classifySideEffects(
        write('/tmp/run3/src/a.ts', "The file /tmp/run3/src/a.ts has been updated. Here's the result..."),
        '/tmp/run3',
      ),
    ).toEqual([{ kind: 'file_write', summary: 'edited src/a.ts' }]);
    expect(
      classifySideEffects(
        call('Edit', { file_path: '/home/u/.config/app.toml', old_string: 'a', new_string: 'b' }),
        '/tmp/run3',
      ),
    ).toEqual([{ kind: 'file_write', summary: 'edited /home/u/.config/app.toml' }]);
    // a worktree whose name begins another's is not the other's parent
    expect(classifySideEffects(call('Edit', { file_path: '/tmp/run30/a.ts' }), '/tmp/run3')).toEqual([
      { kind: 'file_write', summary: 'edited /tmp/run30/a.ts' },
    ]);
  });

  it('names each file a Codex file_change item lists, by its change, and each file of an apply_patch', () => {
    const changes = [
      { path: '/w/src/cart.ts', kind: 'update' },
      { path: '/w/src/cart.test.ts', kind: 'add' },
      { path: '/w/src/old-cart.ts', kind: 'delete' },
    ];
    expect(classifySideEffects(call('apply_patch', { changes }), '/w').map((e) => e.summary)).toEqual([
      'edited src/cart.ts',
      'created src/cart.test.ts',
      'deleted src/old-cart.ts',
    ]);
    const patch =
      '*** Begin Patch\n*** Add File: docs/a.md\n+# A\n*** Update File: src/b.ts\n@@\n-x\n+y\n*** End Patch';
    expect(classifySideEffects(call('apply_patch', patch), '/w').map((e) => e.summary)).toEqual([
      'created docs/a.md',
      'edited src/b.ts',
    ]);
    // a call that names no file records nothing, rather than a write of no file
    expect(classifySideEffects(call('apply_patch', { changes: [] }), '/w')).toEqual([]);
  });

  it('says a commit by the hash and subject git printed, or a quiet one by what the same command showed', () => {
    const commit = (output: string, command = 'git add -A && git commit -m "Add the cart"') =>
      classifySideEffects(call('Bash', { command }, output));
    expect(commit('[main 4f02117] Add the cart\n 2 files changed, 10 insertions(+)')).toEqual([
      { kind: 'commit', summary: '4f02117 Add the cart' },
    ]);
    expect(commit('[main (root-commit) 9a1b2c3] First\n', 'git commit -m First')).toEqual([
      { kind: 'commit', summary: '9a1b2c3 First' },
    ]);
    // an amend replaces a commit recorded before: the context finds which
    expect(commit('[main 5d6e7f8] Add the cart\n', 'git commit --amend --no-edit')).toEqual([
      { kind: 'commit', summary: '5d6e7f8 Add the cart (amends an earlier commit)' },
    ]);
    // `git commit -q` prints nothing: the log the same command printed says which commit it made
    expect(
      commit(
        '4f02117 Add the cart\n',
        'git add -A && git commit -q -m "Add the cart" && git log --oneline -1',
      ),
    ).toEqual([{ kind: 'commit', summary: '4f02117 Add the cart' }]);
    expect(commit('4f02117\n', 'git commit -q -m "Add the cart" && git rev-parse --short HEAD')).toEqual([
      { kind: 'commit', summary: '4f02117 Add the cart' },
    ]);
    // `-qm`: the quiet flag and the message run together, as agents often write them
    expect(
      commit('d005b06 T2: part 1\n', 'git add T2.txt && git commit -qm "T2: part 1" && git log --oneline -1'),
    ).toEqual([{ kind: 'commit', summary: 'd005b06 T2: part 1' }]);
    // an older commit the log shows is not this one; a quiet commit nothing showed is none (git's own log has it)
    expect(commit('1a2b3c4 Earlier work\n', 'git commit -q -m "Add the cart"; git log --oneline -1')).toEqual(
      [],
    );
    expect(commit('', 'git commit -q -m "Add the cart"')).toEqual([]);
    // a program that prints such a line made no commit
    expect(classifySideEffects(call('Bash', { command: 'npm test' }, '[main 4f02117] Add the cart'))).toEqual(
      [],
    );
    // a commit git printed was made, whatever failed after it in the same command
    expect(
      classifySideEffects({
        ...call(
          'Bash',
          { command: 'git commit -m x && npm test' },
          '[main 4f02117] x\nnpm ERR! Test failed.',
        ),
        is_error: true,
      }),
    ).toEqual([{ kind: 'commit', summary: '4f02117 x' }]);
  });

  it('says the files a shell command changed, as the import does: rm, mv, redirections, relative to the worktree', () => {
    const bash = (command: string, is_error: boolean | null = null) =>
      classifySideEffects({ ...call('Bash', { command }), is_error }, '/w');
    expect(bash('rm a.txt && mv b.txt c.txt')).toEqual([
      { kind: 'file_write', summary: 'deleted a.txt' },
      { kind: 'file_write', summary: 'deleted b.txt' },
      { kind: 'file_write', summary: 'created c.txt' },
    ]);
    expect(bash('cd /w/docs && echo "# Notes" > notes.md && cat notes.md | tee -a /w/log.md')).toEqual([
      { kind: 'file_write', summary: 'created docs/notes.md' },
      { kind: 'file_write', summary: 'edited log.md' },
    ]);
    expect(
      bash(
        "python3 - <<'PY'\nfrom pathlib import Path\np = Path('src/a.py')\ns = p.read_text()\np.write_text(s)\nPY",
      ),
    ).toEqual([{ kind: 'file_write', summary: 'edited src/a.py' }]);
    // a command wrapped in its shell launcher, as Codex's `exec --json` reports it (`bash -lc '...'`)
    expect(bash("/bin/bash -lc 'rm a.txt && echo '\\''x'\\'' > b.txt'")).toEqual([
      { kind: 'file_write', summary: 'deleted a.txt' },
      { kind: 'file_write', summary: 'created b.txt' },
    ]);
    expect(
      classifySideEffects(call('exec_command', { command: 'bash -lc "git rm -q README.md"' }), '/w'),
    ).toEqual([{ kind: 'file_write', summary: 'deleted README.md' }]);
    // scratch space, a quoted `>`, a failed command: no work of the session's
    expect(bash('npm test > /tmp/test.log 2>&1 && git commit -m "a > b"')).toEqual([]);
    expect(bash('rm a.txt', true)).toEqual([]);
    // Codex's exec_command, its command as an argv, and a patch it hands to apply_patch
    const patch = '*** Begin Patch\n*** Add File: docs/a.md\n+# A\n*** End Patch';
    expect(
      classifySideEffects(call('exec_command', { command: ['apply_patch', patch] }), '/w').map(
        (e) => e.summary,
      ),
    ).toEqual(['created docs/a.md']);
  });

  it("reads a Codex code-mode cell's commands, unless its output has them apart as calls of their own", () => {
    const cell = 'const r = await tools.exec_command({ cmd: "rm old.txt" });\ntext(r.output);';
    expect(classifySideEffects(call('exec', cell), '/w')).toEqual([
      { kind: 'file_write', summary: 'deleted old.txt' },
    ]);
    expect(classifySideEffects({ ...call('exec', cell), commands_apart: true }, '/w')).toEqual([]);
  });

  it("says pushes, pull requests, merges and branches in the import's words", () => {
    const ran = (command: string, output: string) => classifySideEffects(call('Bash', { command }, output));
    expect(ran('git push origin main', 'To github.com:o/r.git\n   1a2b3c4..5d6e7f8  main -> main\n')).toEqual(
      [{ kind: 'push', summary: 'pushed main -> main (up to 5d6e7f8)' }],
    );
    expect(
      ran(
        'git push --force-with-lease',
        'To github.com:o/r.git\n + 00fb9c4...283c50a fix -> fix (forced update)\n',
      ),
    ).toEqual([{ kind: 'push', summary: 'force-pushed fix -> fix (283c50a, replacing 00fb9c4)' }]);
    expect(
      ran(
        'git push -u origin feat',
        "remote:\nTo github.com:o/r.git\n * [new branch]      feat -> feat\nbranch 'feat' set up to track 'origin/feat'.",
      ),
    ).toEqual([{ kind: 'push', summary: 'pushed feat -> feat' }]);
    // a quiet push names no ref: its words do, in a chain as well; with no refspec, the command is said
    expect(
      ran(
        "git add -A && git commit -qm 'Add count helper' && git push -q origin main 2>&1 && git log --oneline -1",
        '23354e0 Add count helper',
      ),
    ).toEqual([
      { kind: 'commit', summary: '23354e0 Add count helper' },
      { kind: 'push', summary: 'pushed main -> main' },
    ]);
    expect(ran('git push --quiet -o ci.skip origin HEAD:release', '')).toEqual([
      { kind: 'push', summary: 'pushed HEAD -> release' },
    ]);
    expect(ran('git push -q && echo ok', 'ok')).toEqual([{ kind: 'push', summary: 'pushed git push -q' }]);
    // forced, deleted, or words the shell expands: said as they are
    expect(ran('git push -q --force origin main', '')).toEqual([
      { kind: 'push', summary: 'force-pushed main -> main' },
    ]);
    expect(ran('git push -q origin +fix', '')).toEqual([
      { kind: 'push', summary: 'force-pushed fix -> fix' },
    ]);
    expect(ran('git push -q origin --delete feature', '')).toEqual([
      { kind: 'push', summary: 'deleted the remote branch feature' },
    ]);
    expect(ran('git push -q origin "$(git branch --show-current)"', '')).toEqual([
      { kind: 'push', summary: 'pushed git push -q origin "$(git branch --show-current)"' },
    ]);
    expect(ran('git push -q origin HEAD', '')).toEqual([
      { kind: 'push', summary: 'pushed git push -q origin HEAD' },
    ]);
    // rejected, a dry run, nothing to push: nothing pushed
    expect(
      ran('git push', ' ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs'),
    ).toEqual([]);
    expect(ran('git push --dry-run', 'To github.com:o/r.git\n   1a2b3c4..5d6e7f8  main -> main')).toEqual([]);
    expect(ran('git push', 'Everything up-to-date')).toEqual([]);
    expect(
      ran(
        'gh pr create --fill',
        'Creating pull request for feat into main\n\nhttps://github.com/o/r/pull/7\n',
      ),
    ).toEqual([{ kind: 'pr', summary: 'https://github.com/o/r/pull/7' }]);
    expect(ran('gh pr merge 7 --squash', '✓ Squashed and merged pull request o/r#7 (Add the cart)')).toEqual([
      { kind: 'pr', summary: 'merged PR #7' },
    ]);
    expect(ran('gh pr merge --auto --squash', '')).toEqual([
      { kind: 'pr', summary: "enabled auto-merge of the current branch's pull request" },
    ]);
    expect(ran('git checkout -b feat/cart', "Switched to a new branch 'feat/cart'")).toEqual([
      { kind: 'other', summary: 'created the branch feat/cart' },
    ]);
    expect(ran('git checkout -b feat/cart', "fatal: a branch named 'feat/cart' already exists")).toEqual([]);
    expect(
      classifySideEffects(
        call('mcp__github__merge_pull_request', { owner: 'o', repo: 'r', pull_number: 8 }, '{}'),
      ),
    ).toEqual([{ kind: 'pr', summary: 'merged PR #8' }]);
    // a migration the import does not read keeps its command
    expect(ran('npx prisma migrate deploy', 'All migrations have been successfully applied.')).toEqual([
      { kind: 'migration', summary: 'npx prisma migrate deploy' },
    ]);
  });
});
