import { describe, expect, it } from 'vitest';
import { parseClaudeTranscript } from '../../agents/claude-code/transcript.js';
import { parseCodexRollout } from '../../agents/codex/rollout.js';
import { claudeTool, codexShell } from '../../../test/helpers/transcript-lines.js';
import { findFileEffects } from './file-effects.js';

const summaries = (effects: { summary: string }[]) => effects.map((e) => e.summary);
/** A Bash call and its output, as Claude Code writes them. */
const bash = (id: string, command: string, out = '', isError = false) =>
  claudeTool(id, 'Bash', { command }, out, isError);

describe('files created, edited and deleted, as other sessions change them', () => {
  it('reads notebook edits, and no change from an edit that failed or that the user declined', () => {
    const lines = [
      ...claudeTool(
        'n1',
        'NotebookEdit',
        { notebook_path: '/w/analysis.ipynb', cell_id: 'c1', new_source: 'df.describe()' },
        'Updated cell c1 with df.describe()',
      ),
      ...claudeTool(
        'e1',
        'Edit',
        { file_path: '/w/a.py', old_string: 'x', new_string: 'y' },
        '<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>',
        true,
      ),
      ...claudeTool(
        'e2',
        'Write',
        { file_path: '/w/b.py', content: 'y' },
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
        true,
      ),
    ];
    expect(summaries(findFileEffects(parseClaudeTranscript(lines.join('\n')).entries))).toEqual([
      'edited /w/analysis.ipynb',
    ]);
  });

  it('takes `git rm --cached` for untracking (the file stays), `git rm` and `rm` for deleting', () => {
    const lines = [
      ...claudeTool(
        'b1',
        'Bash',
        { command: 'git rm --cached .env && echo .env >> .gitignore' },
        "rm '.env'",
      ),
      ...claudeTool('b2', 'Bash', { command: 'git rm -r --cached node_modules' }, "rm 'node_modules/a.js'"),
      ...claudeTool('b3', 'Bash', { command: 'git rm docs/old.md && rm -f build.log' }, "rm 'docs/old.md'"),
    ];
    expect(summaries(findFileEffects(parseClaudeTranscript(lines.join('\n')).entries))).toEqual([
      'edited .gitignore',
      'deleted docs/old.md',
      'deleted build.log',
    ]);
  });

  it("reads the shell's writes: cp and mv, > and >> redirections, tee; not scratch files, quoted text or heredoc bodies", () => {
    const lines = [
      ...bash('c1', "cat > src/config.ts <<'EOF'\nexport const big = 2 > 1;\nrm -rf build\nEOF"),
      ...bash('c2', 'npm test > /tmp/test.log 2>&1; echo "exit $?" >&2'),
      ...bash('c3', 'cp -r reference/src src && cp reference/Makefile reference/pyproject.toml .'),
      ...bash('c4', 'mv NOTES.md docs/notes.md && echo "- v2: a > b" >> CHANGELOG.md'),
      ...bash('c5', 'git commit -m "fix: a > b" && ls src | tee files.txt'),
      ...bash('c6', 'rm work.db && cp backups/work.db work.db'),
      ...bash('c8', 'cd /private/tmp/scratch && cp ~/db.sqlite dev.db && cd web && mv a.ts b.ts'),
      ...bash('c9', 'cd packages/api && cp ../../.env.example ./.env && rm $TMPFILE'),
      ...bash('c7', 'cp .env.example .env', 'cp: .env.example: No such file or directory\nExit code 1'),
    ];
    expect(summaries(findFileEffects(parseClaudeTranscript(lines.join('\n')).entries))).toEqual([
      'created src/config.ts',
      'created src',
      'created Makefile',
      'created pyproject.toml',
      'deleted NOTES.md',
      'created docs/notes.md',
      'edited CHANGELOG.md',
      'created files.txt',
      'deleted work.db',
      'created work.db',
      'created packages/api/.env',
    ]);
  });

  it('reads subshells, background jobs, `..`, folders, quoted targets, --append and any here-document tag', () => {
    const lines = [
      ...bash('d1', '(cd web && rm old.js)'),
      ...bash('d2', 'cp big.tar backup.tar &'),
      ...bash('d3', 'cd docs && mv README.md ../'),
      ...bash('d4', 'cp -r src/ backup/'),
      ...bash('d5', "cat > setup.sh <<'END-OF-FILE'\nrm -rf src\nEND-OF-FILE"),
      ...bash('d6', 'cat <<\\EOF > notes.txt\nrm -rf lib\nEOF'),
      ...bash('d7', 'echo hi > "notes.md" && ls | tee --append index.md'),
    ];
    expect(summaries(findFileEffects(parseClaudeTranscript(lines.join('\n')).entries))).toEqual([
      'deleted web/old.js',
      'created backup.tar',
      'deleted docs/README.md',
      'created README.md',
      'created backup/src',
      'created setup.sh',
      'created notes.txt',
      'created notes.md',
      'edited index.md',
    ]);
  });

  it('reads the files an inline Python or Node.js script names: written after a read is edited, else created', () => {
    const edit = [
      "python3 - <<'PY'",
      'from pathlib import Path',
      "p = 'src/app.ts'",
      's = open(p).read()',
      "s = s.replace('a', 'b')",
      "open(p, 'w').write(s)",
      "Path('RESUME.md').write_text('# Where we are')",
      "with open('CHANGELOG.md', mode='a') as f: f.write('- fix')",
      "os.remove('old.log')",
      "print(open('README.md').read())",
      'PY',
    ].join('\n');
    const lines = [
      ...bash('p1', edit),
      ...bash(
        'p2',
        `cd web && node -e "const fs = require('fs'); fs.writeFileSync('dist/version.txt', '1.2')"`,
      ),
      ...bash('p3', "python3 -c \"import json; json.dump({}, open('/tmp/scratch.json', 'w'))\""),
      // a path computed at run time is not known; a script on stdin of another program is no script
      ...bash('p4', "python3 - <<'PY'\nfor name in names:\n    open(name + '.md', 'w')\nPY"),
      ...bash('p5', "cat <<'EOF' > gen.py\nopen('out.txt', 'w')\nEOF"),
      ...bash(
        'p6',
        "python3 - <<'PY'\nopen('never.txt', 'w')\nPY",
        'Traceback (most recent call last):\nExit code 1',
        true,
      ),
    ];
    expect(summaries(findFileEffects(parseClaudeTranscript(lines.join('\n')).entries))).toEqual([
      'edited src/app.ts',
      'created RESUME.md',
      'edited CHANGELOG.md',
      'deleted old.log',
      'created web/dist/version.txt',
      'created gen.py',
    ]);
  });

  it("reads Codex's apply_patch run as a shell command (argument or heredoc), a moved file as deleted and created", () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/json-output.ts',
      '+export const json = true;',
      '*** Update File: src/list.ts',
      '*** Move to: src/list-command.ts',
      '@@',
      '-a; rm -rf /',
      '+b',
      '*** Delete File: src/legacy.ts',
      '*** End Patch',
    ].join('\n');
    const lines = [
      ...codexShell(
        'c1',
        ['apply_patch', patch],
        'Success. Updated the following files:\nA src/json-output.ts',
      ),
      ...codexShell(
        'c2',
        [
          'bash',
          '-lc',
          "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: docs/json.md\n+# JSON\n*** End Patch\nPATCH",
        ],
        'Success. Updated the following files:\nA docs/json.md',
      ),
      ...codexShell(
        'c3',
        ['apply_patch', '*** Begin Patch\n*** Update File: src/missing.ts\n@@\n-a\n+b\n*** End Patch'],
        'Failed to find expected lines in src/missing.ts',
        1,
      ),
    ];
    expect(summaries(findFileEffects(parseCodexRollout(lines.join('\n')).entries))).toEqual([
      'created src/json-output.ts',
      'deleted src/list.ts',
      'created src/list-command.ts',
      'deleted src/legacy.ts',
      'created docs/json.md',
    ]);
  });

  it('takes the files a session below the worktree root names relative to its folder there', () => {
    const lines = [
      ...codexShell(
        'c1',
        ['apply_patch', '*** Begin Patch\n*** Add File: clamp.js\n+x\n*** End Patch'],
        'Success.',
      ),
      ...codexShell('c2', ['bash', '-lc', 'rm ../old.js'], ''),
    ];
    const entries = parseCodexRollout(lines.join('\n')).entries;
    expect(summaries(findFileEffects(entries, 'src/lib'))).toEqual([
      'created src/lib/clamp.js',
      'deleted src/old.js',
    ]);
    // at the root, as named
    expect(summaries(findFileEffects(entries))).toEqual(['created clamp.js', 'deleted ../old.js']);
  });

  it("names the files under another machine's folder taken as the worktree's root as the worktree's", () => {
    const lines = [
      ...claudeTool(
        'w1',
        'Write',
        { file_path: '/Users/ana/shop/api/routes.ts', content: 'x' },
        'File created',
      ),
      ...bash('b1', 'rm notes.txt && rm /Users/ana/shop/README.old && rm /opt/other/x.txt'),
    ];
    const entries = parseClaudeTranscript(lines.join('\n')).entries;
    // recorded in /Users/ana/shop/api, a subfolder of the root /Users/ana/shop
    expect(summaries(findFileEffects(entries, 'api', '/Users/ana/shop'))).toEqual([
      'created api/routes.ts',
      'deleted api/notes.txt',
      'deleted README.old',
      'deleted /opt/other/x.txt',
    ]);
    // without a root, as named there
    expect(summaries(findFileEffects(entries, '/Users/ana/shop/api'))).toEqual([
      'created /Users/ana/shop/api/routes.ts',
      'deleted /Users/ana/shop/api/notes.txt',
      'deleted /Users/ana/shop/README.old',
      'deleted /opt/other/x.txt',
    ]);
  });

  it('reads the file_change items of `codex exec --json`, not a failed one', () => {
    const change = (id: string, status: string, changes: { path: string; kind: string }[]) =>
      JSON.stringify({ type: 'item.completed', item: { id, type: 'file_change', changes, status } });
    const lines = [
      JSON.stringify({ type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' }),
      change('item_4', 'completed', [
        { path: '/w/src/cart.ts', kind: 'update' },
        { path: '/w/src/cart.test.ts', kind: 'add' },
        { path: '/w/src/old-cart.ts', kind: 'delete' },
      ]),
      change('item_5', 'failed', [{ path: '/w/src/missing.ts', kind: 'update' }]),
    ];
    expect(summaries(findFileEffects(parseCodexRollout(lines.join('\n')).entries))).toEqual([
      'edited /w/src/cart.ts',
      'created /w/src/cart.test.ts',
      'deleted /w/src/old-cart.ts',
    ]);
  });

  it("reads Anthropic's text editor tool by its command: view reads, create creates, str_replace edits", () => {
    const lines = [
      ...claudeTool(
        'x1',
        'str_replace_based_edit_tool',
        { command: 'view', path: '/w/README.md' },
        '1\t# App',
      ),
      ...claudeTool(
        'x2',
        'str_replace_based_edit_tool',
        { command: 'create', path: '/w/docs/setup.md', file_text: '# Setup' },
        'File created successfully at: /w/docs/setup.md',
      ),
      ...claudeTool(
        'x3',
        'str_replace_editor',
        { command: 'str_replace', path: '/w/README.md', old_str: 'App', new_str: 'The app' },
        'The file /w/README.md has been edited.',
      ),
    ];
    expect(summaries(findFileEffects(parseClaudeTranscript(lines.join('\n')).entries))).toEqual([
      'created /w/docs/setup.md',
      'edited /w/README.md',
    ]);
  });
});
