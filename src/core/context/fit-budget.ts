import type { SessionSnapshot } from '../schemas/snapshot.js';
import { renderResumeContext } from './render-context.js';
import {
  compileResumeContext,
  ERROR_CHARS_FLOOR,
  type ContextLimits,
  type ContextWorkflow,
  type ResumeContext,
} from './resume-context.js';

/** Counts tokens the way the agent's model will (a real tokenizer, injected so the core stays pure). */
export type TokenCounter = (text: string) => number;

export interface FittedContext {
  context: ResumeContext;
  markdown: string;
  tokens: number;
  budget: number;
  /** True when even the facts that are never dropped, in their shortest form, exceed the budget. */
  over_budget: boolean;
  /** The limits the fit reached (over the budget, the floors, before the last state is given back). */
  limits: ContextLimits;
}

/** Generous starting limits: with room in the budget the next session gets more than Amelia's defaults. */
const generous: ContextLimits = {
  completed_tasks: 1000,
  done_summary_chars: 400,
  task_title_chars: 200,
  decisions: 1000,
  resolved_errors: 1000,
  error_chars: 600,
  feedback_comments: 1000,
  failing_tests: 1000,
  issue_chars: 4000,
  description_chars: 2000,
  later_requests: 1000,
  request_chars: 600,
  latest_request_chars: 3000,
  files: 1000,
  uncommitted_files: 20,
  pushes_prs: 1000,
  commit_subject_chars: 100,
  git_commits: 1000,
  command_chars: 200,
  last_state_chars: 6000,
  compaction_chars: 6000,
  newer_request_note: 1,
  recorded_place: 1,
  notes_file: 1,
  list_words: 1,
  done_counts: 1,
  ci_report: 3,
};

/**
 * What shrinks, lowest priority first, each down to its floor. Halving steps, so a context fits in a few
 * compilations. The last floors above zero are the shortest form of the facts that are never dropped: the user's
 * request and their latest later one, every open task with its status, every commit a transcript reported (and the
 * newest five only git has), the unresolved errors, the last
 * test state (its count and the first failing names); a part kept at a floor on the way (the last state's first 200
 * characters) goes among the last resorts. The pushes, pull requests and the other writes others see (a comment
 * posted, a release) or that change data (a migration) go before the last, then the completed tasks, oldest first,
 * into a count: the task list with its statuses is what the next session goes on from.
 */
const steps: [keyof ContextLimits, number][] = [
  // what the agent said it did in each task it completed: the commits, the files and the task's [x] say much of it
  ['done_summary_chars', 0],
  // the compaction summary older than the Last State: the agent's account of the session before it (where the work
  // stood then already left out: the Last State is newer), all in `baton details summaries`
  ['compaction_chars', 0],
  ['files', 0],
  // the command that read the CI report after the last run, then a pass that only confirms the run: a failure, or a
  // pass on the changes pushed after the run (which keeps the run from reading as stale), stays
  ['ci_report', 2],
  ['ci_report', 1],
  // the uncommitted files by name (Git State keeps their count; `baton details git-changes` lists them)
  ['uncommitted_files', 0],
  // a resolved error is history; a decision still holds: it is kept longer
  ['resolved_errors', 0],
  // the decisions down to three (the latest, and those that say why), then a long last state (a report, a markdown
  // table) down to 1,500 characters (the length of Amelia's defaults), and only then the last decisions. A briefing
  // with only a count of the decisions beside the agent's last message at length puts the tail of that message (a
  // table's last rows, which `baton details summaries` keeps) over what was decided and why, which nothing else in it
  // says and which the next session would decide again. The refill below would not do it alone: it gives back only
  // the room the halvings freed beyond need, and none when the last state's first halving just fits.
  ['decisions', 3],
  ['last_state_chars', 1500],
  ['decisions', 0],
  ['feedback_comments', 0],
  // the notes file the session wrote: one line naming it (the files written are listed under Already Done)
  ['notes_file', 0],
  // the ask to keep the tasks left in the agent's own list in their words (one line under Plan Status)
  ['list_words', 0],
  // the lines of Already Done that only count (the files it has no room to name, `tests pass` beside TDD State's
  // counts): they name nothing the next session could act on, where the last state's next 1,100 characters do
  ['done_counts', 0],
  ['last_state_chars', 400],
  // the user's latest request says what to do next: it is the last of the requests to go
  ['later_requests', 1],
  ['description_chars', 80],
  ['issue_chars', 240],
  ['latest_request_chars', 600],
  ['error_chars', 160],
  ['request_chars', 80],
  ['latest_request_chars', 0],
  // the agent's own last word is what nothing else says: its start stays until the last resorts
  ['last_state_chars', 200],
  ['task_title_chars', 40],
  ['issue_chars', 100],
  ['commit_subject_chars', 40],
  ['command_chars', 60],
  ['error_chars', ERROR_CHARS_FLOOR],
  ['failing_tests', 2],
  ['task_title_chars', 30],
  ['request_chars', 40],
  // where an imported session was recorded, when not here: one line, which says the worktree's state is not the
  // session's (its branch, its uncommitted changes); without it Git State's branch and head read as the session's
  ['recorded_place', 0],
  // the last resorts before over_budget: the note that the latest request is newer than the task list (the Goal still
  // shows the request), the pushes, pull requests and other side effects (the oldest first), the last state (baton
  // details summaries has it: the agent's own account of where it stopped outlasts the lists that leave a count in
  // their place), then the oldest completed tasks into a count (baton status lists them)
  ['newer_request_note', 0],
  // the commits only git has (made by hand, or by a call a crash cut off) beyond the newest five: a count and the
  // command that lists them; the commits the transcripts reported stay
  ['git_commits', 5],
  // what the work delivered and the agent's last word outrank the detail of older lines: the commit subjects (their
  // hashes stay) and the CI report of a pass after the run (TDD State still says the run is older than the changes)
  ['commit_subject_chars', 16],
  ['command_chars', 40],
  ['ci_report', 0],
  // the last state to its head, beside the newest pull request or push it often names
  ['last_state_chars', 100],
  ['pushes_prs', 0],
  ['last_state_chars', 0],
  ['completed_tasks', 0],
];

/**
 * The steps for a context whose Last State is the agent's reply to the user's latest request (its turn ended on it:
 * `next.answered`): the request is then what was asked, the reply what came of it (a review's verdict, a report), which
 * nothing else in the briefing says. So the request gives way to 600 characters before the reply goes down to 400.
 */
function stepsFor(c: ResumeContext): readonly [keyof ContextLimits, number][] {
  if (!c.next.answered || !c.last_state) return steps;
  const request = steps.find(([k, floor]) => k === 'latest_request_chars' && floor > 0);
  const lastState = steps.find(([k, floor]) => k === 'last_state_chars' && floor === 400);
  if (!request || !lastState) return steps;
  return steps.flatMap((step) => (step === request ? [] : step === lastState ? [request, step] : [step]));
}

const half = (n: number, floor: number) => (n <= floor ? floor : Math.max(floor, Math.floor(n / 2)));

/**
 * The least of the last state worth its heading and its pointer to the rest: a cut shorter than this says nothing
 * ("The power…"), so past it the last state goes whole (`baton details summaries` has it).
 */
const LAST_STATE_MIN = 80;

/** The next limit of a part shown `now` long: half of it, down to its floor, and no stub of a last state. */
function lower(key: keyof ContextLimits, limit: number, now: number, floor: number): number {
  const next = half(Math.min(limit, now), floor);
  return key === 'last_state_chars' && next < LAST_STATE_MIN && next < now ? floor : next;
}
const longest = (texts: readonly string[]) => Math.max(0, ...texts.map((t) => t.length));

/** How much of a part the compiled context shows now (a limit above it changes nothing). */
function shown(c: ResumeContext, key: keyof ContextLimits): number {
  switch (key) {
    case 'completed_tasks':
      return c.completed_tasks.length;
    case 'task_title_chars':
      return longest([...c.completed_tasks, ...c.pending_tasks].map((t) => t.title));
    case 'done_summary_chars':
      return longest(c.completed_tasks.map((t) => t.summary ?? ''));
    case 'decisions':
      return c.decisions.length;
    case 'resolved_errors':
      return c.errors_resolved.length;
    case 'error_chars':
      // what the agent was doing at an open error is shown at half the limit: it counts double
      return Math.max(
        longest([
          ...[...c.errors_unresolved, ...c.errors_resolved].map((e) => e.message),
          ...c.pending_tasks.map((t) => t.reason ?? ''),
        ]),
        ...c.errors_unresolved.map((e) => 2 * (e.context?.length ?? 0)),
      );
    case 'feedback_comments':
      return Math.max(0, ...c.reviewer_feedback.map((f) => f.comments.length));
    case 'failing_tests':
      return c.test_state ? c.test_state.unexpected.length + c.test_state.expected.length : 0;
    case 'issue_chars':
      return Math.max(c.goal.issue?.description.length ?? 0, c.goal.issue?.refers_to?.item.length ?? 0);
    case 'description_chars':
      return c.next.description?.length ?? 0;
    case 'later_requests':
      return c.goal.requests.length;
    case 'request_chars':
      // a request and the item of the agent's list it names are cut to the same length
      return longest(c.goal.requests.flatMap((r) => [r.text, r.refers_to?.item ?? '']));
    case 'latest_request_chars':
      return longest([c.goal.requests.at(-1)?.text ?? '', c.goal.requests.at(-1)?.refers_to?.item ?? '']);
    case 'files':
      return c.already_done.files.length + c.already_done.other.length;
    case 'uncommitted_files':
      return c.git.uncommitted_files?.length ?? 0;
    case 'pushes_prs':
      // the limit cuts this workflow's pushes and pull requests, and apart the earlier work's list of what it left
      return Math.max(
        c.already_done.pushes.length + c.already_done.pull_requests.length + c.already_done.other.length,
        c.goal.earlier?.done.length ?? 0,
      );
    case 'commit_subject_chars':
      return longest([...c.already_done.commits.map((x) => x.subject), c.git.head_subject ?? '']);
    case 'git_commits':
      return c.already_done.commits.filter((x) => x.git_only).length;
    case 'command_chars':
      return c.test_state?.command?.length ?? 0;
    case 'last_state_chars':
      return c.last_state?.text.length ?? 0;
    case 'compaction_chars':
      return c.before_compaction?.text.length ?? 0;
    case 'newer_request_note':
      return c.next.request_after_list && c.next.newer_request_note ? 1 : 0;
    case 'recorded_place':
      return c.git.recorded ? 1 : 0;
    case 'notes_file':
      return c.next.notes_file ? 1 : 0;
    case 'list_words':
      return c.plan_status.keep_in_list ? 1 : 0;
    case 'ci_report': {
      const ci = c.test_state?.ci;
      return !ci ? 0 : ci.command ? 3 : ci.outcome === 'fail' ? 0 : ci.covers_changes ? 1 : 2;
    }
    case 'done_counts': {
      const d = c.already_done;
      return !d.counts_left_out && ((d.files_more > 0 && !d.files.length) || d.tests_passing) ? 1 : 0;
    }
  }
}

/**
 * A step the fit took: the part `key` limited to `to`, from `from` (its limit before the step; `span` what the part
 * showed then, as a limit: more shows nothing more), and `last` the limit before the step's last halving, too long.
 */
interface Cut {
  key: keyof ContextLimits;
  from: number;
  span: number;
  to: number;
  last: number;
}

/**
 * The most compilations the refill makes after the fit (each compiles, renders and counts the whole context once, as
 * each halving of the fit does), so that it adds a bounded cost to every SessionStart (`npm run bench -- hooks`). The
 * fit pays for them: it compiles only when a step changes a limit, where it compiled once a step before (some thirty
 * steps for a context that reaches the last resorts), so that on the 43 labelled sessions at 400 to 4,000 tokens the
 * fit and its refill compile fewer times than the fit alone did.
 */
const REFILL_COMPILATIONS = 8;

/**
 * Gives back the room the fit freed beyond need. Its halvings stop at the first that fits, so a late step that halves
 * a long part (the last state, the latest request) can free far more than the budget lacked, while the parts cut
 * before it (the decisions, the files) stay cut though they would fit again. So each cut, the latest first (the
 * reverse of the order they were cut in, which is their priority), goes back as far as the budget allows: the part
 * the fit was shrinking when it fit up to just under the limit that did not fit, then the parts cut before it. A
 * part cut again later goes back past that later cut only when the later one went back whole. A part of lower priority
 * thus gets only the room a higher one cannot use (the next decision is too long for it, a line of the files is not).
 * Each search halves the range it has left, to the item, or to an eighth of a text's range (a closer one costs more
 * compilations than the few characters are worth), within REFILL_COMPILATIONS in all; only a context that fits is
 * kept, so the result never exceeds the budget, and every limit stays at or above the floor the fit left it at: what
 * is never dropped stays.
 */
function refill<R>(
  cuts: readonly Cut[],
  limits: ContextLimits,
  fitted: R,
  tryLimits: (l: ContextLimits) => R | null,
  wholeLastState: number,
): R {
  let best = fitted;
  let left = REFILL_COMPILATIONS;
  /**
   * Raises `key` from `lo`, which fits, towards `hi`, whose limit is `top`; `tried`: `hi + 1` is known not to fit. A
   * text near its top (within `close`) goes there, or stays, with one compilation more.
   */
  const raise = (key: keyof ContextLimits, lo: number, hi: number, top: number, tried: boolean) => {
    const close = key.endsWith('_chars') ? Math.max(12, Math.floor((hi - lo) / 8)) : 0;
    const highest = hi;
    while (lo < hi && left > 0) {
      const near = hi - lo <= close;
      if (near && tried) return;
      const mid = near ? hi : Math.ceil((lo + hi) / 2);
      const v = key === 'last_state_chars' ? lastStateNear(mid, hi, wholeLastState) : mid;
      if (v === null || v <= lo) return;
      left--;
      const limit = v >= highest ? top : v;
      const r = tryLimits({ ...limits, [key]: limit });
      if (r === null) {
        hi = v - 1;
        tried = true;
      } else {
        best = r;
        limits[key] = limit;
        lo = v;
      }
    }
  };
  for (const [i, c] of [...cuts.entries()].reverse()) {
    if (i === cuts.length - 1) raise(c.key, c.to, c.last - 1, c.last - 1, true);
    // a later step cut the part further, and did not go back whole
    else if (limits[c.key] === c.to) raise(c.key, c.to, c.span, c.from, false);
  }
  return best;
}

/**
 * The last state's limit to try near `v`, at most `hi`, or none: no stub under LAST_STATE_MIN, as the fit's halving,
 * and no cut of fewer than 12 characters, as a request's (the pointer to the rest would take more than it saves).
 */
function lastStateNear(v: number, hi: number, whole: number): number | null {
  const up = Math.max(v, LAST_STATE_MIN);
  const t = up > whole - 12 && up < whole ? whole : up;
  if (t <= hi) return t;
  const down = Math.min(hi, whole - 12);
  return down >= LAST_STATE_MIN ? down : null;
}

/**
 * Compiles the context and shrinks its lower-priority parts, one halving at a time, until the whole of it (with the
 * `overhead` a caller adds, such as a stamp line) fits the token budget, then gives back the room the halvings freed
 * beyond what was needed (`refill`). When even the shortest form of what is never dropped does not fit, the context
 * says so (`over_budget` in its JSON; in its text, that it was cut and where the whole is) rather than exceeding the
 * budget silently.
 */
export function fitResumeContext(
  snap: SessionSnapshot,
  sessionNumber: number,
  warnings: string[],
  budget: number,
  count: TokenCounter,
  overhead = 0,
  workflow: ContextWorkflow | null = null,
): FittedContext {
  const limits = { ...generous };
  const compile = (l: ContextLimits) => {
    const context = compileResumeContext(snap, sessionNumber, warnings, l, workflow);
    const markdown = renderResumeContext(context);
    return { context, markdown, tokens: count(markdown) };
  };
  const fits = (r: { tokens: number }) => r.tokens + overhead <= budget;
  // a step that changes no limit (its part already at its floor, or not in this context) compiles nothing
  let r = compile(limits);
  // the last state's whole length (none when even the generous limit cuts it)
  const wholeLastState = r.context.last_state?.cut === 0 ? r.context.last_state.text.length : Infinity;
  const cuts: Cut[] = [];
  for (const [key, floor] of stepsFor(r.context)) {
    if (fits(r)) break;
    const from = limits[key];
    const span = Math.min(from, shown(r.context, key));
    let last = span;
    for (;;) {
      const now = shown(r.context, key);
      if (limits[key] <= floor || now <= floor) break;
      last = Math.min(limits[key], now);
      limits[key] = lower(key, limits[key], now, floor);
      r = compile(limits);
      if (fits(r)) break;
    }
    if (limits[key] < span) cuts.push({ key, from, span, to: limits[key], last });
  }
  if (!fits(r)) {
    // the last state, cut last, is given back at its last length: cutting it did not make the context fit, and a
    // caller that cuts the text further (a hook's characters) keeps what the agent was doing over what it can look up
    const lastState = cuts.find((c) => c.key === 'last_state_chars' && c.to === 0);
    if (lastState) r = compile({ ...limits, last_state_chars: lastState.from });
    const context = { ...r.context, over_budget: true };
    const markdown = renderResumeContext(context, budget);
    return { context, markdown, tokens: count(markdown), budget, over_budget: true, limits };
  }
  const fitted = refill(
    cuts,
    limits,
    r,
    (l) => {
      const probe = compile(l);
      return fits(probe) ? probe : null;
    },
    wholeLastState,
  );
  return { ...fitted, budget, over_budget: false, limits };
}
