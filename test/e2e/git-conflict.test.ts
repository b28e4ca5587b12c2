import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cliModes, modeEnv } from '../helpers/cli-modes.js';
import { gitIn, makeRepo } from '../helpers/git-repo.js';

for (const mode of cliModes) {
  describe(`an unresolved merge conflict (${mode})`, () => {
    const env = modeEnv(mode);

    it('is said first by baton status (text and JSON) and the briefing, not as plain uncommitted changes', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      expect((await baton('create', '--title', 'Resume test', '--task', 'T1:Fix the test')).code).toBe(0);
      writeFileSync(join(repo, 'resume_test.go'), 'package a\n');
      gitIn(repo, 'add', 'resume_test.go');
      gitIn(repo, 'commit', '-q', '-m', 'test');
      gitIn(repo, 'checkout', '-q', '-b', 'theirs');
      writeFileSync(join(repo, 'resume_test.go'), 'package theirs\n');
      gitIn(repo, 'commit', '-q', '-am', 'theirs');
      gitIn(repo, 'checkout', '-q', 'main');
      // uncommitted work, then the branch pulled in under it: the stash pop stops on the conflict (`UU`)
      writeFileSync(join(repo, 'resume_test.go'), 'package mine\n');
      gitIn(repo, 'stash', '-q');
      gitIn(repo, 'merge', '-q', '--ff-only', 'theirs');
      expect(() => gitIn(repo, 'stash', 'pop')).toThrow();

      const words =
        'unresolved merge conflict in resume_test.go: resolve the markers before committing (`git add` marks a file resolved)';
      const text = (await baton('status')).stdout.split('\n');
      expect(text[1]).toBe(`git: ${words}`);
      expect((await baton('status', '--json')).json<{ git_conflict: unknown }>().git_conflict).toEqual({
        operation: null,
        unmerged: ['resume_test.go'],
        words,
      });
      const briefing = (await baton('context')).stdout;
      const git = briefing.slice(briefing.indexOf('### Git State'));
      expect(git.split('\n')[1]).toBe(`- ${words[0]!.toUpperCase()}${words.slice(1)}`);
      expect(git.split('\n')[2]).toMatch(/^- Branch main at .+, uncommitted changes/);

      // resolved and committed: nothing is said
      writeFileSync(join(repo, 'resume_test.go'), 'package both\n');
      gitIn(repo, 'add', 'resume_test.go');
      gitIn(repo, 'commit', '-q', '-m', 'both');
      expect((await baton('status')).stdout).not.toContain('conflict');
      expect((await baton('status', '--json')).json<{ git_conflict: unknown }>().git_conflict).toBeNull();
      expect((await baton('context')).stdout).not.toContain('conflict');
    });
  });
}
