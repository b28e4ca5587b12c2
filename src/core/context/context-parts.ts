import { LEFT_RUNNING, NEVER_RETURNED, NOT_ANSWERED, SPOKE_AFTER } from '../call-text.js';
import { cutTurn, stopperWords, type CutTurn } from './cut-turn.js';
import { clip } from '../clip.js';
import { summaryAgent } from '../turn-stop.js';
import { isCoverageUnmet } from '../coverage-threshold.js';
import { byIsoTime } from '../iso-order.js';
import { compactionBody } from './compaction-words.js';
import { counted } from '../counted.js';
import { askOf, gistOf, staysInForce } from '../requests/request-gist.js';
import { onlyGoesOn, requestTitle, USER_DIRECTIVE } from '../requests/request-text.js';
import type { ListItem } from '../requests/menu-pick.js';
import { interruptedTurn } from '../interrupted-turn.js';
import { correctionOf } from './corrected-decisions.js';
import { absoluteFrom, fileChangeOf, pathInWorktree } from './file-change.js';
import { worktreeAdded } from '../git-branches.js';
import { doneCommits, type DoneCommit } from './done-commits.js';
import { pushTarget } from './done-words.js';
import { fitSummary } from './fit-summary.js';
import { landedCalls } from './landed-calls.js';
import type { CiState, Decision, TestState } from '../schemas/records.js';
import { ciAfterRun, type CiAfterRun } from './ci-after-run.js';
import { failingCount } from '../commands/records.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import type { ContextLimits } from './resume-context.js';
import { appDirective, endsAnnouncing, endsOnHandoff, endsOnQuestion } from '../message-ends.js';

export interface Goal {
  /** The workflow's title: what the goal is called when no request or issue says it. */
  title: string | null;
  /**
   * `from_request`: the issue is the user's first request (its title is the request's first line); `refers_to`: the
   * item of the agent's list that request named by its label (menu-pick.ts).
   */
  issue: {
    id: string;
    title: string;
    description: string;
    from_request: boolean;
    refers_to?: ListItem;
  } | null;
  /** The user's later requests, in their words, oldest first, each with the item of the agent's list it named. */
  requests: Asked[];
  requests_more: number;
  /**
   * The completed workflow this one went on from (the same conversation's, completed or `abandoned`, or the last one
   * here before a new conversation: `new_conversation`): its earlier work, not recorded here, and what it left done (its pull requests,
   * last push and last commits), as recorded when this workflow began.
   */
  earlier?: {
    workflow_id: string;
    title: string;
    done: string[];
    new_conversation?: true;
    abandoned?: true;
  };
  /**
   * The go-ahead the recorded conversation opened on, before the request shown as the issue ("yep let's do it"): what
   * it agreed to was said before anything recorded here.
   */
  opened_on?: string;
}

/** A request as the Goal says it: the user's words, and the item of the agent's list they named by its label. */
export interface Asked {
  text: string;
  refers_to?: ListItem;
}

/**
 * An issue made from the user's first request: its title is the request's title (`requestTitle`: its first line, or its
 * task section's, links as they read), or its first line as an older Baton titled it. One without a title is not (every
 * text starts with no words): one given through the REST API with its description only.
 */
export const isFirstRequest = (issue: { title: string; description: string }) =>
  issue.title.trim() !== '' &&
  (requestTitle(issue.description) === issue.title ||
    askOf(issue.description).trimStart().startsWith(issue.title.replace(/…$/, '')) ||
    issue.description.startsWith(issue.title.replace(/…$/, '')));

/**
 * The room a request is given: `max`, or its whole length when it is only a few characters longer. Such a cut would
 * save a token or two (the " … " it puts in eats three characters) and take out the words the user asked about
 * ("address pr feedback and … checks if any").
 */
const roomFor = (text: string, max: number) =>
  text.trim().length - max < 12 ? Math.max(max, text.length) : max;

/**
 * The user's later requests (after the issue when it is one of them: a question before the task, "show tools", is no
 * later instruction), in their words, oldest first.
 */
function laterRequests(snap: SessionSnapshot): Asked[] {
  const requests = snap.requests ?? [];
  const from = requests.findIndex((r) => r.id === snap.issue?.id) + 1;
  // a go-ahead ("ok continue", "continue where you left off") answers the agent, it is no instruction of the goal;
  // a letter that names an item of the agent's list says what to do by that item; the older requests that limit what
  // the agent may do come first, as they were said
  return [...(snap.standing_requests ?? []), ...requests.slice(from)]
    .filter((r) => !onlyGoesOn(r))
    .map((r) => ({ text: r.text.trim(), ...(r.refers_to ? { refers_to: r.refers_to } : {}) }));
}

/**
 * The later requests the Goal lists, `later_requests` of them: the latest, then those that say what the agent may not
 * do ("don't produce code, design solution first") or set a rule for the session ("use pnpm"), newest first, then the
 * rest (withRoom).
 */
const shownLater = (later: Asked[], limits: ContextLimits) =>
  withRoom(later, limits.later_requests, (r) => staysInForce(r.text));

/** The item a request named, cut as its words are. */
const itemShown = (named: ListItem | undefined, max: number) =>
  named ? { refers_to: { label: named.label, item: clip(named.item, max) } } : {};

/** The issue (the first request when it came from one) and the later requests, newest kept when cut. */
export function goalOf(snap: SessionSnapshot, limits: ContextLimits): Goal {
  // a long request keeps what it asks (request-gist.ts)
  const issue = snap.issue
    ? {
        ...snap.issue,
        description: gistOf(snap.issue.description, roomFor(snap.issue.description, limits.issue_chars)),
        from_request: isFirstRequest(snap.issue),
        ...itemShown(snap.issue.refers_to, limits.issue_chars),
      }
    : null;
  const requests = snap.requests ?? [];
  const later = laterRequests(snap);
  const shown = shownLater(later, limits);
  // requests older than the snapshot holds (those in force among them are in `later`): the first of them is the issue
  // when the issue was the first request
  const older = snap.requests_more ?? 0;
  const standing = snap.standing_requests?.length ?? 0;
  const issue0 = snap.issue;
  const issueKept = issue0 !== null && requests.some((r) => r.id === issue0.id);
  const issueAmongOlder = older > 0 && issue0 !== null && isFirstRequest(issue0) && !issueKept;
  // the first request recorded, a go-ahead passed over for the issue: the conversation began before the record did
  const first = older === 0 ? requests[0] : undefined;
  const openedOn =
    issue?.from_request && first && first.id !== issue0?.id && onlyGoesOn(first) ? first.text : null;
  return {
    title: snap.title ? clip(snap.title, limits.request_chars) : null,
    issue,
    // the latest request says what to do next: it keeps more of its words than the older ones; each keeps what it
    // asks, as the first does (a pasted log with the question after it keeps the question)
    requests: shown.map((r, i) => {
      const max =
        i === shown.length - 1
          ? Math.max(limits.request_chars, limits.latest_request_chars)
          : limits.request_chars;
      return {
        text: gistOf(r.text, roomFor(r.text, max)).replace(/\s+/g, ' '),
        ...itemShown(r.refers_to, max),
      };
    }),
    // the requests older than those kept came before a kept issue: none of them is a later one
    requests_more:
      later.length - shown.length + (issueKept ? 0 : older - standing - (issueAmongOlder ? 1 : 0)),
    ...(openedOn ? { opened_on: clip(openedOn.replace(/\s+/g, ' ').trim(), 80) } : {}),
  };
}

/** A decision as the context shows it; `corrected_by`: a later request of the user's that speaks against it. */
export interface ShownDecision {
  type: string;
  description: string;
  rationale: string;
  corrected_by?: string;
}

export interface KeyDecisions {
  decisions: ShownDecision[];
  /** Decisions neither listed nor in the Goal (older ones, or cut for room): `baton details decisions` has them. */
  more: number;
  /** Decisions that are only a request the Goal shows, in the user's words: not listed again. */
  in_goal: number;
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** A request named by its first words, never all of them (the Goal says it): it is pointed to, not said again. */
const firstWords = (text: string) => {
  const words = text.replace(/\s+/g, ' ').trim();
  return clip(words, Math.min(48, words.length - 1));
};

/**
 * The decisions, newest kept when cut. One that is a request the Goal shows (a directive of the user, a correction
 * the agent took up: its description is the user's words, whole or cut at a word, or the ask of a long prompt) is
 * not listed again; when its rationale says why in other words (what the agent answered), it is listed by a pointer
 * to the request instead of its words. A rationale the description already says is left out.
 */
export function keyDecisions(snap: SessionSnapshot, limits: ContextLimits): KeyDecisions {
  const goal = [
    ...(snap.issue ? [snap.issue.description] : []),
    ...shownLater(laterRequests(snap), limits).map((r) => r.text),
  ].map(flat);
  const inGoal = (description: string) => {
    const said = flat(description).replace(/…$/, '').trim();
    return said.length >= 12 && goal.some((r) => r.includes(said));
  };
  const saysNothing = (d: Decision) =>
    !d.rationale.trim() || d.rationale === USER_DIRECTIVE || flat(d.description).includes(flat(d.rationale));
  const repeated = (d: Decision) => inGoal(d.description) && saysNothing(d);
  const listed = snap.decisions.filter((d) => !repeated(d));
  const shown = withRoom(listed, limits.decisions, (d) => !saysNothing(d));
  const inGoalCount = snap.decisions.length - listed.length;
  return {
    decisions: shown.map((d) => {
      const description = inGoal(d.description)
        ? `the user's request above ("${firstWords(d.description)}")`
        : clip(d.description, 300);
      const said = flat(clip(d.description, 300)).includes(flat(d.rationale));
      const corrected = correctionOf(d, snap.requests ?? [], (snap.requests_more ?? 0) > 0, snap.decisions);
      return {
        type: d.decision_type,
        description,
        rationale: said ? '' : clip(d.rationale, 200),
        ...(corrected ? { corrected_by: clip(corrected, 160) } : {}),
      };
    }),
    more: Math.max(0, snap.decisions_total - inGoalCount - shown.length),
    in_goal: inGoalCount,
  };
}

/**
 * What is shown of a list when not all of it fits, in its order: its latest item (the decision the work follows now,
 * the user's latest request), then those `weighty` (a decision that says why, a request that limits the agent), the
 * newest first, then the rest, the newest first.
 */
function withRoom<T>(listed: readonly T[], room: number, weighty: (d: T) => boolean): T[] {
  if (room <= 0) return [];
  if (listed.length <= room) return [...listed];
  const last = listed.length - 1;
  const order = listed
    .map((d, i) => ({ i, rank: i === last ? 2 : weighty(d) ? 1 : 0 }))
    .sort((a, b) => b.rank - a.rank || b.i - a.i);
  const kept = new Set(order.slice(0, room).map((o) => o.i));
  return listed.filter((_, i) => kept.has(i));
}

export interface AlreadyDone {
  /**
   * Every commit made since the workflow began, each once (done-commits.ts): reported by a transcript (with the
   * hash git printed) or found in git; one Baton's runner recorded that git did not confirm has its task and command.
   */
  commits: DoneCommit[];
  /** Commits since the workflow began not listed (older ones git has), and the command that lists them. */
  commits_more: number;
  commits_more_command: string | null;
  pushes: string[];
  pull_requests: string[];
  /** Pushes and pull requests not listed for want of room. */
  pushes_prs_more: number;
  /**
   * "edited src/a.ts": one entry per file with its last change (created and then edited is created), relative to the
   * worktree, or to `files_under` for files outside it; "(uncommitted)" after one git shows changed since its commit,
   * "(committed, then changed: uncommitted)" after one a commit of the workflow holds too (its creation, say).
   */
  files: string[];
  files_more: number;
  /** The folder every listed file is under (said once), or null. */
  files_under?: string | null;
  /**
   * The worktree the agent added (`git worktree add`) that listed files are in: Git State does not read its git, so
   * whether they are committed is asked there. Null when none is.
   */
  files_elsewhere?: string | null;
  /** Other recorded side effects others see or that change data (a comment posted, a release, a migration). */
  other: { kind: string; task_id: string | null; summary: string }[];
  other_more: number;
  /** The last test run, when it passed. */
  tests_passing: string | null;
  /** Files changed after that passing run: it no longer says they work (changedSince). */
  tests_changed_since: number;
  /**
   * True when there is no room for the lines that only count (the files not named, `tests pass`): the Last State
   * says more in their place (`done_counts`).
   */
  counts_left_out?: true;
}

/**
 * One change per file (its path relative to the worktree when inside it), in the order of each file's last change:
 * created then edited is `created`, anything then deleted is `deleted`, created then deleted leaves nothing to redo
 * but is said (`created and deleted`), deleted then created again is `created`.
 */
function fileChanges(
  summaries: readonly string[],
  worktree: string | null,
): { change: string; path: string }[] {
  const byPath = new Map<string, string>();
  for (const summary of summaries) {
    const m = fileChangeOf(summary);
    const [change, named] = m ? [m.change as string, m.path] : ['changed', summary];
    const path = pathInWorktree(named, worktree);
    const before = byPath.get(path);
    byPath.delete(path);
    const merged =
      before === 'created' && change === 'edited'
        ? 'created'
        : before === 'created' && change === 'deleted'
          ? 'created and deleted'
          : change;
    byPath.set(path, merged);
  }
  return [...byPath].map(([path, change]) => ({ change, path }));
}

/**
 * A pull request created and then merged is one entry: its address, said merged. Its latest known state wins: auto-merge
 * enabled, then the pull request merged (`gh pr merge`, or a later `gh pr view` showing it), is said merged only.
 */
export function mergedOnce(prs: readonly string[]): string[] {
  const merged = new Set(prs.flatMap((p) => /^merged PR #(\d+)$/.exec(p)?.[1] ?? []));
  const urls = new Set(prs.flatMap((p) => /\/pull\/(\d+)$/.exec(p)?.[1] ?? []));
  return prs.flatMap((p, i) => {
    const n = /^merged PR #(\d+)$/.exec(p)?.[1];
    if (n && urls.has(n)) return [];
    const queued = /^enabled auto-merge of PR #(\d+)$/.exec(p)?.[1];
    if (queued && prs.slice(i + 1).includes(`merged PR #${queued}`)) return [];
    const u = /\/pull\/(\d+)$/.exec(p)?.[1];
    return [u && merged.has(u) ? `${p} (merged)` : p];
  });
}

/** The most characters of files named though the list has no room: about twice its count's line. */
const FEW_FILES_CHARS = 64;

/**
 * The deepest folder that holds every path (said once instead of on each), when there are two paths or more, all of
 * one kind: POSIX (`/home/ana/app`) or Windows (`C:\Users\ana\app`, a session of a Windows machine).
 */
function commonFolder(paths: readonly string[]): string | null {
  const sep = paths.every((p) => p.startsWith('/'))
    ? '/'
    : paths.every((p) => /^[A-Za-z]:\\/.test(p))
      ? '\\'
      : null;
  if (paths.length < 2 || sep === null) return null;
  const parts = paths.map((p) => p.split(sep).slice(0, -1));
  const first = parts[0] as string[];
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n += 1;
  // a drive alone (`C:`) is no folder worth naming, nor is the root
  return n >= 2 ? first.slice(0, n).join(sep) : null;
}

/**
 * Side effects the next session must not redo, grouped, files newest first when cut (relative to `worktree` when
 * inside it). `otherCheckout`: read where the workflow's checkout is not (another person's machine).
 */
export function alreadyDone(
  snap: SessionSnapshot,
  limits: ContextLimits,
  worktree: string | null = null,
  otherCheckout = false,
): AlreadyDone {
  const effects = snap.side_effects ?? [];
  const done = doneCommits(effects, snap.git_state, limits);
  const files = fileChanges(
    effects.filter((e) => e.kind === 'file_write').map((e) => e.summary),
    worktree,
  );
  const named = (list: typeof files) => {
    const under = commonFolder(list.map((f) => f.path));
    return {
      under,
      list,
      names: list.map((f) => `${f.change} ${under ? f.path.slice(under.length + 1) : f.path}`),
    };
  };
  // files whose names are about as short as their count ("2 files created, edited or deleted") are named whatever
  // the limit: the count alone tells the next session nothing
  const all = named(files);
  const few = (all.under ?? '').length + all.names.join('; ').length <= FEW_FILES_CHARS;
  const shown =
    few || limits.files >= files.length
      ? all
      : limits.files > 0
        ? named(files.slice(-limits.files))
        : { under: null, list: [], names: [] };
  // a file git shows changed since its last commit: a change under way as much as one done (Git State names it too)
  const dirty = new Set(snap.git_state?.uncommitted_files ?? []);
  // and one a commit since the workflow began holds too: "created ... (uncommitted)" would read as no commit holding it
  const recommitted = new Set(snap.git_state?.changed_after_commit ?? []);
  const uncommitted = (path: string) => {
    if (!dirty.has(path)) return '';
    const where = otherCheckout ? 'uncommitted in its own checkout, not here' : 'uncommitted';
    return recommitted.has(path) ? ` (committed, then changed: ${where})` : ` (${where})`;
  };
  // files in a worktree the agent added: Git State reads only this worktree's git, so whether they are committed there
  // is not known here
  const added = worktree
    ? effects.flatMap((e) => {
        const folder = e.kind === 'other' ? worktreeAdded(e.summary) : null;
        return folder ? [absoluteFrom(worktree, folder)] : [];
      })
    : [];
  const elsewhere = added.findLast((w) => shown.list.some((f) => f.path.startsWith(`${w}/`))) ?? null;
  const shownFiles = shown.names.map(
    // read from another checkout (a teammate's): uncommitted there is not here
    (name, i) => `${clip(name, 160)}${uncommitted(shown.list[i]!.path)}`,
  );
  // a comment posted, a release, a migration: not to redo, as a push, and kept in the room the pushes leave
  const other = effects.filter((e) => e.kind === 'migration' || e.kind === 'other');
  const t = snap.test_state;
  const passing =
    t && failingCount(t) === 0 && !t.not_run_again && t.last_test_command
      ? t.last_test_output_summary || 'all passed'
      : null;
  const changed = t ? changedSince(effects, t.last_test_run_at) : 0;
  // a branch pushed again is where its last push left it: the earlier pushes of it are not listed
  const pushed = effects.filter((e) => e.kind === 'push').map((e) => e.summary);
  const pushes = pushed
    .filter((p, i) => {
      const target = pushTarget(p);
      return !target || !pushed.slice(i + 1).some((later) => pushTarget(later) === target);
    })
    .map((p) => clip(p, 160));
  const prs = mergedOnce(effects.filter((e) => e.kind === 'pr').map((e) => e.summary)).map((p) =>
    clip(p, 160),
  );
  // the newest first when cut, pull requests before pushes, then the other side effects: what the work delivered first
  const shownPrs = limits.pushes_prs > 0 ? prs.slice(-limits.pushes_prs) : [];
  const room = Math.max(0, limits.pushes_prs - shownPrs.length);
  const shownPushes = room > 0 ? pushes.slice(-room) : [];
  const left = room - shownPushes.length;
  const shownOther = left > 0 ? other.slice(-left) : [];
  return {
    commits: done.commits,
    commits_more: done.more,
    commits_more_command: done.more_command,
    pushes: shownPushes,
    pull_requests: shownPrs,
    pushes_prs_more: pushes.length + prs.length - shownPushes.length - shownPrs.length,
    files: shownFiles,
    files_more: files.length - shownFiles.length,
    files_under: shown.under,
    files_elsewhere: elsewhere,
    other: shownOther.map((e) => ({
      kind: e.kind,
      task_id: e.task_id ?? null,
      summary: clip(e.summary, 160),
    })),
    other_more: other.length - shownOther.length,
    tests_passing: passing,
    tests_changed_since: passing ? changed : 0,
    ...(limits.done_counts > 0 ? {} : { counts_left_out: true as const }),
  };
}

/**
 * What a test run does not read: prose (documentation files, what is under a docs folder), the CI service's own
 * configuration (GitHub Actions workflows, `.gitlab-ci.yml`, CircleCI's), which only the CI service runs, and what the
 * test tools write themselves (coverage data and reports, their caches): a run makes them anew.
 */
const proseFile =
  /(?:^|\/)docs?\/|\.(?:md|mdx|markdown|rst|adoc)$|(?:^|\/)\.github\/workflows\/|(?:^|\/)\.gitlab-ci\.ya?ml$|(?:^|\/)\.circleci\/|(?:^|\/)(?:\.coverage(?:\.[\w.-]+)?|coverage\.xml|lcov\.info|htmlcov|\.nyc_output|\.pytest_cache|__pycache__|\.mypy_cache|\.ruff_cache)(?:\/|$)/i;

/**
 * The files the session changed after a test run (`at`) that its result no longer vouches for: any but prose (an ADR,
 * the README, a progress note). Counted as the ledger holds them: a file once per change, and again after each check.
 */
export function changedSince(
  effects: readonly { kind: string; timestamp: string; summary: string }[],
  at: string | null,
): number {
  return changedAfter(effects, at).length;
}

/** The file changes changedSince counts: those after `at`, prose aside. */
export function changedAfter<E extends { kind: string; timestamp: string; summary: string }>(
  effects: readonly E[],
  at: string | null,
): E[] {
  if (!at) return [];
  const t = Date.parse(at);
  return effects.filter(
    (e) =>
      e.kind === 'file_write' &&
      Date.parse(e.timestamp) > t &&
      !proseFile.test(fileChangeOf(e.summary)?.path ?? e.summary),
  );
}

/** The user interrupted the agent's last turn: when, and the request it was on (by its first words). */
export interface Interruption {
  at: string;
  request: string | null;
}

/**
 * The user's interruption of the last turn while it is the last (`interruptedTurn`); its request is the latest one,
 * since none came after it.
 */
export function interruptionOf(snap: SessionSnapshot): Interruption | null {
  const asked = snap.requests.at(-1);
  const cut = interruptedTurn(snap.summaries, asked);
  return cut ? { at: cut.timestamp, request: asked ? firstWords(asked.text) : null } : null;
}

export interface LastState {
  /** `said_nothing`: the session was cut off before the agent said anything (the text names the calls left open). */
  kind: 'last_message' | 'compaction' | 'said_nothing';
  at: string;
  /** Empty when the budget left no room for any of it (`cut` is then its whole length). */
  text: string;
  /** Characters of the summary not shown (retrieve it whole with details). */
  cut: number;
  /**
   * What the other sections record as newer than a compaction summary ("T2 done", "1 commit", a test run): its
   * Current Work and Next Step may be behind them (a commit and a task done after the compaction, then the session
   * ended without another word). Empty for a last message: what follows it is what it announced (the task `baton
   * run` marks done once the agent's run ended), and a call it left open is named in its text; unless the user asked
   * for more after it (a push and a pull request, asked for and made without another word). A session cut off
   * before the agent said anything announced nothing: the work of a later turn (the conversation resumed, then stopped
   * by a usage limit before a word) is newer than it, as after a compaction.
   */
  since: string[];
  /**
   * How a last message left things: `asked`, its turn ended on a question to the user ("Should I push?") or handed
   * the next step to their answer ("Reply 'approve' and I'll go on": `endsOnHandoff`), an answer the next session
   * needs; `mid_turn`, the agent went on after it (calls that never returned, or a transcript cut mid-turn) or it ends
   * announcing its next step ("Let me watch the deploy.": `endsAnnouncing`), so what it announced may not be done;
   * `waiting`, its turn ended waiting on commands it left running in the background (CI checks, a deploy), never seen
   * to end, or on sub-agents it started that had not answered (a review agent at work), and the user has said nothing
   * since: how they ended decides what comes next. Null otherwise, for a compaction summary, and for what `undone_by`
   * undid.
   */
  left: 'asked' | 'mid_turn' | 'waiting' | null;
  /** What a `waiting` turn waits on: commands left running in the background, sub-agents that had not answered. */
  waiting_on?: ('commands' | 'sub_agents')[];
  /** The checkpoint `baton recover` went back to after it was said: what it tells of after that checkpoint is undone. */
  undone_by: string | null;
  /** The agent that said it (`claude-code`, `codex`), when its record names one. */
  by?: string;
  /** Every call the last message names as never returned is known to have run (a commit git has): none to check. */
  calls_landed?: true;
}

/** Tasks named in a last state's `since` before the rest become a count. */
const SINCE_TASKS = 6;

/** What the snapshot records after `at`: the tasks the list moved, the commits the transcripts reported, a test run. */
function newerThan(snap: SessionSnapshot, at: string): string[] {
  const t = Date.parse(at);
  const after = (iso: string | null) => iso !== null && Date.parse(iso) > t;
  const moved = snap.tasks.flatMap((task) =>
    ['done', 'skipped', 'failed'].includes(task.status) && after(task.ended_at)
      ? [`${task.id} ${task.status}`]
      : task.status === 'in_progress' && after(task.started_at)
        ? [`${task.id} started`]
        : [],
  );
  const effects = (snap.side_effects ?? []).filter((e) => after(e.timestamp));
  const commits = effects.filter((e) => e.kind === 'commit').length;
  const pushes = effects.filter((e) => e.kind === 'push').length;
  const prs = effects.filter((e) => e.kind === 'pr').length;
  const test = snap.test_state;
  const more = moved.length - SINCE_TASKS;
  return [
    ...(moved.length
      ? [moved.slice(0, SINCE_TASKS).join(', ') + (more > 0 ? ` and ${more} more tasks moved` : '')]
      : []),
    ...(commits ? [counted(commits, 'commit')] : []),
    ...(pushes ? [counted(pushes, 'push', 'pushes')] : []),
    ...(prs ? [counted(prs, 'pull request')] : []),
    ...(test && after(test.last_test_run_at)
      ? [`a test run${test.last_test_output_summary ? ` (${test.last_test_output_summary})` : ''}`]
      : []),
  ];
}

/**
 * A test command as the next session runs it: without the `cd` to an absolute folder it began with (the recording
 * machine's worktree, `cd /Users/a/app && npm test`), which is this worktree or no folder here; a relative `cd` (a
 * package of a monorepo) stays.
 */
export const inItsFolder = (command: string) =>
  command.replace(/^\s*cd\s+(?:"\/[^"]*"|'\/[^']*'|\/\S*)\s*(?:&&|;)\s*/, '');

/**
 * The newest of the agent's last message and its latest compaction summary, fitted to `max` characters (a usage
 * limit's notice is not the agent's words: What to Do Next says it), with what was recorded after it.
 */
export function lastState(snap: SessionSnapshot, max: number): LastState | null {
  const summaries = snap.summaries ?? { compaction: null, last_message: null };
  const { last_message } = summaries;
  // a compaction summary that is nothing but Claude Code's words to the conversation it continues says nothing: as the
  // Last State it would hide the last message (and the calls after it) and show nothing
  const compaction =
    summaries.compaction && compactionBody(summaries.compaction.text) ? summaries.compaction : null;
  const newest = [compaction, last_message]
    .filter((s): s is NonNullable<typeof s> => s !== null)
    .sort((a, b) => byIsoTime(a.timestamp, b.timestamp))
    .at(-1);
  // a stop (a usage limit, an API error) cut off the turn on the user's latest request: what What to Do Next goes on
  // with is that turn, said here after the agent's last word, which is older than the request when it said nothing in
  // that turn (a new conversation's first turn, or the limit hit at once)
  const cut = cutTurn(snap);
  const stopped = cut && (cut.resumed || (newest && !cut.said)) ? stoppedTurnWords(cut, !!newest) : null;
  if (!newest) return stopped ? silentState(snap, stopped, max) : null;
  const kind =
    newest === compaction ? 'compaction' : newest.said_nothing === true ? 'said_nothing' : 'last_message';
  // a last message ends on what it asks or left running: that end stays with its head; with no room, none of it is
  // shown, but how it left things still decides the next step
  const own = (kind === 'compaction' ? compactionBody(newest.text) : newest.text)
    .replace(appDirective, '')
    .trim();
  // a commit whose call never returned and git has since: said to have landed, not left to check (the done commits
  // are listed again only for a message that names such a call: the fit compiles the context many times)
  const calls =
    kind !== 'compaction' && own.includes(NEVER_RETURNED)
      ? landedCalls(own, landedCommits(snap))
      : { text: own, all_landed: false };
  const whole = stopped ? `${calls.text}\n\n${stopped}` : calls.text;
  const fitted =
    max > 0 ? fitSummary(whole, max, { keepEnd: kind !== 'compaction' }) : { text: '', cut: whole.length };
  const waitingOn = waitsOn(newest.text);
  return {
    kind,
    at: newest.timestamp,
    text: fitted.text,
    cut: fitted.cut,
    // what follows a last message is what it announced, unless the user asked for more after it
    since:
      kind === 'last_message' && !askedSince(snap, newest.timestamp) ? [] : newerThan(snap, newest.timestamp),
    undone_by: newest.undone_by ?? null,
    ...(summaryAgent(newest) ? { by: summaryAgent(newest) as string } : {}),
    left:
      kind === 'compaction' || newest.undone_by
        ? null
        : newest.turn_ended === false ||
            kind === 'said_nothing' ||
            (endsAnnouncing(newest.text) && !turnSeenEnding(snap, newest.timestamp)) ||
            cutInItsTurn(snap, newest.timestamp)
          ? 'mid_turn'
          : waitingOn.length && !askedSince(snap, newest.timestamp)
            ? 'waiting'
            : asksTheUser(snap, newest)
              ? 'asked'
              : null,
    ...(waitingOn.length ? { waiting_on: waitingOn } : {}),
    ...(calls.all_landed ? { calls_landed: true } : {}),
  };
}

/**
 * A turn `cutTurn` says was cut off before the agent said anything, in words: after the agent's last word (`after`),
 * in the words that say the user spoke after it (fit-summary.ts keeps them first, newest first); with no word of the
 * agent's at all, on its own. What cut it is named once the user said go on since (What to Do Next names it else).
 */
function stoppedTurnWords(cut: CutTurn, after: boolean): string {
  // while the stop holds, What to Do Next says what it was, once, as why the previous session ended
  const by = cut.resumed ? ` by ${stopperWords[cut.by]}` : '';
  const how = cut.resumed ? '' : ' (by what: What to Do Next says)';
  if (after && cut.request)
    return `${SPOKE_AFTER}${cut.request}", and that turn was cut off${by} before the agent said anything${how}.`;
  const asked = cut.request ? ` "${cut.request}"` : '';
  return `The turn on the user's request${asked} was cut off${by} before the agent said anything${how}.`;
}

/** The Last State of a turn cut off before the agent ever said a word (`stoppedTurnWords`), as of the stop. */
function silentState(snap: SessionSnapshot, text: string, max: number): LastState {
  const stops = [snap.summaries?.usage_limit, snap.summaries?.api_error].filter((s) => !!s);
  const at =
    stops
      .map((s) => s.timestamp)
      .sort(byIsoTime)
      .at(-1) ?? snap.created_at;
  const fitted = max > 0 ? fitSummary(text, max, { keepEnd: true }) : { text: '', cut: text.length };
  return { kind: 'said_nothing', at, ...fitted, since: newerThan(snap, at), undone_by: null, left: null };
}

/** Every commit the done list holds, subjects whole: what a call cut off before it returned may have made. */
const landedCommits = (snap: SessionSnapshot): DoneCommit[] =>
  doneCommits(snap.side_effects ?? [], snap.git_state, {
    commit_subject_chars: 1000,
    git_commits: snap.git_state?.work_commits?.listed.length ?? 0,
  }).commits;

/** What a last message says its turn left to come back to: commands left running, sub-agents not answered. */
const waitsOn = (text: string): ('commands' | 'sub_agents')[] => [
  ...(text.includes(LEFT_RUNNING) ? (['commands'] as const) : []),
  ...(text.includes(NOT_ANSWERED) ? (['sub_agents'] as const) : []),
];

/**
 * A crash or a stop cut the session off in the turn its last message (said at `at`) was part of: a crash snapshot (a
 * driver killed while its agent worked, a conversation whose hooks saw no end of its turn) or a stopped one (its
 * driver stopped by a signal, which stops its agent), the user silent since.
 */
const cutInItsTurn = (snap: SessionSnapshot, at: string) =>
  (snap.trigger === 'crash' || snap.trigger === 'stopped') && !askedSince(snap, at);

/**
 * A hook saw the agent's turn end (a Stop) after its message said at `at`: a message that announced a next step
 * ("Next I'll rewrite loadConfig.") closed a turn, it was not cut off before it did.
 */
const turnSeenEnding = (snap: SessionSnapshot, at: string) =>
  snap.turn_ended_at !== undefined && Date.parse(snap.turn_ended_at) >= Date.parse(at);

/** Whether the user asked for something after `at`. */
const askedSince = (snap: SessionSnapshot, at: string) =>
  snap.requests.some((r) => (r.at ?? r.timestamp) > at);

/**
 * Whether the agent's last message left a question for the user to answer: it ends on one, or on the next step handed
 * to their answer without a "?" (`endsOnHandoff`), no request of the user's came after it (their answer), and a person
 * reads it (a run `baton run` drove has no one to ask).
 */
function asksTheUser(
  snap: SessionSnapshot,
  said: { text: string; timestamp: string; source: string | null },
) {
  const answered = askedSince(snap, said.timestamp);
  return (
    !answered &&
    !said.source?.endsWith(':baton run') &&
    (endsOnQuestion(said.text) || endsOnHandoff(said.text))
  );
}

export interface Tdd {
  phase: string;
  /** Failing tests that were not announced as expected: shown first. */
  unexpected: string[];
  expected: string[];
  failing_total: number;
  /** Named failing tests left out for room (`baton details test-state` lists them). */
  failing_more: number;
  /** Failures the runner counted that the output read names nowhere (its middle cut, or never named). */
  failing_unnamed: number;
  /** The line saying the run's coverage threshold was not met, when that alone failed it (every test passed). */
  coverage_unmet: string | null;
  command: string | null;
  /** "16 passed, 1 failed" as the runner reported it. */
  result: string | null;
  at: string | null;
  /** Files changed after the last run (changedSince): its result is older than them. */
  changed_since: number;
  /** The newest CI report when it came after the last run (ciAfterRun): said with it, never counted as a run. */
  ci: CiAfterRun | null;
  /** Tests an earlier run failed that no run since ran again (TestState `not_run_again`), as many as there is room for. */
  not_run_again: { tests: string[]; more: number; command: string | null } | null;
}

/**
 * A CI report as the room allows: at 1, only one that changes how the run reads (failed, or passed on its changes); at
 * 0, a failure alone.
 */
const ciShown = (ci: CiAfterRun | null, room: number) =>
  ci && (room > 1 || ci.outcome === 'fail' || (room > 0 && ci.covers_changes)) ? ci : null;

/** The TDD state: unexpected failures first, then the expected ones; the counts always agree with the names. */
export function tddOf(
  t: TestState | null,
  maxNames: number,
  commandChars = 160,
  effects: readonly { kind: string; timestamp: string; summary: string }[] = [],
  ci: CiState | null = null,
  /**
   * How much of the CI report is said (`ContextLimits.ci_report`): 3, all; 2, no command; 1, not a confirming pass; 0, a
   * failure alone.
   */
  ciReport = 3,
): Tdd | null {
  if (!t) return null;
  const changed = changedAfter(effects, t.last_test_run_at);
  const expected = new Set(t.expected_failures);
  // a run that failed by its coverage threshold alone records the threshold's line as its failure: no test failed
  const gate = t.failing_tests.length === 1 && !t.failed ? t.failing_tests.find(isCoverageUnmet) : undefined;
  const failing = gate ? [] : t.failing_tests;
  const unexpected = failing.filter((f) => !expected.has(f));
  const expectedFailing = failing.filter((f) => expected.has(f));
  const keep = Math.max(maxNames, 1);
  const shownUnexpected = unexpected.slice(0, keep);
  const shownExpected = expectedFailing.slice(
    0,
    Math.max(0, keep - shownUnexpected.length) || (expectedFailing.length ? 1 : 0),
  );
  return {
    phase: t.phase,
    unexpected: shownUnexpected,
    expected: shownExpected,
    failing_total: gate ? 0 : failingCount(t),
    failing_more:
      unexpected.length - shownUnexpected.length + (expectedFailing.length - shownExpected.length),
    failing_unnamed: gate ? 0 : failingCount(t) - t.failing_tests.length,
    coverage_unmet: gate ?? null,
    command: t.last_test_command ? clip(inItsFolder(t.last_test_command), commandChars) : null,
    result: t.last_test_output_summary,
    at: t.last_test_run_at,
    changed_since: changed.length,
    ci: ciShown(
      ciAfterRun(t.last_test_run_at, ci, changed, effects, ciReport > 2 ? commandChars : 0),
      ciReport,
    ),
    not_run_again: t.not_run_again
      ? {
          tests: t.not_run_again.tests.slice(0, keep),
          more: Math.max(0, t.not_run_again.tests.length - keep),
          command: t.not_run_again.command ? clip(t.not_run_again.command, commandChars) : null,
        }
      : null,
  };
}
