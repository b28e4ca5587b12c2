import { invalidTransition, notFound, resumableStatuses, type CheckpointRef } from '../core/index.js';
import { applyRestore, planRestore, type RestorePlan } from '../git/restore.js';
import type { BatonClient, Ref } from './baton-client.js';

export interface RestoreOptions {
  stash?: boolean;
  force?: boolean;
  dryRun?: boolean;
  /** Folders the dirty check and the stash leave alone (the run folder inside the worktree). */
  exclude?: string[];
}

export interface CheckpointRestore {
  workflow_id: string;
  dry_run: boolean;
  checkpoint: Pick<CheckpointRef, 'name' | 'commit' | 'branch' | 'snapshot_id'>;
  /** What the workflow state restore changes: each task whose status goes back to the checkpoint's. */
  task_changes: { task_id: string; from: string; to: string }[];
  git: RestorePlan | null;
  git_note: string | null;
  /** The steps in order, as they are (or would be) done. */
  steps: string[];
  recovered: Awaited<ReturnType<BatonClient['recover']>> | null;
}

const matches = (c: CheckpointRef, name: string) =>
  c.name === name || c.name.replace(/^cp-\d+-/, '') === name;

/**
 * `baton recover --checkpoint <name>`: the workflow state back to the checkpoint (the service's recover), and the
 * worktree back to the checkpoint's commit on its branch. Checks everything before changing anything, and with
 * `dryRun` only says what it would do.
 */
export async function restoreCheckpoint(
  client: BatonClient,
  ref: Ref,
  name: string | null,
  opts: RestoreOptions = {},
): Promise<CheckpointRestore> {
  const w = await client.get(ref);
  const { checkpoints } = (await client.checkpoints({ ...ref, workflowId: w.id })) as {
    checkpoints: CheckpointRef[];
  };
  const cp = name ? checkpoints.find((c) => matches(c, name)) : checkpoints[checkpoints.length - 1];
  if (!cp)
    throw notFound(
      name
        ? `no checkpoint ${name} in workflow ${w.id} (have: ${checkpoints.map((c) => c.name).join(', ') || 'none'})`
        : `workflow ${w.id} has no checkpoint yet`,
      { checkpoint: name },
    );
  if (!resumableStatuses.includes(w.status))
    throw invalidTransition(
      `cannot recover ${w.id}: it is ${w.status} (only a paused or interrupted workflow can); pause it first with \`baton pause\``,
      { current_status: w.status },
    );
  const snap = await client.snapshot({ workflowId: w.id }, cp.snapshot_id);
  const then = new Map(snap.tasks.map((t) => [t.id, t.status]));
  const task_changes = w.tasks
    .filter((t) => then.has(t.id) && then.get(t.id) !== t.status)
    .map((t) => ({ task_id: t.id, from: t.status, to: then.get(t.id) ?? t.status }));

  const plan = cp.commit
    ? await planRestore(w.worktree, { branch: cp.branch, commit: cp.commit, label: cp.name }, opts)
    : null;
  const git_note = cp.commit
    ? null
    : `${cp.name} has no git commit (taken outside git): the worktree is left as is`;
  const steps = [
    ...(plan?.steps.map((s) => s.command) ?? []),
    `record workflow.recovered (option checkpoint, ${cp.name}): ${task_changes.length} task status(es) back to the checkpoint's`,
    `start session ${w.session_count + 1} with the resume context`,
  ];
  const base = {
    workflow_id: w.id,
    checkpoint: { name: cp.name, commit: cp.commit, branch: cp.branch, snapshot_id: cp.snapshot_id },
    task_changes,
    git: plan,
    git_note,
    steps,
  };
  if (opts.dryRun) return { ...base, dry_run: true, recovered: null };
  if (plan) await applyRestore(plan);
  const recovered = await client.recover({ workflowId: w.id }, 'checkpoint', cp.name).catch((e: unknown) => {
    if (plan && e instanceof Error)
      e.message = `${e.message} (the worktree was already restored to ${cp.commit?.slice(0, 12)})`;
    throw e;
  });
  return { ...base, dry_run: false, recovered };
}
