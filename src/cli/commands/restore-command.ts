import { createInterface } from 'node:readline/promises';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import { BatonError, invalidTransition, shortHash } from '../../core/index.js';
import type { CheckpointRestore } from '../../service/index.js';
import type { GlobalOptions, Runtime } from '../runtime.js';
import { elsewhereOf, ownerFields } from '../whose-workflow.js';
import { identityAt } from '../../git/git.js';
import { resumeText } from './session-commands.js';

export interface RestoreFlags {
  stash?: boolean;
  force?: boolean;
  dryRun?: boolean;
  stateOnly?: boolean;
  yes?: boolean;
}

const short = (sha: string | null) => (sha ? shortHash(sha) : '?');

/** The uncommitted files: stashed, or (forced) the tracked ones' changes discarded and the untracked left as they are. */
function dirtyLines(g: NonNullable<CheckpointRestore['git']>): string[] {
  if (g.mode === 'stash') return [`  uncommitted files stashed: ${g.dirty_files.join(', ')}`];
  const tracked = g.dirty_files.filter((f) => !g.untracked_files.includes(f));
  return [
    ...(tracked.length ? [`  uncommitted changes discarded: ${tracked.join(', ')}`] : []),
    ...(g.untracked_files.length
      ? [`  untracked files left as they are: ${g.untracked_files.join(', ')}`]
      : []),
  ];
}

/** The plan in words: the steps, the task statuses, the commits that leave the branch and where they are kept. */
export function restorePlanText(r: CheckpointRestore): string {
  const g = r.git;
  return [
    `${r.dry_run ? 'would restore' : 'restored'} ${r.workflow_id} to ${r.checkpoint.name}${r.checkpoint.commit ? ` (${r.checkpoint.branch ?? 'detached'} @ ${short(r.checkpoint.commit)})` : ''}:`,
    ...r.steps.map((s, i) => `  ${i + 1}. ${s}`),
    ...r.task_changes.map((t) => `     task ${t.task_id}: ${t.from} -> ${t.to}`),
    ...(g?.dirty_files.length ? dirtyLines(g) : []),
    ...(g?.worktree_backup_ref ? [`  their tracked changes are kept on ${g.worktree_backup_ref}`] : []),
    ...(g?.commits_dropped
      ? [
          `  ${g.commits_dropped} commit(s) after the checkpoint leave ${g.branch ?? 'HEAD'}; they are kept on ${g.backup_ref}:`,
          ...g.dropped_commits.map((c) => `     ${short(c.sha)} ${c.subject}`),
          ...(g.commits_dropped > g.dropped_commits.length
            ? [`     ... and ${g.commits_dropped - g.dropped_commits.length} more`]
            : []),
        ]
      : []),
    ...(g?.files_changed_count
      ? [
          `  ${g.files_changed_count} file(s) change: ${g.files_changed
            .slice(0, 20)
            .map((f) => `${f.status} ${f.path}`)
            .join(', ')}${g.files_changed_count > 20 ? ', ...' : ''}`,
        ]
      : []),
    ...(r.git_note ? [`  note: ${r.git_note}`] : []),
  ].join('\n');
}

/** The exact command that confirms this restore. */
const confirmCommand = (r: CheckpointRestore, flags: RestoreFlags) =>
  [
    'baton recover',
    `-w ${r.workflow_id}`,
    '--option checkpoint',
    `--checkpoint ${r.checkpoint.name}`,
    flags.stash ? '--stash' : null,
    flags.force ? '--force' : null,
    '--yes',
  ]
    .filter(Boolean)
    .join(' ');

/** Asks on the terminal; only when both ends are a terminal (never in a script). */
async function askOnTerminal(rt: Runtime, question: string): Promise<boolean | null> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return null;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
    void rt;
  }
}

/**
 * A teammate's checkpoint, refused where the restore runs (the service's `refuseTheirs`, here or on a server: nothing
 * planned or changed), said with what the person can do from here: `--state-only` puts back the records alone.
 */
function withStateOnly(e: unknown): unknown {
  if (!BatonError.isInstance(e) || e.code !== 'invalid_transition' || e.details.yours !== false) return e;
  return new BatonError(
    e.code,
    `${e.message}; \`--state-only --theirs\` here puts back only the workflow's records (task statuses, a new session) and leaves every worktree as it is`,
    e.details,
  );
}

/**
 * `baton recover --checkpoint <name>`: the workflow state and the worktree back to the checkpoint. A restore that
 * moves the branch is done only with `--yes` or a yes on the terminal; otherwise it changes nothing, exits 3 and
 * prints the exact command that confirms it. A teammate's is refused (`withStateOnly`).
 */
export async function recoverCheckpointCommand(
  rt: Runtime,
  client: BatonClient,
  g: GlobalOptions,
  ref: Ref,
  name: string | null,
  flags: RestoreFlags,
  print: (value: unknown, human: () => string) => void,
): Promise<void> {
  // found as the restore finds it (among several conversations' workflows, asked which), before anything is planned
  const { workflow: w } = await client.taken(ref, { ask: true });
  // the person's identity here, asked once: whose the checkpoint is, here and to a server
  const me = await identityAt(rt.cwd);
  const elsewhere = await elsewhereOf(rt.cwd, w, me);
  const opts = {
    stash: flags.stash === true,
    force: flags.force === true,
    dryRun: flags.dryRun === true,
    identity: me,
  };
  let r = await client
    .restoreCheckpoint(ref, name, { ...opts, confirm: flags.yes === true })
    .catch((e: unknown) => {
      throw withStateOnly(e);
    });
  if (r.needs_confirmation && !opts.dryRun) {
    const answer = g.json
      ? null
      : await askOnTerminal(
          rt,
          `${restorePlanText(r)}\nMove ${r.git?.branch ?? 'HEAD'} to the checkpoint? [y/N] `,
        );
    if (answer === true)
      r = await client.restoreCheckpoint(ref, r.checkpoint.name, { ...opts, confirm: true });
    else {
      const g2 = r.git;
      throw invalidTransition(
        `restoring ${r.checkpoint.name} moves ${g2?.branch ?? 'HEAD'} from ${short(g2?.branch_head ?? null)} to ${short(g2?.commit ?? null)}${
          g2?.commits_dropped
            ? `: ${g2.commits_dropped} commit(s) leave it (${g2.dropped_commits
                .slice(0, 3)
                .map((c) => `${short(c.sha)} ${c.subject}`)
                .join(
                  '; ',
                )}${g2.commits_dropped > 3 ? '; ...' : ''}), to be kept on a backup ref under refs/baton/backup/`
            : ''
        }. Nothing was changed. To confirm: \`${confirmCommand(r, flags)}\` (\`--dry-run\` shows every step)`,
        { needs_confirmation: true, confirm_command: confirmCommand(r, flags), restore: r },
      );
    }
  }
  const restore = {
    checkpoint: r.checkpoint,
    task_changes: r.task_changes,
    git: r.git,
    git_note: r.git_note,
    steps: r.steps,
  };
  if (r.dry_run || !r.recovered) {
    print({ dry_run: true, workflow_id: r.workflow_id, ...restore }, () => restorePlanText(r));
    return;
  }
  const recovered = r.recovered;
  print(
    { ...recovered, restore, ...ownerFields(w, elsewhere) },
    () => `${restorePlanText(r)}\n\n${resumeText(recovered, elsewhere)}`,
  );
}
