import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

describe('baton status of queued work that was interrupted', () => {
  it('says a worker takes it over, not `baton run` or `baton resume`', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-') };
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    expect((await baton('create', '--title', 'q', '--task', 'A:a')).code).toBe(0);
    expect((await baton('task', 'start', 'A')).code).toBe(0);
    expect((await baton('submit', '--agent', 'claude-code')).code).toBe(0);
    expect((await baton('interrupt')).code).toBe(0);
    const status = await baton('status');
    expect(status.stdout).toContain(
      'to go on: it is queued, so a worker takes it over and resumes it\nqueue: queued',
    );
    expect(status.stdout).not.toContain('baton run -w');
    // not queued: the person's ways on
    const other = makeRepo();
    const b = (...args: string[]) => runCli(args, { cwd: other, env });
    await b('create', '--title', 'r', '--task', 'A:a');
    await b('task', 'start', 'A');
    await b('interrupt');
    expect((await b('status')).stdout).toMatch(/to go on: `baton run -w wf-\S+` \(Baton runs the agent\)/);
  });
});
