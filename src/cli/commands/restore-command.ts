import type { BatonClient, Ref } from '../../client/baton-client.js';
import { restoreCheckpoint } from '../../client/checkpoint-restore.js';
import { runsDirFor } from '../../disk/index.js';
import type { GlobalOptions, Runtime } from '../runtime.js';
import { resumeText } from './session-commands.js';

export interface RestoreFlags {
  stash?: boolean;
  force?: boolean;
  dryRun?: boolean;
  stateOnly?: boolean;
}

/** `baton recover --checkpoint <name>`: the workflow state and the worktree back to the checkpoint. */
export async function recoverCheckpointCommand(
  rt: Runtime,
  client: BatonClient,
  g: GlobalOptions,
  ref: Ref,
  name: string | null,
  flags: RestoreFlags,
  print: (value: unknown, human: () => string) => void,
): Promise<void> {
  const settings = rt.settings(g);
  const w = await client.get(ref);
  const r = await restoreCheckpoint(client, { workflowId: w.id }, name, {
    stash: flags.stash === true,
    force: flags.force === true,
    dryRun: flags.dryRun === true,
    exclude: [runsDirFor(w.worktree, settings.runsDir)],
  });
  const restore = {
    checkpoint: r.checkpoint,
    task_changes: r.task_changes,
    git: r.git,
    git_note: r.git_note,
    steps: r.steps,
  };
  const plan = () =>
    [
      `${r.dry_run ? 'would restore' : 'restored'} ${r.workflow_id} to ${r.checkpoint.name}${r.checkpoint.commit ? ` (${r.checkpoint.branch ?? 'detached'} @ ${r.checkpoint.commit.slice(0, 12)})` : ''}:`,
      ...r.steps.map((s, i) => `  ${i + 1}. ${s}`),
      ...r.task_changes.map((t) => `     task ${t.task_id}: ${t.from} -> ${t.to}`),
      ...(r.git?.dirty_files.length
        ? [
            `  uncommitted files ${r.git.mode === 'stash' ? 'stashed' : 'discarded'}: ${r.git.dirty_files.join(', ')}`,
          ]
        : []),
      ...(r.git?.commits_dropped
        ? [
            `  ${r.git.commits_dropped} commit(s) after the checkpoint leave ${r.git.branch} (still in \`git reflog\`)`,
          ]
        : []),
      ...(r.git_note ? [`  note: ${r.git_note}`] : []),
    ].join('\n');
  if (r.dry_run || !r.recovered) {
    print({ dry_run: true, workflow_id: r.workflow_id, ...restore }, plan);
    return;
  }
  const recovered = r.recovered;
  print({ ...recovered, restore }, () => `${plan()}\n\n${resumeText(recovered)}`);
}
