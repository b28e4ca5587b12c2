import { resolve } from 'node:path';
import type { BatonClient } from '../../client/baton-client.js';
import { rebuildFromDisk, runsDirFor } from '../../disk/index.js';
import { resolveWorktree } from '../../git/git.js';
import { localService } from '../mirror.js';
import type { GlobalOptions, Runtime } from '../runtime.js';

/** `baton rebuild --from-disk <worktree>`: the database rows of every run folder found there. */
export async function rebuildFromDiskCommand(
  rt: Runtime,
  client: BatonClient,
  g: GlobalOptions,
  worktree: string,
  print: (value: unknown, human: () => string) => void,
): Promise<void> {
  const service = localService(client);
  const settings = rt.settings(g);
  const wt = await resolveWorktree(resolve(rt.cwd, worktree));
  const r = await rebuildFromDisk(service.store, runsDirFor(wt, settings.runsDir));
  print(r, () =>
    [
      `rebuilt from ${r.runs_dir}:`,
      ...r.runs.map(
        (x) =>
          `  ${x.workflow_id}: ${x.outcome}, ${x.events} event(s)${x.reason ? ` (${x.reason})` : ''}` +
          [
            ...x.problems.map(
              (p) => `\n    warning: ${p.file}${p.line !== null ? `:${p.line}` : ''}: ${p.problem}`,
            ),
            ...x.missing.map((m) => `\n    warning: ${m.file} is missing (produced by ${m.produced_by})`),
          ].join(''),
      ),
      ...(r.runs.length ? [] : ['  no run folders found']),
    ].join('\n'),
  );
}
