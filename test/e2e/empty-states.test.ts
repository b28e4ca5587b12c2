import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

/**
 * What a new user meets in a fresh repository before any agent session: the read commands they try first say how work
 * becomes a workflow there, as it is. After `baton init` the next agent session does it (nobody runs `baton create`);
 * before it, `baton init` comes first. The set-up is read from the repository's and the user's files, as `baton
 * doctor` reads it.
 */
const FOLLOWED =
  'Baton follows this repository: start Claude Code here as usual and its session becomes a workflow (`baton doctor` shows what the hooks did)';
const NOT_SET_UP =
  'Baton does not follow this repository yet: run `baton init` here, and the next Claude Code or Codex session started here becomes a workflow (or create one by hand with `baton create`)';

/** Each test runs ten CLI processes or so, each a second or more on a loaded 2-core machine: room to spare. */
const ROOM = 180_000;

/** The commands that name the worktree's workflow: each says there is none, with how one starts. */
const resolving = [['status'], ['context'], ['resume'], ['show'], ['session-info'], ['details', 'decisions']];

function workspace(extra: Record<string, string | undefined> = {}) {
  const repo = makeRepo();
  const env = {
    BATON_HOME: tempDir('baton-home-'),
    HOME: tempDir('baton-user-'),
    CLAUDE_CONFIG_DIR: undefined,
    CODEX_HOME: undefined,
    ...extra,
  };
  const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
  return { repo, env, baton };
}

/** Every read command's empty state in the repository: the error of each command that names a workflow, the lists. */
async function emptyStates(
  baton: (...args: string[]) => ReturnType<typeof runCli>,
  repo: string,
  words: string,
) {
  for (const args of resolving) {
    const r = await baton(...args);
    // no workflow to show is an error, as before (exit 1), said with what to do
    expect(r.code, `baton ${args.join(' ')}: ${r.stderr}`).toBe(1);
    expect(r.stderr.trim()).toBe(`baton: no active workflow in ${repo}; ${words}, or pass -w <id>`);
  }
  for (const [args, head] of [
    [['sessions'], 'no workflows yet'],
    [['list'], 'no workflows yet'],
    [['list', '--here'], 'no workflows here yet'],
  ] as const) {
    const r = await baton(...args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${head}; ${words}`);
  }
}

describe('the empty states of a fresh repository', { timeout: ROOM }, () => {
  it('before `baton init`: run it first (`baton create` the way by hand)', async () => {
    const { repo, baton } = workspace();
    await emptyStates(baton, repo, NOT_SET_UP);
  });

  it('after `baton init`: the next session of the agent it set up becomes a workflow (`claude` not asked)', async () => {
    // a `claude` that notes each time it is started: `baton init` asks its version, the empty states never start it
    const bin = tempDir('baton-bin-');
    const started = join(bin, 'started');
    const script = `#!/bin/sh\necho "$@" >> '${started}'\necho '2.1.90 (Claude Code)'\n`;
    writeFileSync(join(bin, 'claude'), script, { mode: 0o755 });
    const { repo, baton } = workspace({ PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
    const init = await baton('init');
    expect(init.code, init.stderr).toBe(0);
    expect(existsSync(started)).toBe(true);
    rmSync(started);
    await emptyStates(baton, repo, FOLLOWED);
    expect(existsSync(started)).toBe(false);
  });

  it('after `baton init --undo`: `baton init` first again (the files say it, not a record that init once ran)', async () => {
    const { repo, baton } = workspace();
    expect((await baton('init')).code).toBe(0);
    expect((await baton('init', '--undo')).code).toBe(0);
    await emptyStates(baton, repo, NOT_SET_UP);
  });

  it('in a worktree added after `baton init`: names the worktree it set up, not "does not follow this repository"', async () => {
    const { repo, env, baton } = workspace();
    expect((await baton('init')).code).toBe(0);
    const added = join(tempDir('baton-worktree-'), 'feature');
    gitIn(repo, 'worktree', 'add', '-q', added, '-b', 'feature');
    const there = (...args: string[]) => runCli(args, { cwd: added, env });
    await emptyStates(
      there,
      added,
      `Baton follows this repository in ${repo}, not in this worktree (\`baton init\` ran before it was added, and the files it writes are not committed): run \`baton init\`, which sets up every worktree of the repository, and the next Claude Code or Codex session started here becomes a workflow (or create one by hand with \`baton create\`)`,
    );
  });

  it('names the agent `baton init` set up (Codex), and says when auto_track keeps its sessions from becoming workflows', async () => {
    const { repo, baton } = workspace();
    expect((await baton('init', '--agent', 'codex')).code).toBe(0);
    const codex = await baton('status');
    expect(codex.stderr).toContain(
      `no active workflow in ${repo}; Baton follows this repository: start Codex here as usual and its session becomes a workflow`,
    );
    const { baton: quiet, repo: quietRepo } = workspace({ BATON_AUTO_TRACK: 'off' });
    expect((await quiet('init')).code).toBe(0);
    expect((await quiet('sessions')).stdout.trim()).toBe(
      "no workflows yet; Baton's hooks are wired here for Claude Code, but auto_track is off, so they follow only workflows made with `baton create` (set auto_track to on in baton.config.json or BATON_AUTO_TRACK for every session to become one)",
    );
    expect((await quiet('status')).stderr).toContain(
      `no active workflow in ${quietRepo}; Baton's hooks are wired here`,
    );
  });
});

describe('the empty states over a Baton server (BATON_URL)', { timeout: ROOM }, () => {
  const { repo, env, baton } = workspace();
  let server: ServerProcess | null = null;
  beforeAll(async () => {
    server = await startServerProcess(env.BATON_HOME);
    Object.assign(env, { BATON_URL: server.url, BATON_TOKEN: server.token });
  });
  afterAll(async () => server?.stop());

  it('the server cannot see whether `baton init` ran here: the words hold either way, and name `baton doctor`', async () => {
    expect((await baton('init')).code).toBe(0);
    await emptyStates(
      baton,
      repo,
      'after `baton init` (`baton doctor` says whether it set this repository up) the next agent session here creates one, or create one with `baton create`',
    );
  });
});
