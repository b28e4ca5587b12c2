import {
  alsoOpen,
  type AlsoOpen,
  BatonError,
  cliWord,
  followsWords,
  howWorkStarts,
  isTerminal,
  isUnusedSessionWorkflow,
  latestAtWork,
  notFound,
  SET_IDENTITY,
  workflowBranch,
  workflowStatuses,
  type WorkflowState,
  type WorktreeSetup,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { GitPort } from './ports.js';
import { replacedRepository } from './replaced-repository.js';
import { branchStanding } from './other-branch.js';
import { workflowsHere } from './workflows-here.js';

/** Names a workflow: by id, or by the worktree a directory belongs to. */
export interface WorkflowRef {
  workflowId?: string | undefined;
  cwd?: string | undefined;
  /** The workflow of the agent conversation the caller runs inside (own-conversation.ts): meant among several. */
  following?: string | undefined;
  /**
   * What the files of the caller's machine say of a worktree's set-up (the CLI reads them; a server cannot), asked
   * only when the worktree has no active workflow, for the words of that message.
   */
  setup?: ((worktree: string) => Promise<WorktreeSetup | null>) | undefined;
}

export const describeCandidate = (w: WorkflowState) => ({
  id: w.id,
  title: w.title,
  status: w.status,
  updated_at: w.updated_at,
  step: `${w.tasks.filter((t) => t.status === 'done' || t.status === 'skipped').length}/${w.tasks.length}`,
});

/** The workflow a reference names, and the worktree's others a command without an id passed over for it. */
export interface Resolved {
  state: WorkflowState;
  /**
   * The worktree's other incomplete workflows, when the one taken was told apart from them only by its conversation
   * being at work last (`latestAtWork`): said beside it, with how to reach each. Empty otherwise.
   */
  also_open: AlsoOpen[];
}

export interface ResolveOptions {
  /**
   * Whether the conversation at work last settles a choice between conversations' workflows (default true).
   * Resuming a run asks which one instead (the Resume Protocol's "ask which run to resume"): a resume starts a session
   * on it, which the recency of a conversation's prompt does not choose.
   */
  byRecency?: boolean;
}

/**
 * How a resume or a recovery (a checkpoint's restore included) finds its workflow without an id: among several
 * conversations' workflows it asks which (the Resume Protocol's "ask which run to resume"), rather than take the one
 * whose conversation was at work last.
 */
export const askWhichRun: ResolveOptions = { byRecency: false };

/** `resolveWorkflowAmong`'s workflow alone. */
export async function resolveWorkflow(
  store: Store,
  git: GitPort,
  ref: WorkflowRef,
  opts: ResolveOptions = {},
): Promise<WorkflowState> {
  return (await resolveWorkflowAmong(store, git, ref, opts)).state;
}

/**
 * Without an id, the workflow is the one incomplete workflow of the current worktree. Several of them is
 * ambiguous (the Resume Protocol's "ask which run"): the error lists them, unless all but one are workflows an agent
 * session opened and asked nothing in (`isUnusedSessionWorkflow`), or the caller is an agent whose conversation
 * follows one of them (`following`), or each follows an agent conversation and one of those was at work after the
 * others (`latestAtWork`: a person's command means the conversation they work in now, and is told of the others).
 * Workflows of a repository that was at this path before (deleted and made again, see replaced-repository.ts) are
 * left out while one of this repository's remains: they are reached by id.
 */
export async function resolveWorkflowAmong(
  store: Store,
  git: GitPort,
  ref: WorkflowRef,
  opts: ResolveOptions = {},
): Promise<Resolved> {
  const only = (state: WorkflowState): Resolved => ({ state, also_open: [] });
  if (ref.workflowId) {
    const state = await store.loadState(ref.workflowId);
    if (!state)
      throw notFound(`no workflow ${ref.workflowId}; list them with \`baton list\``, {
        workflow_id: ref.workflowId,
      });
    return only(state);
  }
  const worktree = await git.resolveWorktree(ref.cwd ?? process.cwd());
  const here = await workflowsHere(store, git, worktree);
  const candidates = await thisRepository(
    store,
    git,
    here.filter((w) => !isTerminal(w.status)),
  );
  if (candidates.length === 1 && candidates[0]) return only(candidates[0]);
  // an agent's own command (its conversation's workflow known): the one it works on, used or not yet
  const own = ref.following ? candidates.find((w) => w.id === ref.following) : undefined;
  if (own) return only(own);
  // the work of the branch checked out is meant, not another branch's (other-branch.ts)
  const onBranch = await onThisBranch(store, git, worktree, candidates);
  if (onBranch.length === 1 && onBranch[0]) return only(onBranch[0]);
  // a conversation opened and left (or not yet used) made a workflow that holds nothing: the other one is meant
  const used = onBranch.filter((w) => !isUnusedSessionWorkflow(w));
  if (onBranch.length > 1 && used.length === 1 && used[0]) return only(used[0]);
  if (candidates.length === 0) {
    const latest = here.reduce<WorkflowState | null>(
      (a, w) => (a === null || w.updated_at > a.updated_at ? w : a),
      null,
    );
    const ended = latest
      ? `; the latest here, ${latest.id} "${latest.title}", ${latest.status} at ${latest.updated_at} (see it with ${cliWord('status', latest.id)})`
      : '';
    const repository = (await git.gitStart(worktree).catch(() => null)) !== null;
    // what the caller's files say of the set-up (whether `baton init` ran here), when it can read them; files it could
    // not read leave the words that hold either way, not another error
    const setup = repository && ref.setup ? await ref.setup(worktree).catch(() => null) : null;
    const start = howWorkStarts({ worktree, repository }, setup);
    // on a shared database a teammate's workflow of the same project sits in their folder (or is theirs at this
    // path, another git identity's): `baton list` shows it
    const open = workflowStatuses.filter((st) => !isTerminal(st));
    const theirs = (await store.listWorkflows({ worktree, status: open })).length - candidates.length;
    const elsewhere = (await store.listWorkflows({ status: open, limit: 1 })).length > 0;
    // with no identity here, none of them can be taken for this person's: what to set is said
    const who = (await git.owner(worktree))
      ? "another git identity's, made under another email (yours under an email you used before? a `.mailmap` line `<new> <old>` in the repository makes them yours again)"
      : `a git identity's, and none is set here (${SET_IDENTITY})`;
    const others =
      theirs > 0
        ? ` (${theirs} incomplete here ${theirs === 1 ? 'is' : 'are'} ${who}: \`baton list\` shows them, -w takes one)`
        : elsewhere
          ? ' (`baton list` shows the incomplete workflows of other folders)'
          : '';
    throw notFound(
      `no active workflow in ${worktree}${ended}; ${start}, or pass ${cliWord('workflow')}${others}`,
      {
        worktree,
        ...(latest ? { latest: describeCandidate(latest) } : {}),
      },
    );
  }
  // each follows an agent conversation: the one at work last is the one the person works in now, the others said
  const latest = opts.byRecency === false ? null : latestAtWork(used.length > 1 ? used : onBranch);
  if (latest) return { state: latest, also_open: candidates.filter((w) => w.id !== latest.id).map(alsoOpen) };
  // each with the agent conversation it follows and when that was last at work, so the person can tell them apart
  const listed = candidates.map((c) => ({ c, also: alsoOpen(c) }));
  throw new BatonError(
    'ambiguous',
    `${candidates.length} incomplete workflows in ${worktree}; choose one with ${cliWord('workflow')}:\n` +
      listed
        .map(
          ({ c, also }) =>
            `  ${c.id}  ${c.status.padEnd(11)} ${c.title}${onBranchNamed(c, candidates)}${followsWords(also).replace(/^ /, '  ')}`,
        )
        .join('\n'),
    {
      worktree,
      candidates: listed.map(({ c, also }) => ({
        ...describeCandidate(c),
        follows: also.follows,
        last_active_at: also.last_active_at,
      })),
    },
  );
}

/**
 * The workflows of the branch checked out, else those not left for another branch (`branchStanding`); all when none
 * is.
 */
async function onThisBranch(
  store: Store,
  git: GitPort,
  worktree: string,
  open: WorkflowState[],
): Promise<WorkflowState[]> {
  if (open.length < 2) return open;
  const { onBranch, away } = await branchStanding(store, git, worktree, open);
  if (onBranch.length) return onBranch;
  const here = open.filter((w) => !away.some((a) => a.workflow_id === w.id));
  return here.length > 0 ? here : open;
}

/** The branch a workflow's work was last seen on, said in a list of workflows to choose from when theirs differ. */
const onBranchNamed = (w: WorkflowState, all: readonly WorkflowState[]) => {
  const branch = workflowBranch(w);
  return branch && new Set(all.map(workflowBranch)).size > 1 ? `  (on ${branch})` : '';
};

/** The workflows still this repository's, when some are and others followed one replaced at the path; else all. */
async function thisRepository(store: Store, git: GitPort, open: WorkflowState[]): Promise<WorkflowState[]> {
  if (open.length < 2) return open;
  const mine: WorkflowState[] = [];
  for (const w of open) if ((await replacedRepository(store, git, w)) === null) mine.push(w);
  return mine.length > 0 ? mine : open;
}
