import { branchChangeWarning } from '../branch-change.js';
import { clip } from '../clip.js';
import { shortHash } from '../short-hash.js';
import { conflictWords } from '../git-conflict.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import type { WorkflowState } from '../schemas/state.js';
import type { PauseWaiting } from '../commands/pause.js';
import { isTerminal, type TerminalStatus } from '../workflow-machine.js';
import { apiFailureStanding, limitInForce, turnStop } from '../turn-stop.js';
import { cutTurn, lastSaidAt, latestAsking, requestAt, saidSince, type CutTurn } from './cut-turn.js';
import { onlyGoesOn } from '../requests/request-text.js';
import {
  alreadyDone,
  goalOf,
  interruptionOf,
  keyDecisions,
  lastState,
  tddOf,
  type AlreadyDone,
  type Goal,
  type Interruption,
  type LastState,
  type ShownDecision,
  type Tdd,
} from './context-parts.js';
import { beforeCompaction, type EarlierSummary } from './before-compaction.js';
import { earlierShown } from './earlier-work.js';
import { editedAfter } from './edited-after.js';
import { notesFileOf } from './notes-file.js';
import { commitsSinceStarted, type CommitsSince } from './commits-since.js';
import { probablyDone } from './said-done.js';
import { wayAround } from './worked-around.js';
import { fixedAtOnce } from '../fixed-at-once.js';
import { leftBehind, taskCounts } from '../task-graph.js';

/** The shortest an error's message gets in a briefing; what the agent was doing at it is left out there. */
export const ERROR_CHARS_FLOOR = 90;

/**
 * How much of each part the compiled context shows. The fitter lowers these until the context fits its budget;
 * every part that is cut says so ("... N more", with where to get them).
 */
export interface ContextLimits {
  completed_tasks: number;
  /** The summary a done task was completed with (`baton task done --summary`, MCP complete_task), beside it. */
  done_summary_chars: number;
  task_title_chars: number;
  decisions: number;
  resolved_errors: number;
  error_chars: number;
  feedback_comments: number;
  failing_tests: number;
  issue_chars: number;
  description_chars: number;
  later_requests: number;
  request_chars: number;
  /** The latest request's length, when more than `request_chars`. */
  latest_request_chars: number;
  files: number;
  /** The files with uncommitted changes Git State names (the rest become a count). */
  uncommitted_files: number;
  /** Pushes and pull requests listed (the rest become a count). */
  pushes_prs: number;
  commit_subject_chars: number;
  /** Commits only git has (no transcript reported them) listed, the newest; the rest become a count. */
  git_commits: number;
  command_chars: number;
  last_state_chars: number;
  /** The latest compaction summary, when the Last State is a message said after it (`before_compaction`). */
  compaction_chars: number;
  /** 1: What to Do Next says when the latest request is newer than the task list; 0: room is too short for it. */
  newer_request_note: number;
  /** 1: Git State says where an imported session was recorded when not here (`git.recorded`); 0: no room for it. */
  recorded_place: number;
  /** 1: What to Do Next names the notes file the session wrote (`next.notes_file`); 0: no room for it. */
  notes_file: number;
  /**
   * The CI report after the last run in TDD State: 3, with the command that read it; 2, its outcome and counts alone;
   * 1, only what changes the reading of the run (a failure, a pass on changes pushed after it), not a pass that
   * confirms it; 0, only a failure (TDD State still says the run is older than the changes after it).
   */
  ci_report: number;
  /** 1: Plan Status asks the agent to keep the tasks left in its own list in their words (`keep_in_list`); 0: no room. */
  list_words: number;
  /**
   * 1: Already Done counts the files it has no room to name and says `tests pass`; 0: no room for those lines, which
   * name nothing (TDD State says the run, `baton details` has the files).
   */
  done_counts: number;
}

/** Amelia's defaults: five decisions, three resolved errors, three comments per review. */
export const defaultLimits: ContextLimits = {
  completed_tasks: 1000,
  done_summary_chars: 200,
  task_title_chars: 200,
  decisions: 5,
  resolved_errors: 3,
  error_chars: 400,
  feedback_comments: 3,
  failing_tests: 50,
  issue_chars: 500,
  description_chars: 500,
  later_requests: 10,
  request_chars: 300,
  latest_request_chars: 1000,
  files: 20,
  uncommitted_files: 5,
  pushes_prs: 20,
  commit_subject_chars: 100,
  git_commits: 30,
  command_chars: 200,
  last_state_chars: 1500,
  compaction_chars: 1500,
  newer_request_note: 1,
  recorded_place: 1,
  notes_file: 1,
  ci_report: 3,
  list_words: 1,
  done_counts: 1,
};

/** The uncommitted files Git State names, and a count of the others (nothing when there are none). */
function uncommittedNamed(files: readonly string[], limit: number) {
  if (!files.length) return {};
  const named = files.slice(0, limit);
  return {
    ...(named.length ? { uncommitted_files: named } : {}),
    ...(files.length > named.length ? { uncommitted_more: files.length - named.length } : {}),
  };
}

/**
 * Where the session the workflow last imported was recorded, as its transcript says: the agent's folder and the
 * branch it had checked out; `elsewhere` when that folder is not the worktree (another machine, another clone).
 */
export interface RecordedPlace {
  cwd: string | null;
  branch: string | null;
  elsewhere: boolean;
}

/**
 * What the context says of the workflow beside its snapshot: where its files are (paths inside the worktree are shown
 * relative to it), its status now (a finished workflow's context is a recap, not a briefing to go on from), and where
 * its imported session was recorded.
 */
export type ContextWorkflow = Pick<WorkflowState, 'worktree' | 'status' | 'earlier' | 'agent_tasks'> & {
  recorded?: RecordedPlace | null;
  /** When the context is made (a usage limit's reset already past by then is said so); absent: the snapshot's time. */
  now?: string;
  /** Another conversation is at work on the workflow as the context is made, for a new one: see `Elsewhere`. */
  elsewhere?: Elsewhere;
  /**
   * Where the workflow's checkout is, in words ("on ana@example.com's machine"), when it is not the one here (another
   * person's clone at its path, or a folder this machine does not have): its uncommitted files are there, not in this
   * checkout. Absent: the checkout here is its own.
   */
  checkout_elsewhere?: string;
  /** A pause the user asked for that still waits (`pauseWaiting`): What to Do Next says it first. */
  pause_waiting?: PauseWaiting | null;
  /**
   * The agent the briefing goes to (`claude-code`, `codex`; a hook's handover): another agent's last message is named
   * as its, and this agent's own usage limit still in force is said. Absent: not known (`baton context`).
   */
  briefed_agent?: string | null;
};

/**
 * Another conversation of the worktree at work on the workflow when a new conversation is handed its context:
 * `at_work` (its agent seen running) or `maybe_at_work` (only its transcript, written moments ago, says so: it may as
 * well have been cut off). The task in progress, the last state and the calls its transcript ends on are its own.
 */
export type Elsewhere = 'at_work' | 'maybe_at_work';

/** The warning that says it, first in the briefing. */
export const elsewhereWarning: Record<Elsewhere, string> = {
  at_work:
    'Another conversation is at work on this workflow right now (in this worktree). The task in progress, the Last State and the calls its transcript ends on are its own: do not take them up or run them again; ask the user what this session should do (each conversation gets its own workflow in its own git worktree: `git worktree add`).',
  maybe_at_work:
    'Another conversation of this worktree wrote its transcript moments ago, and Baton cannot see whether its agent still runs: it may be at work on this workflow, or it may have been cut off (a crash, a quit). Before taking up the task in progress or the calls its transcript ends on, ask the user whether that conversation is still open; if it is, they are its own (each conversation gets its own workflow in its own git worktree: `git worktree add`).',
};

export interface ResumeContext {
  schema_version: 1;
  workflow_id: string;
  snapshot_id: string;
  session_number: number;
  total_sessions: number;
  /** The workflow is over (completed, failed, cancelled): the context recaps what it did, nothing is to go on with. */
  finished: TerminalStatus | null;
  /** The agent the briefing goes to, when known (`ContextWorkflow.briefed_agent`). */
  briefed_agent?: string;
  /** What the user asked: the first request (the issue) and the later ones, in their words. */
  goal: Goal;
  /** The tasks counted as `taskCounts` counts them: `done` never holds a skipped one. */
  plan_status: {
    total: number;
    done: number;
    skipped: number;
    /** Why the skipped tasks were, when all were for one reason ("removed from Claude Code's task list"). */
    skipped_why: string | null;
    failed: number;
    remaining: number;
    current_task: string | null;
    /**
     * The workflow follows an agent's own task list (its hooks or an import read it), and tasks are left: the agent is
     * asked to keep them in its list in their words, by which Baton ties its list's items to them (a new session's
     * list starts empty, and an item in other words is another task, leaving these open).
     */
    keep_in_list: boolean;
  };
  /**
   * `summary`: what the agent said it did when it completed the task (its `note`), so the next session does not redo
   * it; the first part of the briefing to give way to the budget.
   */
  completed_tasks: { id: string; title: string; status: string; summary?: string }[];
  /** The finished tasks not named (`completed_tasks` holds the rest), and how many of them were skipped. */
  completed_more: number;
  skipped_more: number;
  /**
   * `reason`: why a failed or blocked task is so (the failure's cause, the block's reason), when it was said.
   * `said_done`: the line of the agent's last message, said after a task in progress started, that says it is over
   * (`saidDone`: "Verification passed"): probably done though the list was not updated (a Codex plan left behind, a
   * task another agent's list holds), for the next session to check.
   */
  pending_tasks: {
    id: string;
    title: string;
    status: string;
    deps: string[];
    reason?: string;
    said_done?: string;
    /** Left from an earlier plan, no later list took it up, nothing else open (`leftBehind`): to check, not to go on. */
    left_behind?: true;
  }[];
  /** Commits, pushes, pull requests, files, the passing test run: what must not be redone. */
  already_done: AlreadyDone;
  /** The agent's own last word: its last message or the latest compaction summary, trimmed to fit. */
  last_state: LastState | null;
  /**
   * The latest compaction summary when the agent said more after it (the Last State is that later message): the
   * agent's own account of the session before it, trimmed to fit, the first part to go.
   */
  before_compaction: EarlierSummary | null;
  /** The user interrupted the agent's last turn before it ended (nothing said or asked since): it is not done. */
  interrupted: Interruption | null;
  decisions: ShownDecision[];
  decisions_more: number;
  /** Decisions that are only a request the Goal shows (a directive in the user's words): not listed again. */
  decisions_in_goal?: number;
  /** `edited_after`: a file the error names that the session changed after it (editedAfter): a fix not yet checked. */
  errors_unresolved: {
    type: string;
    message: string;
    context: string | null;
    edited_after?: string;
    /** How often the same failure was met (a failing test run again): said once, where it was met last. */
    times?: number;
  }[];
  /**
   * A worked-around error says what worked when its record does: the call (`instead`), the tool of another kind
   * (`instead_tool`) or the agent's words on the way it took (`agent_said`); short of that, the next call that worked
   * (`next_call`), or that the agent went on without what failed (`went_on_without`).
   */
  errors_resolved: {
    type: string;
    message: string;
    resolution: string;
    instead?: string;
    instead_tool?: string;
    agent_said?: string;
    next_call?: string;
    went_on_without?: true;
  }[];
  errors_more: number;
  /** Unresolved errors not listed (older than the newest the state keeps): counted in `errors_more` too. */
  errors_unresolved_more?: number;
  git: {
    branch: string | null;
    head: string | null;
    /** HEAD's subject line, when the capture read it. */
    head_subject: string | null;
    files_modified: number;
    has_uncommitted: boolean | null;
    summary: string | null;
    /** The files with uncommitted changes, the first `uncommitted_files` (absent: none, or not known). */
    uncommitted_files?: string[];
    /** Those not named. */
    uncommitted_more?: number;
    /** The files whose only uncommitted change is Baton's instructions block from `baton init` (absent: none). */
    baton_block?: string[];
    /** An unresolved conflict or an operation stopped half-way, in words (`conflictWords`; absent: none). */
    conflict?: string;
    note: string | null;
    /**
     * Where the imported session was recorded, when that is not here: its folder outside the worktree (another
     * machine, another clone), or its branch not the one checked out now. Absent otherwise.
     */
    recorded?: { cwd: string | null; branch: string | null };
    /** Where the uncommitted changes are when not in this checkout (`ContextWorkflow.checkout_elsewhere`). */
    checkout_elsewhere?: string;
  };
  test_state: Tdd | null;
  next: {
    task_id: string | null;
    title: string | null;
    description: string | null;
    ended_because: string;
    /**
     * The briefed agent's own usage limit, in words, while it is in force and `ended_because` does not say it (another
     * agent worked since: Codex went on while Claude Code waited for its reset). Absent otherwise.
     */
    own_limit?: string;
    /**
     * The user's latest request (a later one, not the issue) was said after the task list last changed, and the
     * context has room to say so.
     */
    latest_request_first: boolean;
    /**
     * The user's latest request (a later one, not the issue) was said after the task list last changed, answered or
     * not (`answered`): the list does not hold the work it asked for.
     */
    request_after_list: boolean;
    /** The context has room to say that the latest request came after the task list (`request_after_list`). */
    newer_request_note: boolean;
    /**
     * Tasks are left, and the agent's last message is newer than the task list's last change: the list may be behind
     * what the message reports (an agent that stopped updating its plan, as Codex agents often do, then said
     * "Verification passed").
     */
    list_behind: boolean;
    /**
     * The agent's last message is newer than the user's latest request, and its turn was not cut off after it
     * (`cut_off`): its reply to it (the Last State).
     */
    answered: boolean;
    /**
     * Something other than the agent cut off its turn on the user's latest request, and nothing was said or asked
     * since (`turnStoppedBy`), or only the user's go-ahead to go on with it (`resumed`): an API error, a full context,
     * a usage limit (`by`); `said`: the agent's last message came in that turn, so it tells how far the turn got. The
     * request is still to be carried out (`cut-turn.ts`). Absent otherwise.
     */
    cut_off?: CutTurn;
    /**
     * The user's latest word is a go-ahead ("approved", "yep let's do it") said after the agent's last message: their
     * answer to what it proposed or asked, in their words (the Goal leaves go-aheads out). Null otherwise.
     */
    go_ahead: string | null;
    /**
     * Changes the session recorded after that go-ahead (files written, commits: side effects) before it ended: what
     * the agent proposed may be partly done. Absent: none, or no go-ahead.
     */
    go_ahead_work?: number;
    /** The state, plan or notes file the session wrote last (notes-file.ts): read before going on. Null: none. */
    notes_file: string | null;
    /**
     * The commits recorded since the next task, in progress, started (commits-since.ts): it may be done though the
     * list does not say so. Absent: none.
     */
    commits_since_start?: CommitsSince;
    /**
     * A pause the user asked for still waits for the task under way to finish (or the agent's turn to end): the
     * session finishes that task and ends its turn. Absent: none waits.
     */
    pause_waiting?: PauseWaiting;
  };
  reviewer_feedback: { reviewer: string; severity: string; comments: string[]; more: number }[];
  warnings: string[];
  /** Another conversation at work on the workflow (a warning says it; the next step and the Last State heed it). */
  elsewhere?: Elsewhere;
  /** Set by the fitter when even the facts that are never dropped do not fit the budget. */
  over_budget: boolean;
}

/** The last `n` items (none for 0: `slice(-0)` would give them all). */
const last = <T>(list: readonly T[], n: number): T[] => (n > 0 ? list.slice(-n) : []);

/**
 * The finished tasks a context names within `n`: the last ones, done before skipped (a skipped task was superseded
 * or left out; work done is what the next session must not redo), in the list's order.
 */
function namedFinished<T extends { status: string }>(finished: readonly T[], n: number): T[] {
  if (finished.length <= n) return [...finished];
  const keep = new Set(
    last(
      finished.filter((t) => t.status === 'done'),
      n,
    ),
  );
  for (const t of [...finished].reverse()) if (keep.size < n) keep.add(t);
  return finished.filter((t) => keep.has(t));
}

/** The reason every one of these tasks gives (its note), when they all give the same one; else null. */
function oneReason(tasks: readonly { note: string | null }[]): string | null {
  const notes = new Set(tasks.map((t) => t.note));
  const [only] = notes;
  return notes.size === 1 && only ? only : null;
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/** When the task list last changed (a task added, started or ended), or -Infinity when no task ever moved. */
function listChangedAt(snap: SessionSnapshot): number {
  // a task added is a change too: a list that took in a later request as a step of its own answers that request
  return Math.max(
    ...snap.tasks
      .flatMap((t) => [time(t.started_at), time(t.ended_at), time(t.added_at)])
      .filter((n) => n >= 0),
  );
}

/** When the user's latest request was said, or null when none came (the issue stands alone). */
const latestRequestAt = (snap: SessionSnapshot) => {
  const latest = snap.requests.at(-1);
  return latest ? time(latest.at ?? latest.timestamp) : null;
};

/**
 * Whether the user's latest request, a later one (the issue is what the tasks were made for), was said after the task
 * list last changed: the tasks then answer an older request. When the agent's last message did not come after it
 * either (`answered`), nothing the agent said answers it, and the next session must see it first.
 */
function requestAfterList(snap: SessionSnapshot): boolean {
  // a go-ahead ("ok continue") asks for nothing the task list does not say
  const latest = snap.requests.at(-1);
  if (!latest || latest.id === snap.issue?.id || !snap.tasks.length || onlyGoesOn(latest)) return false;
  const said = latestRequestAt(snap) ?? NaN;
  const changed = listChangedAt(snap);
  return changed >= 0 && said > changed;
}

/**
 * Whether the agent's last message replies to the user's latest request: it came after it, and the turn ended on it,
 * not cut off after it by an API error or a usage limit (a message on the way is no reply).
 */
const answered = (snap: SessionSnapshot) => saidSince(snap, snap.requests.at(-1)) && !cutTurn(snap);

/** Where the imported session was recorded, when not here (`git.recorded`): another folder, or another branch. */
function recordedApart(place: RecordedPlace | null, branch: string | null) {
  if (!place) return {};
  const otherBranch = place.branch !== null && place.branch !== branch;
  return place.elsewhere || otherBranch
    ? { recorded: { cwd: place.elsewhere ? place.cwd : null, branch: place.branch } }
    : {};
}

/**
 * The user's go-ahead said after the agent's last message (`go_ahead`), in their words; none once the agent went on
 * with it by its task list (the list moved after the go-ahead: the turn was cut before it spoke again), which then
 * says what comes next. Work without a list (a commit) leaves it: what it proposed may be only partly done. None
 * either when a request that asks for something came between the message and the go-ahead (the message is older than
 * the turn the go-ahead goes on with: a usage limit cut that turn off before a word, or a new conversation began):
 * the go-ahead is about that request (`cutTurn`), not an answer to the message.
 */
function goAhead(snap: SessionSnapshot): { go_ahead: string | null; go_ahead_work?: number } {
  const none = { go_ahead: null };
  const latest = snap.requests.at(-1);
  if (!latest || latest.id === snap.issue?.id || !onlyGoesOn(latest)) return none;
  const said = lastSaidAt(snap);
  const at = latestRequestAt(snap) ?? NaN;
  if (said === null || !(at > said) || listChangedAt(snap) > at) return none;
  const asked = latestAsking(snap);
  if (asked && requestAt(asked) > said) return none;
  const work = (snap.side_effects ?? []).filter((e) => time(e.timestamp) > at).length;
  return { go_ahead: latest.text.replace(/\s+/g, ' ').trim(), ...(work ? { go_ahead_work: work } : {}) };
}

/**
 * Whether the agent's last word (its last message, or a compaction's summary of where it stood) came after the task
 * list last changed while tasks are left (`list_behind`).
 */
function listBehind(snap: SessionSnapshot): boolean {
  const compacted = snap.summaries?.compaction;
  const said = Math.max(
    -1,
    ...[lastSaidAt(snap), compacted ? time(compacted.timestamp) : null].filter(
      (t): t is number => t !== null && Number.isFinite(t),
    ),
  );
  const changed = listChangedAt(snap);
  const left = snap.tasks.some((t) => t.status !== 'done' && t.status !== 'skipped');
  return left && said >= 0 && changed >= 0 && said > changed;
}

/** The same failure met again and again (its type and message alike) is one, where it was met last, with how often. */
function onceEach<E extends { error_type: string; error_message: string }>(errors: readonly E[]) {
  const seen = new Map<string, { error: E; times: number }>();
  for (const error of errors) {
    const key = `${error.error_type}\n${error.error_message}`;
    const times = (seen.get(key)?.times ?? 0) + 1;
    seen.delete(key);
    seen.set(key, { error, times });
  }
  return [...seen.values()];
}

/** The pause that still waits, its reason cut as a request is; none for a finished workflow (nothing goes on). */
function pauseShown(p: PauseWaiting | null, finished: TerminalStatus | null, limits: ContextLimits) {
  if (!p || finished) return {};
  const reason = p.reason?.replace(/\s+/g, ' ').trim();
  return { pause_waiting: { ...p, reason: reason ? clip(reason, limits.request_chars) : null } };
}

/**
 * Compiles the resume context of a snapshot for session `sessionNumber` (Amelia's template, schema first), of the
 * workflow as it is now when given.
 */
export function compileResumeContext(
  snap: SessionSnapshot,
  sessionNumber: number,
  warnings: string[] = [],
  limits: ContextLimits = defaultLimits,
  workflow: ContextWorkflow | null = null,
): ResumeContext {
  const counts = taskCounts(snap.tasks);
  const completed = snap.tasks.filter((t) => t.status === 'done' || t.status === 'skipped');
  const named = namedFinished(completed, limits.completed_tasks);
  // the API failing under the agent is no error of the work: while it holds, it is the stop of the last turn, which
  // What to Do Next says; once the agent went on, it is over. Neither listed nor counted here
  const ofWork = snap.errors.filter(
    (e) => apiFailureStanding(e, snap.summaries, snap.requests.at(-1)) === null,
  );
  const apiFailures = snap.errors.length - ofWork.length;
  const unresolved = ofWork.filter((e) => e.resolution === 'unresolved');
  // a slip fixed at once (the same call succeeding right after it) is noise to the next session: counted, not listed
  const resolved = ofWork.filter((e) => e.resolution !== 'unresolved' && !fixedAtOnce(e));
  const next = snap.tasks.find((t) => t.id === snap.next_task_id) ?? null;
  const left = new Set(leftBehind(snap.tasks).map((t) => t.id));
  const title = (t: string) => clip(t, limits.task_title_chars);
  const decisions = keyDecisions(snap, limits);
  const finished = workflow && isTerminal(workflow.status) ? workflow.status : null;
  // a finished workflow's task left open is not gone on with
  const since = finished
    ? null
    : commitsSinceStarted(next, snap.side_effects ?? [], limits.commit_subject_chars);
  const cut = cutTurn(snap);
  // a limit's reset already past when the context is made (else when the snapshot was taken) is said so
  const now = new Date(workflow?.now ?? snap.created_at);
  const stop = turnStop(snap.summaries, snap.requests.at(-1), now);
  const briefed = workflow?.briefed_agent ?? null;
  const own = briefed ? limitInForce(snap.summaries, snap.requests, now, briefed) : null;
  return {
    schema_version: 1,
    ...(briefed ? { briefed_agent: briefed } : {}),
    workflow_id: snap.workflow_id,
    snapshot_id: snap.id,
    session_number: sessionNumber,
    total_sessions: sessionNumber,
    finished,
    goal: {
      ...goalOf(snap, limits),
      ...(workflow?.earlier ? { earlier: earlierShown(workflow.earlier, limits) } : {}),
    },
    plan_status: {
      total: counts.total,
      done: counts.done,
      skipped: counts.skipped,
      skipped_why: oneReason(snap.tasks.filter((t) => t.status === 'skipped')),
      failed: counts.failed,
      remaining: counts.remaining,
      // a finished workflow has no task under way: what was in progress when it ended was left open
      current_task: finished ? null : snap.current_task_id,
      keep_in_list:
        limits.list_words > 0 &&
        !finished &&
        Object.keys(workflow?.agent_tasks ?? {}).length > 0 &&
        snap.tasks.some((t) => t.status !== 'done' && t.status !== 'skipped'),
    },
    completed_tasks: named.map((t) => {
      const summary = t.status === 'done' ? (t.note?.replace(/\s+/g, ' ').trim() ?? '') : '';
      return {
        id: t.id,
        title: title(t.title),
        status: t.status,
        ...(summary && limits.done_summary_chars > 0
          ? { summary: clip(summary, limits.done_summary_chars) }
          : {}),
      };
    }),
    completed_more: completed.length - named.length,
    skipped_more: completed.filter((t) => t.status === 'skipped' && !named.includes(t)).length,
    pending_tasks: snap.tasks
      .filter((t) => t.status !== 'done' && t.status !== 'skipped')
      .map((t) => {
        // a finished workflow's task left open is not gone on with: nothing to check
        const said = finished
          ? null
          : probablyDone({ summaries: snap.summaries, asked: snap.requests.at(-1) }, t);
        return {
          id: t.id,
          title: title(t.title),
          status: t.status,
          deps: t.deps,
          ...((t.status === 'failed' || t.status === 'blocked') && t.note
            ? { reason: clip(t.note.replace(/\s+/g, ' ').trim(), limits.error_chars) }
            : {}),
          ...(said ? { said_done: clip(said, limits.error_chars) } : {}),
          ...(left.has(t.id) ? { left_behind: true as const } : {}),
        };
      }),
    already_done: alreadyDone(snap, limits, workflow?.worktree ?? null, !!workflow?.checkout_elsewhere),
    last_state: lastState(snap, limits.last_state_chars),
    before_compaction: beforeCompaction(snap, limits.compaction_chars),
    interrupted: interruptionOf(snap),
    // a decision that is only a request the Goal shows is not shown twice
    decisions: decisions.decisions,
    decisions_more: decisions.more,
    ...(decisions.in_goal ? { decisions_in_goal: decisions.in_goal } : {}),
    errors_unresolved: onceEach(unresolved).map(({ error: e, times }) => {
      const edited = editedAfter(e, snap.side_effects ?? []);
      return {
        type: e.error_type,
        message: clip(e.error_message, limits.error_chars),
        // what the agent was doing shrinks with the error, to half of its room, and goes at the error's last floor:
        // the failure itself is what must stay
        context:
          e.context && limits.error_chars > ERROR_CHARS_FLOOR
            ? clip(e.context, Math.min(150, Math.floor(limits.error_chars / 2)))
            : null,
        ...(edited ? { edited_after: edited } : {}),
        ...(times > 1 ? { times } : {}),
      };
    }),
    errors_resolved: last(resolved, limits.resolved_errors).map((e) => {
      const way = e.resolution === 'workaround' ? wayAround(e) : null;
      const max = Math.min(100, limits.error_chars);
      return {
        type: e.error_type,
        message: clip(e.error_message, limits.error_chars),
        resolution: e.resolution,
        ...(way && 'instead' in way ? { instead: clip(way.instead, max) } : {}),
        ...(way && 'instead_tool' in way ? way : {}),
        ...(way && 'agent_said' in way ? { agent_said: clip(way.agent_said, max) } : {}),
        ...(way && 'next_call' in way ? { next_call: clip(way.next_call, max) } : {}),
        ...(way && 'went_on_without' in way ? way : {}),
      };
    }),
    errors_more: Math.max(
      0,
      snap.errors_total - apiFailures - unresolved.length - Math.min(limits.resolved_errors, resolved.length),
    ),
    ...(snap.open_errors_more ? { errors_unresolved_more: snap.open_errors_more } : {}),
    git: {
      branch: snap.git_state?.branch ?? null,
      head: snap.git_state?.commit_at_snapshot ? shortHash(snap.git_state.commit_at_snapshot) : null,
      head_subject: snap.git_state?.head_subject
        ? clip(snap.git_state.head_subject, limits.commit_subject_chars)
        : null,
      files_modified: snap.git_state?.files_modified.length ?? 0,
      has_uncommitted: snap.git_state?.has_uncommitted_changes ?? null,
      summary: snap.git_state?.uncommitted_summary ?? null,
      ...uncommittedNamed(snap.git_state?.uncommitted_files ?? [], limits.uncommitted_files),
      ...(snap.git_state?.baton_block?.length ? { baton_block: snap.git_state.baton_block } : {}),
      ...(snap.git_state?.conflict ? { conflict: conflictWords(snap.git_state.conflict) } : {}),
      note: snap.git_note,
      ...(limits.recorded_place > 0
        ? recordedApart(workflow?.recorded ?? null, snap.git_state?.branch ?? null)
        : {}),
      ...(workflow?.checkout_elsewhere ? { checkout_elsewhere: workflow.checkout_elsewhere } : {}),
    },
    test_state: tddOf(
      snap.test_state,
      limits.failing_tests,
      limits.command_chars,
      snap.side_effects ?? [],
      snap.ci_state ?? null,
      limits.ci_report,
    ),
    next: {
      task_id: next?.id ?? null,
      title: next?.title ?? null,
      description: next?.description ? clip(next.description, limits.description_chars) : null,
      // a usage limit or an API error that stopped the last turn is why, said here once (not as the last state); a
      // limit's reset already past when the context is made (else when the snapshot was taken) is said so; else the
      // snapshot's trigger and reason, a usage limit's or an API error's reason alone (it names it: "usage_limit: usage
      // limit")
      ended_because:
        stop ??
        ((snap.trigger === 'usage_limit' || snap.trigger === 'api_error') && snap.pause_reason
          ? snap.pause_reason
          : `${snap.trigger}${snap.pause_reason ? `: ${snap.pause_reason}` : ''}`),
      ...(own && own !== stop ? { own_limit: own } : {}),
      latest_request_first: limits.newer_request_note > 0 && requestAfterList(snap) && !answered(snap),
      request_after_list: requestAfterList(snap),
      newer_request_note: limits.newer_request_note > 0,
      list_behind: listBehind(snap),
      answered: answered(snap),
      ...(cut ? { cut_off: cut } : {}),
      ...goAhead(snap),
      notes_file: limits.notes_file > 0 ? notesFileOf(snap.side_effects ?? []) : null,
      ...(since ? { commits_since_start: since } : {}),
      ...pauseShown(workflow?.pause_waiting ?? null, finished, limits),
    },
    reviewer_feedback: (snap.reviewer_feedback ?? [])
      .filter((f) => !f.addressed)
      .map((f) => ({
        reviewer: f.reviewer_persona,
        severity: f.severity,
        comments: f.comments.slice(0, limits.feedback_comments),
        more: Math.max(0, f.comments.length - limits.feedback_comments),
      })),
    // the branch changed when the snapshot was taken: first (a resume's own warnings may say it too, in the same words)
    warnings: [
      ...new Set([
        ...(snap.branch_changed ? [branchChangeWarning(snap.branch_changed)] : []),
        ...(workflow?.elsewhere ? [elsewhereWarning[workflow.elsewhere]] : []),
        ...warnings,
      ]),
    ],
    ...(workflow?.elsewhere ? { elsewhere: workflow.elsewhere } : {}),
    over_budget: false,
  };
}
