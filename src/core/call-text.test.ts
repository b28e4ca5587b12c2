import { describe, expect, it } from 'vitest';
import { describeCall, oneLineCommand } from './call-text.js';

describe('a tool call in one line', () => {
  it('names what the call acts on, never its whole input', () => {
    expect(describeCall('Bash', { command: 'npm test', description: 'Run the tests' })).toBe(
      'Bash: npm test',
    );
    const write = { file_path: 'src/a.ts', content: 'export const a = 1;\n'.repeat(50) };
    expect(describeCall('Write', write)).toBe('Write: src/a.ts');
    expect(describeCall('shell', { command: ['bash', '-lc', 'ls'] })).toBe('shell: bash -lc ls');
    expect(describeCall('TodoWrite', { todos: [{ content: 'x', status: 'pending' }] })).toBe('TodoWrite');
  });

  it("reads a free-form input (Codex's apply_patch) by the first file it names, a code-mode cell by its commands, else its first line", () => {
    const patch = '*** Begin Patch\n*** Update File: src/cli.rs\n@@\n-a\n+b\n*** End Patch';
    expect(describeCall('apply_patch', patch)).toBe('apply_patch: src/cli.rs');
    // a cell that holds its patch in a string (codex/hk e5): its escaped lines, every file counted
    const held =
      'const patch = "*** Begin Patch\\n*** Update File: /w/hk/src/util.rs\\n@@\\n-a\\n+b\\n*** Add File: /w/hk/src/git.rs\\n+x\\n*** End Patch";\nawait tools.apply_patch(patch);';
    expect(describeCall('exec', held)).toBe('exec: /w/hk/src/util.rs (and 1 more)');
    expect(describeCall('note', '  remember this\nand that')).toBe('note: remember this');
    expect(describeCall(null, '')).toBe('tool');
    const cell =
      'const r = await tools.exec_command({cmd:"gh pr checks 1075 --watch","workdir":"/w/hk","yield_time_ms":10000});\ntext(r.output)';
    expect(describeCall('exec', cell)).toBe('exec: gh pr checks 1075 --watch');
    const two =
      'await Promise.all([tools.exec_command({cmd:"git status --short"}), tools.exec_command({cmd:"grep -n \\"x\\" a.rs"})])';
    expect(describeCall('exec', two)).toBe('exec: git status --short ; grep -n "x" a.rs');
    // its key quoted, as JSON writes it, or after other keys (codex/entirecontext 7H)
    const quoted =
      'const r = await tools.exec_command({"cmd":"sed -n \'1,240p\' SKILL.md","workdir":"/w","yield_time_ms":10000});';
    expect(describeCall('exec', quoted)).toBe("exec: sed -n '1,240p' SKILL.md");
    expect(describeCall('exec', 'await tools.exec_command({ workdir: "/w", "cmd": "npm test" })')).toBe(
      'exec: npm test',
    );
  });
});

describe('oneLineCommand', () => {
  it('joins separate lines with "; " and continued ones with a space', () => {
    expect(oneLineCommand('git status --short\nhk fix -S pkl-format\n\ngit diff --check')).toBe(
      'git status --short; hk fix -S pkl-format; git diff --check',
    );
    expect(oneLineCommand('cargo test \\\n  --workspace \\\n  -- --nocapture')).toBe(
      'cargo test --workspace -- --nocapture',
    );
    expect(oneLineCommand('npm run build &&\n  npm test\n  | tail -5')).toBe(
      'npm run build && npm test | tail -5',
    );
    expect(oneLineCommand('if [ -x bin/app ]; then\n  bin/app\nelse\n  make\nfi')).toBe(
      'if [ -x bin/app ]; then bin/app; else make; fi',
    );
    expect(oneLineCommand('npm test')).toBe('npm test');
    // a subshell or a substitution closed on a line of its own (a commit message's here-document before it)
    expect(oneLineCommand('git commit -m "$(cat <<\'EOF\' Fix it EOF\n)"\ngit push')).toBe(
      'git commit -m "$(cat <<\'EOF\' Fix it EOF )"; git push',
    );
    expect(oneLineCommand('(\n  cd web\n  npm test\n)')).toBe('( cd web; npm test )');
  });
});
