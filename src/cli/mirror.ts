import { LocalClient } from '../client/local-client.js';
import type { BatonClient } from '../client/baton-client.js';
import type { Settings } from '../config/settings.js';
import { BatonError } from '../core/index.js';
import { DiskMirror } from '../disk/index.js';
import type { BatonService } from '../service/index.js';
import type { Io } from './output.js';

/** Hooks the run folder mirror into the service and catches up the folders that lag the database. */
export async function attachMirror(
  service: BatonService,
  settings: Settings,
  io: Io,
  scope: { worktree?: string } = {},
): Promise<DiskMirror> {
  const mirror = new DiskMirror(service.store, { runsDir: settings.runsDir, now: service.options.now });
  mirror.attach(service.runner);
  const report = await mirror.catchUp(scope);
  for (const b of report.behind)
    io.err(
      `baton: warning: the database holds workflow ${b.workflow_id} up to event ${b.database_seq} but its run folder ${b.dir} goes to ${b.disk_seq}; the folder is left alone (bring the database up with \`baton rebuild --from-disk <worktree>\`)`,
    );
  for (const f of report.failed)
    io.err(`baton: warning: cannot write the run folder of ${f.workflow_id}: ${f.error}`);
  return mirror;
}

/** The service behind an in-process client: the disk commands work on a local database and local files. */
export function localService(client: BatonClient): BatonService {
  if (client instanceof LocalClient) return client.service;
  throw new BatonError(
    'unavailable',
    'this command reads and writes local files and a local database; run it without a server URL',
  );
}
