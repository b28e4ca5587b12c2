import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addExclude, gitPath, gitStandingOf, gitStandings, standingLookup } from './git-exclude.js';

const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'baton-exclude-')));
const git = (root: string, ...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });

/** A repository: a committed file, one its exclude file lists, a folder with a committed file, one of neither. */
function repository() {
  const root = folder();
  git(root, 'init', '-q');
  mkdirSync(join(root, '.claude'));
  for (const f of ['CLAUDE.md', 'AGENTS.md', 'my file.md', '.claude/settings.json'])
    writeFileSync(join(root, f), 'x');
  git(root, 'add', 'CLAUDE.md', '.claude/settings.json');
  writeFileSync(join(root, '.git', 'info', 'exclude'), '/AGENTS.md\n');
  return root;
}

describe('gitPath', () => {
  it('asks git once per folder and path: the answer is kept, a failure is not', () => {
    const root = repository();
    const info = gitPath(root, 'info');
    expect(info).toBe(join(root, '.git', 'info'));
    // git would no longer find the repository: the answer kept is given
    renameSync(join(root, '.git'), join(root, 'moved'));
    expect(gitPath(root, 'info')).toBe(info);
    expect(gitPath(root, 'info/exclude')).toBeNull();
    renameSync(join(root, 'moved'), join(root, '.git'));
    expect(gitPath(root, 'info/exclude')).toBe(join(root, '.git', 'info', 'exclude'));
  });
});

describe('gitStandings', () => {
  it('says of many files at once what asking each says: tracked, ignored or neither', () => {
    const root = repository();
    const paths = ['CLAUDE.md', 'AGENTS.md', 'my file.md', '.claude', '.claude/settings.json', 'none.md'].map(
      (f) => join(root, f),
    );
    const said = Object.fromEntries(paths.map((p) => [p, gitStandingOf(root, p)]));
    expect(Object.fromEntries(gitStandings(root, paths)!)).toEqual(said);
    expect(Object.values(said)).toEqual([
      'tracked',
      'ignored',
      'untracked',
      'tracked',
      'tracked',
      'untracked',
    ]);
    // only what git tracks asked: the others are all untracked
    expect(gitStandings(root, paths, false)!.get(join(root, 'AGENTS.md'))).toBe('untracked');
  });

  it('a file outside the repository, which git refuses, leaves the answers for the others as they are', () => {
    const root = repository();
    const outside = join(folder(), 'CLAUDE.md');
    const standings = gitStandings(root, [join(root, 'CLAUDE.md'), outside, join(root, 'AGENTS.md')])!;
    expect([...standings.values()]).toEqual(['tracked', 'untracked', 'ignored']);
  });

  it('is null outside a repository', () => {
    const root = folder();
    expect(gitStandings(root, [join(root, 'CLAUDE.md')])).toBeNull();
    expect(gitStandingOf(root, join(root, 'CLAUDE.md'))).toBeNull();
  });
});

describe('standingLookup', () => {
  it('asks git at the first question and keeps its answers, a file not asked ahead on its own', () => {
    const root = repository();
    const standing = standingLookup(root, [join(root, 'AGENTS.md'), join(root, 'my file.md')]);
    expect(standing(join(root, 'my file.md'))).toBe('untracked');
    // an exclude line written after the first question: the answer kept stands (the caller writes none)
    addExclude(root, join(root, 'my file.md'));
    expect(standing(join(root, 'my file.md'))).toBe('untracked');
    expect(gitStandingOf(root, join(root, 'my file.md'))).toBe('ignored');
    expect(standing(join(root, 'CLAUDE.md'))).toBe('tracked');
    expect(standingLookup(folder(), [])(join(root, 'CLAUDE.md'))).toBeNull();
  });
});
