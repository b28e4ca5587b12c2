import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForText } from '../helpers/browser.js';
import { gitIn } from '../helpers/git-repo.js';
import { dashboardRig } from '../helpers/dashboard-rig.js';

/**
 * The checkpoints `baton checkpoints` lists are seen on the workflow's page of an open workflow (not only on the
 * Recovery page of a stopped one): the Snapshots list names the snapshot each was made of, the snapshot's page says
 * so and how to go back to it, and the event history's `checkpoint.created` line names it.
 */
describe('dashboard: checkpoints named on the workflow page', () => {
  const rig = dashboardRig();
  const { repo, shots, baton } = rig;

  it('names the checkpoint in the Snapshots list, on the snapshot page and in the event history', async () => {
    const id = (
      await baton('create', '--title', 'Add login', '--task', 'T1:Write schema', '--task', 'T2:API:T1')
    ).stdout.match(/wf-[0-9a-z]+/)![0];
    await baton('task', 'start', 'T1');
    writeFileSync(join(repo, 'schema.sql'), 'create table users ();\n');
    gitIn(repo, 'add', 'schema.sql');
    gitIn(repo, 'commit', '-q', '-m', 'schema');
    const head = gitIn(repo, 'rev-parse', '--short=7', 'HEAD').trim();
    await baton('task', 'done', 'T1');
    const listed = (await baton('checkpoints', '--json')).json<{
      checkpoints: { name: string; snapshot_id: string }[];
    }>().checkpoints;
    expect(listed.map((c) => c.name)).toEqual(['cp-01-write-schema']);
    const snap = listed[0]!.snapshot_id;

    const page = await rig.page(`#/workflows/${id}`);
    const row = page.getByTestId('snapshot-list').locator(`[data-snapshot="${snap}"]`);
    await waitForText(row.getByTestId('snapshot-checkpoint'), 'checkpoint cp-01-write-schema');
    await waitForText(
      page.getByTestId('event-history').locator('[data-type="checkpoint.created"]'),
      `cp-01-write-schema at ${head}`,
    );

    await row.click();
    const detail = page.getByTestId('snapshot-detail');
    await waitForText(detail.getByTestId('snapshot-detail-checkpoint'), 'checkpoint cp-01-write-schema');
    await waitForText(
      detail.getByTestId('snapshot-checkpoint-note'),
      `Checkpoint cp-01-write-schema was made of this snapshot: baton recover -w ${id} --checkpoint cp-01-write-schema goes back to it`,
    );
    await page.screenshot({ path: join(shots, '42-checkpoint-named.png'), fullPage: true });
    await page.close();
  });
});
