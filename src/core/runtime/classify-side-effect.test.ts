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
    expect(classifySideEffects(call('Bash', { command: 'git push origin main' }))[0]?.kind).toBe('push');
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

  it('says a commit by the hash and subject git printed, and by its command when git printed none', () => {
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
    expect(commit('', 'git commit -qm "Add the cart"')).toEqual([
      { kind: 'commit', summary: 'git commit -qm "Add the cart"' },
    ]);
    // a program that prints such a line made no commit
    expect(classifySideEffects(call('Bash', { command: 'npm test' }, '[main 4f02117] Add the cart'))).toEqual(
      [],
    );
    expect(
      classifySideEffects({
        ...call('Bash', { command: 'git commit -m x' }, '[main 4f02117] x'),
        is_error: true,
      }),
    ).toEqual([]);
  });
});
