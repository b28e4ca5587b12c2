import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn, makeRepo, tempDir } from '../../test/helpers/git-repo.js';
import { makeService, sqliteStore } from '../../test/helpers/service.js';
import type { BatonService } from './baton-service.js';

const claude = (session_id: string) => ({ name: 'claude-code', session_id });

/** A new conversation's session start (SessionStart, source `startup`), as the hooks make it. */
const freshStart = (svc: BatonService, cwd: string, session: string) =>
  svc.agentSessions.start({
    cwd,
    agent: claude(session),
    auto_track: true,
    resume: true,
    max_chars: 4000,
    reason: 'startup',
    fresh_start: true,
  });

/** Deletes the repository and makes another one at the same path (`rm -rf repo; git init repo`), with a commit. */
function makeAgain(repo: string) {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo);
  gitIn(repo, 'init', '-q', '-b', 'main');
  gitIn(repo, 'config', 'user.email', 'test@baton.invalid');
  gitIn(repo, 'config', 'user.name', 'Baton Test');
  writeFileSync(join(repo, 'other.txt'), 'another project\n');
  gitIn(repo, 'add', '.');
  gitIn(repo, 'commit', '-q', '-m', 'another project');
}

/** A workflow of `repo` with a task under way, followed by a session of its own. */
async function oldProject(svc: BatonService, repo: string) {
  const old = await svc.create({ title: 'Old project', tasks: [{ id: 'T1', title: 'Old task' }], cwd: repo });
  await svc.startTask({ workflowId: old.id }, 'T1');
  await freshStart(svc, repo, 'first');
  return old.id;
}

describe('a repository deleted and made again at the same path', () => {
  it('sets the old workflow aside (paused, resumable) and a new conversation gets a workflow of its own', async () => {
    const repo = makeRepo();
    const store = sqliteStore();
    const svc = makeService(store);
    const old = await oldProject(svc, repo);
    makeAgain(repo);

    const t = await freshStart(svc, repo, 'second');
    expect(t.outcome).toBe('created');
    expect(t.workflow_id).not.toBe(old);
    expect(t.context).toBeNull();
    expect(t.set_aside).toEqual([
      {
        workflow_id: old,
        title: 'Old project',
        status: 'paused',
        reason: expect.stringMatching(
          /^the repository at .* is not the one it followed: the commit it recorded/,
        ),
      },
    ]);
    const paused = await store.loadState(old);
    expect(paused?.pause_reason).toBe(t.set_aside[0]?.reason);
    // a command without an id (`baton status` in the repository) means this repository's workflow, not asks which
    expect((await svc.resolve({ cwd: repo })).id).toBe(t.workflow_id);
    expect((await svc.resolve({ workflowId: old })).status).toBe('paused');

    // the next conversation follows the new workflow and says nothing more of the old one
    const next = await freshStart(svc, repo, 'third');
    expect(next.workflow_id).toBe(t.workflow_id);
    expect(next.set_aside).toEqual([]);
    expect((await store.loadState(old))?.status).toBe('paused');
  });

  it('continues the old workflow when the user resumes it and checkpoints it in the new repository', async () => {
    const repo = makeRepo();
    const svc = makeService(sqliteStore());
    const old = await oldProject(svc, repo);
    makeAgain(repo);
    const t = await freshStart(svc, repo, 'second');
    // what the user is told to do when it is that work after all
    await svc.abandon({ workflowId: t.workflow_id ?? '' });
    await svc.resume({ workflowId: old });
    await svc.checkpoint({ workflowId: old }, 'here');
    const next = await freshStart(svc, repo, 'third');
    expect(next.workflow_id).toBe(old);
    expect(next.set_aside).toEqual([]);
  });

  it("still asks which one when two incomplete workflows are both this repository's", async () => {
    const repo = makeRepo();
    const svc = makeService(sqliteStore());
    await oldProject(svc, repo);
    await svc.create({ title: 'Second piece of work', tasks: [], cwd: repo });
    await expect(svc.resolve({ cwd: repo })).rejects.toMatchObject({ code: 'ambiguous' });
  });

  it('is the same repository when it holds the recorded commits (cloned again)', async () => {
    const repo = makeRepo();
    const svc = makeService(sqliteStore());
    const old = await oldProject(svc, repo);
    const copy = join(tempDir(), 'copy');
    execFileSync('git', ['clone', '-q', repo, copy]);
    rmSync(repo, { recursive: true, force: true });
    execFileSync('git', ['clone', '-q', copy, repo]);
    const t = await freshStart(svc, repo, 'second');
    expect(t.workflow_id).toBe(old);
    expect(t.set_aside).toEqual([]);
  });
});
