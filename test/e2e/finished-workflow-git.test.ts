import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForText } from '../helpers/browser.js';
import { gitIn } from '../helpers/git-repo.js';
import { dashboardRig } from '../helpers/dashboard-rig.js';

/**
 * A completed workflow's git state is what it ended at (its last snapshot's), never its worktree's now: a later
 * workflow's commit in the same worktree is not credited to it, in the API, `baton details` and the dashboard's Work
 * state alike.
 */
describe('a finished workflow’s git state', () => {
  const rig = dashboardRig();
  const { repo, shots, baton } = rig;
  const commit = (file: string, message: string) => {
    writeFileSync(join(repo, file), `${message}\n`);
    gitIn(repo, 'add', file);
    gitIn(repo, 'commit', '-q', '-m', message);
    return gitIn(repo, 'rev-parse', 'HEAD').trim();
  };

  it('is the one it ended at, not a later workflow’s work in the same worktree', async () => {
    const id = (await baton('create', '--title', 'Second job', '--task', 'A1:First')).stdout.match(
      /wf-[0-9a-z]+/,
    )![0];
    await baton('task', 'start', 'A1');
    const own = commit('work-7.txt', 'work 7');
    await baton('task', 'done', 'A1');
    const status = (await (await rig.server.api(`/api/workflows/${id}/status`)).json()) as {
      workflow: { status: string; version: number };
    };
    expect(status.workflow.status).toBe('completed');
    // a later workflow's work, in the same worktree
    await baton('create', '--title', 'Schema', '--task', 'B1:Schema');
    const later = commit('schema.sql', 'schema');

    const live = `live-${status.workflow.version}`;
    const api = (await (
      await rig.server.api(`/api/workflows/${id}/snapshots/${live}/git-changes`)
    ).json()) as {
      git_state: { commit_at_snapshot: string; files_changed_since_start: string[] };
      note: string;
    };
    expect(api.git_state.commit_at_snapshot).toBe(own);
    expect(JSON.stringify(api.git_state)).not.toContain('schema.sql');
    expect(api.note).toMatch(/^the workflow is completed: its git state as it ended \(snapshot snap-/);

    const cli = await baton('details', live, 'git-changes', '-w', id);
    expect(cli.stdout).toContain(`HEAD: ${own.slice(0, 7)} "work 7"`);
    expect(cli.stdout).not.toContain(later.slice(0, 7));
    expect(cli.stdout).not.toContain('schema.sql');
    expect(cli.stdout).toContain('note: the workflow is completed: its git state as it ended');

    const page = await rig.page(`#/workflows/${id}`);
    const work = page.getByTestId('work-state');
    await waitForText(work, own.slice(0, 7));
    await waitForText(work, 'its git state as it ended');
    expect(await work.textContent()).not.toContain(later.slice(0, 7));
    expect(await work.textContent()).not.toContain('schema.sql');
    await work.screenshot({ path: join(shots, '41-finished-workflow-git.png') });
    await page.close();
  });
});
