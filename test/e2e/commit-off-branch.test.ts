import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, headOf, makeRepo, tempDir } from '../helpers/git-repo.js';

// A session that committed on main, had its push rejected, made a branch of the commit and reset main to the remote's
// commit: its commit is no longer on main. The briefing must not list it as done on main, or the next agent believes
// it landed.

type Json = Record<string, any>;

/** A Claude Code transcript of Bash calls, each with its result, ten minutes ago. */
function transcript(cwd: string, calls: [string, string][]): string {
  const path = join(tempDir('baton-transcript-'), 'session.jsonl');
  let at = Date.now() - 10 * 60_000;
  const line = (type: string, message: Json) =>
    JSON.stringify({
      type,
      timestamp: new Date((at += 1000)).toISOString(),
      sessionId: '5a1e0000-0000-4000-8000-0000000000b1',
      cwd,
      message,
    });
  const lines = [line('user', { role: 'user', content: 'Add a parser and push it' })];
  calls.forEach(([command, result], i) => {
    const id = `toolu-${i}`;
    lines.push(
      line('assistant', {
        id: `m${i}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
      }),
      line('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] }),
    );
  });
  lines.push(
    line('assistant', {
      id: 'm-end',
      role: 'assistant',
      content: [{ type: 'text', text: 'Parser committed.' }],
    }),
  );
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A real commit of one new file: git's `[main 1a2b3c4] subject` line and the whole hash. */
function commit(repo: string, file: string, subject: string) {
  writeFileSync(join(repo, file), `${subject}\n`);
  gitIn(repo, 'add', file);
  const output = gitIn(repo, 'commit', '-m', subject);
  return { output, hash: headOf(repo), short: headOf(repo).slice(0, 7) };
}

const doneLines = (text: string) =>
  (/### Already Done \(do not redo\)\n((?:.*\n)*?)\n/.exec(text)?.[1] ?? '').match(/^ {2}- commit .*$/gm);

describe("a reported commit HEAD's history no longer holds", () => {
  it('is said to be off main, on the branch made from it, then on no branch; one on main is not flagged', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-') };
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    const remote = headOf(repo);
    const parser = commit(repo, 'parser.js', 'Add parser');
    gitIn(repo, 'branch', 'save-parser');
    const reset = gitIn(repo, 'reset', '--hard', remote);
    const docs = commit(repo, 'docs.md', 'Add docs');
    const path = transcript(repo, [
      ['git add parser.js && git commit -m "Add parser"', parser.output],
      [
        'git push origin main',
        ' ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs',
      ],
      ['git branch save-parser', ''],
      ['git reset --hard origin/main', reset],
      ['git add docs.md && git commit -m "Add docs"', docs.output],
    ]);
    const imported = await baton('import', path);
    expect(imported.code, imported.stderr).toBe(0);

    const text = (await baton('context')).stdout;
    expect(doneLines(text)).toEqual([
      `  - commit ${parser.short} Add parser (not on main now: only on branch save-parser)`,
      `  - commit ${docs.short} Add docs`,
    ]);
    const json = (await baton('context', '--json')).json<Json>();
    const commits = json.json.already_done.commits as Json[];
    expect(commits.map((c) => [c.hash, c.not_on ?? null])).toEqual([
      [parser.short, { branch: 'main', on_branches: ['save-parser'] }],
      [docs.short, null],
    ]);

    // the branch deleted after a snapshot (HEAD did not move): the commit is on no branch at all, said at once
    expect((await baton('checkpoint', '--name', 'parser-saved')).code).toBe(0);
    gitIn(repo, 'branch', '-D', 'save-parser');
    expect(doneLines((await baton('context')).stdout)).toEqual([
      `  - commit ${parser.short} Add parser (not on main now: on no branch, reset away or rewritten)`,
      `  - commit ${docs.short} Add docs`,
    ]);
  });
});
