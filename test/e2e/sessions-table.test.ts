import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/display-width.js';
import { runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

type Json = Record<string, any>;

/** The display column `text` starts at in `line` (after a space: never inside an id or a title). */
const column = (line: string, text: string) => displayWidth(line.slice(0, line.indexOf(` ${text}`))) + 1;

describe('baton sessions: the branch and worktree of each row, lined up by display width', () => {
  it('a Korean title keeps the columns in line; a second worktree adds WORKTREE, each row its branch', async () => {
    const repo = makeRepo();
    const linked = join(tempDir('baton-wt-'), 'repo-login');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'feature/login-page', linked);
    const env = { BATON_HOME: tempDir('baton-home-'), BATON_URL: undefined, BATON_DATABASE_URL: undefined };
    const baton = (cwd: string, ...args: string[]) => runCli(args, { cwd, env });
    const korean = '로그인 페이지 추가';
    const here = (await baton(repo, 'create', '--title', korean, '--task', 'A:one', '--json')).json<Json>()
      .id;
    // one worktree, its main checkout: the branch, no WORKTREE column
    const alone = await baton(repo, 'sessions');
    expect(alone.code, alone.stderr).toBe(0);
    const [head1, , row1] = alone.stdout.trim().split('\n');
    expect(head1).toMatch(/^# +WORKFLOW +TOPIC +BRANCH +STEP +STATUS +SESSIONS +UPDATED +RESUMABLE$/);
    expect(row1).toMatch(
      new RegExp(`^1 +${here} +${korean} +main +0/1 +pending +1 +(?:just now|\\S+ ago) +not started$`),
    );

    const there = (
      await baton(linked, 'create', '--title', 'Fix 🚀 launch', '--task', 'A:one', '--json')
    ).json<Json>().id;
    const both = await baton(linked, 'sessions');
    expect(both.code, both.stderr).toBe(0);
    const lines = both.stdout.trim().split('\n');
    const header = lines[0]!;
    expect(header).toMatch(/ BRANCH +WORKTREE +STEP /);
    const rowOf = (id: string) => lines.find((l) => l.includes(id))!;
    expect(rowOf(here)).toMatch(/ main +\S+ +0\/1 /);
    expect(rowOf(there)).toMatch(/ feature\/login-page +repo-login +0\/1 /);
    // every cell starts under its header, wide characters and emoji counted as the two columns they take
    for (const id of [here, there])
      for (const [word, cell] of [
        ['STEP', '0/1'],
        ['STATUS', 'pending'],
        ['RESUMABLE', 'not started'],
      ] as const)
        expect(column(rowOf(id), cell), `${id} ${word}`).toBe(column(header, word));

    // `baton list` pads with the same table: its BRANCH column in line under the Korean title too
    const list = (await baton(linked, 'list')).stdout.trim().split('\n');
    for (const [id, branch] of [
      [here, 'main'],
      [there, 'feature/login-page'],
    ] as const)
      expect(
        column(
          list.find((l) => l.includes(id))!,
          branch,
        ),
        id,
      ).toBe(column(list[0]!, 'BRANCH'));

    const json = (await baton(linked, 'sessions', '--json')).json<Json>();
    const byId = Object.fromEntries(json.sessions.map((r: Json) => [r.id, r]));
    expect(byId[here]).toMatchObject({ branch: 'main', worktree: repo, topic: korean });
    expect(byId[there]).toMatchObject({ branch: 'feature/login-page', worktree: linked });
  });
});
