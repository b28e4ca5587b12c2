import {
  assertRecoverable,
  backupRefPrefix,
  invalidTransition,
  backupRefsUnstamped,
  notFound,
  SessionSnapshot,
  shortHash,
  theirCheckpointWords,
  theirRestoreNote,
  type CheckpointRef,
  type OptionChanges,
  type WorkflowState,
} from '../core/index.js';
import type { BatonService } from './baton-service.js';
import { findCheckpoint } from './checkpoint-lookup.js';
import { nextStep } from './next-step.js';
import type { RestorePlan } from './ports.js';
import { askWhichRun, type WorkflowRef } from './resolve-workflow.js';
import type { ResumeResult } from './resumer.js';
import { theirCheckout } from './their-checkout.js';

export interface RestoreOptions {
  stash?: boolean;
  force?: boolean;
  dryRun?: boolean;
  /** The user confirmed a restore that moves the branch (`--yes`, a terminal prompt, the dashboard's button). */
  confirm?: boolean;
  /**
   * The git identity of the person asking (the CLI's, sent to a server; null or absent: told by the clone at the
   * worktree's path here, `theirCheckout`): a teammate's checkpoint is refused by it.
   */
  identity?: string | null;
  /** Where the restore is asked from, as a refused teammate's says it: `this clone` (the default), `this server`. */
  from?: string;
}

export interface CheckpointRestore {
  workflow_id: string;
  /** Nothing was changed: a dry run, or a restore that moves the branch and was not confirmed. */
  dry_run: boolean;
  needs_confirmation: boolean;
  checkpoint: Pick<CheckpointRef, 'name' | 'commit' | 'branch' | 'snapshot_id'>;
  /** What the workflow state restore changes: each task whose status goes back to the checkpoint's. */
  task_changes: { task_id: string; from: string; to: string }[];
  git: RestorePlan | null;
  git_note: string | null;
  /** The steps in order, as they are (or would be) done. */
  steps: string[];
  recovered: (ResumeResult & { option: 'checkpoint' }) | null;
}

/** Each task whose status differs between now and `then`. */
export const taskChanges = (s: WorkflowState, then: readonly { id: string; status: string }[]) => {
  const m = new Map(then.map((t) => [t.id, t.status]));
  return s.tasks
    .filter((t) => m.has(t.id) && m.get(t.id) !== t.status)
    .map((t) => ({ task_id: t.id, from: t.status, to: m.get(t.id) ?? t.status }));
};

async function checkpointTasks(svc: BatonService, s: WorkflowState, cp: CheckpointRef) {
  const row = await svc.store.getRecord(s.id, 'snapshot', cp.snapshot_id);
  if (!row)
    throw notFound(
      `the snapshot ${cp.snapshot_id} of checkpoint ${cp.name} is missing; run \`baton rebuild\``,
    );
  return SessionSnapshot.parse(row.data).tasks;
}

const now = (svc: BatonService) => svc.options.now?.() ?? new Date();

/**
 * A restore not done (a dry run, or one waiting for its confirmation) as it is shown: its backup refs are named for the
 * time the restore runs, not the time of this plan (the confirmed restore plans again), so they say `<time of the
 * restore>` rather than a name no ref will have.
 */
function asPreview<T extends { git: RestorePlan | null; steps: string[] }>(r: T): T {
  const named = (text: string) => backupRefsUnstamped(text, '<time of the restore>');
  const g = r.git;
  return {
    ...r,
    steps: r.steps.map(named),
    git: g && {
      ...g,
      steps: g.steps.map((st) => ({ ...st, command: named(st.command) })),
      backup_ref: g.backup_ref && named(g.backup_ref),
      worktree_backup_ref: g.worktree_backup_ref && named(g.worktree_backup_ref),
    },
  };
}

/** What returning to a checkpoint would change in the worktree, planned without touching it. */
export async function checkpointChanges(
  svc: BatonService,
  s: WorkflowState,
  cp: CheckpointRef,
  theirs: string | null = null,
): Promise<OptionChanges> {
  const tasks = taskChanges(s, await checkpointTasks(svc, s, cp));
  if (!cp.commit)
    return { tasks, git: null, note: `${cp.name} has no git commit: the worktree is left as it is` };
  // a teammate's (`theirCheckout`): the clone at their path here is not theirs, so no plan is read from it
  if (theirs)
    return {
      tasks,
      git: null,
      note: theirRestoreNote({ id: s.id, owner: theirs, worktree: s.worktree }),
    };
  const plan = await svc.git.planRestore(
    s.worktree,
    { branch: cp.branch, commit: cp.commit, label: cp.name, workflowId: s.id, at: now(svc) },
    { inspectOnly: true, exclude: svc.options.runsDirOf ? [svc.options.runsDirOf(s.worktree)] : [] },
  );
  return {
    tasks,
    git: {
      branch: plan.branch,
      from: plan.branch_head,
      to: plan.commit,
      moves_branch: plan.moves_branch,
      commits: plan.dropped_commits,
      commits_count: plan.commits_dropped,
      files: plan.files_changed,
      files_count: plan.files_changed_count,
      backup_ref_prefix: plan.commits_dropped ? backupRefPrefix(s.id) : null,
      dirty_files: plan.dirty_files,
    },
    note: plan.commits_dropped
      ? `${plan.commits_dropped} commit(s) leave ${plan.branch ?? 'HEAD'}; they are kept on a backup ref`
      : plan.moves_branch
        ? `${plan.branch ?? 'HEAD'} moves to ${shortHash(plan.commit)}; no commit leaves it`
        : 'the worktree is already at the checkpoint',
  };
}

/**
 * A teammate's checkpoint (another person's than the one asking, as `theirCheckout` judges: an old email of theirs
 * that git's mailmap at the worktree maps to them is theirs) is restored in their clone, never from here: its git steps
 * run at their worktree's path on this machine, which holds their clone or another person's at that path
 * (devcontainers'), whose branch and files are not the workflow's. Refused before anything is planned or changed, a dry
 * run too (its plan would be read from the wrong clone), for the CLI and a server alike.
 */
async function refuseTheirs(svc: BatonService, w: WorkflowState, name: string | null, opts: RestoreOptions) {
  const owner = await theirCheckout(svc.git, w, opts.identity);
  if (!owner) return;
  throw invalidTransition(
    theirCheckpointWords({ id: w.id, owner, worktree: w.worktree }, name, opts.from ?? 'this clone'),
    { owner, yours: false, worktree: w.worktree },
  );
}

/**
 * `baton recover --checkpoint <name>`: the workflow state back to the checkpoint (recover), and the worktree back to
 * the checkpoint's commit on its branch. Everything is checked before anything changes; a restore that moves the
 * branch is done only when confirmed, and every commit that leaves the branch stays on a backup ref.
 */
export async function restoreCheckpoint(
  svc: BatonService,
  ref: WorkflowRef,
  name: string | null,
  opts: RestoreOptions = {},
): Promise<CheckpointRestore> {
  const w = await svc.resolve(ref, askWhichRun);
  await refuseTheirs(svc, w, name, opts);
  const cp = await findCheckpoint(svc.store, w, name);
  assertRecoverable(w, await nextStep(svc.store, w));
  const task_changes = taskChanges(w, await checkpointTasks(svc, w, cp));
  const plan = cp.commit
    ? await svc.git.planRestore(
        w.worktree,
        { branch: cp.branch, commit: cp.commit, label: cp.name, workflowId: w.id, at: now(svc) },
        {
          stash: opts.stash,
          force: opts.force,
          exclude: svc.options.runsDirOf ? [svc.options.runsDirOf(w.worktree)] : [],
        },
      )
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
  const needs = plan?.moves_branch === true && opts.confirm !== true;
  if (opts.dryRun || needs)
    return { ...asPreview(base), dry_run: true, needs_confirmation: needs, recovered: null };
  if (plan) await svc.git.applyRestore(plan);
  const recovered = await svc.recover({ workflowId: w.id }, 'checkpoint', cp.name).catch((e: unknown) => {
    if (plan && e instanceof Error)
      e.message = `${e.message} (the worktree was already restored to ${cp.commit ? shortHash(cp.commit) : '?'}${plan.backup_ref ? `; the old head is on ${plan.backup_ref}` : ''})`;
    throw e;
  });
  return {
    ...base,
    dry_run: false,
    needs_confirmation: false,
    recovered: { ...recovered, option: 'checkpoint' },
  };
}
