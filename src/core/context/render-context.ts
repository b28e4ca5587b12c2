import { agentLabel } from '../agent-label.js';
import { clip } from '../clip.js';
import { backupRefPrefix } from '../backup-ref.js';
import { counted } from '../counted.js';
import { itemSaid, type ListItem } from '../requests/menu-pick.js';
import { COMPACTION_REASON } from '../compaction.js';
import { leftBehindWords, progressLabel } from '../task-graph.js';
import type { ResumeContext } from './resume-context.js';
import { pauseAskerWord, type PauseWaiting } from '../commands/pause.js';
import { commitSaid, pullRequestSaid, pushSaid } from './done-words.js';
import { commitsSinceSaid } from './commits-since.js';
import { nestedHeadings } from './nested-headings.js';
import { ciSaid } from './ci-after-run.js';
import { stopperWords } from './cut-turn.js';

const mark: Record<string, string> = {
  done: '[x]',
  skipped: '[-]',
  in_progress: '[~]',
  failed: '[!]',
  blocked: '[b]',
  pending: '[ ]',
};
const finishedAs: Record<NonNullable<ResumeContext['finished']>, string> = {
  completed: 'is completed',
  failed: 'failed',
  cancelled: 'was cancelled',
};
const quote = (text: string) => text.replace(/\n+/g, ' ').trim();

/** The item of the agent's list a request named ("5 seems like a great one"), said after the user's words. */
const itemOf = (named: ListItem | undefined) => (named ? ` (${quote(itemSaid(named))})` : '');

/**
 * An issue as its tracker names it ("ISSUE-7: Add login", its text below); one without an id (`baton create
 * --issue-description` alone) by its title, if it has one, then its text. (A title its text opens with is the user's
 * first request, said as such: `from_request`.)
 */
function issueSaid(issue: NonNullable<ResumeContext['goal']['issue']>): string {
  const title = issue.title.trim();
  return [issue.id ? `${issue.id}: ${title}` : title, issue.description.trim()].filter(Boolean).join('\n');
}

function goal(c: ResumeContext, out: string[]) {
  out.push('### Goal (the user\u2019s words)');
  const g = c.goal;
  if (!g.issue)
    out.push(g.title ? `${g.title} (the workflow's title; no request recorded)` : '(no request recorded)');
  else {
    // an issue made from the user's first request: its title is the request's first line, said once
    out.push(
      g.issue.from_request
        ? `The user asked: ${g.issue.description}${itemOf(g.issue.refers_to)}`
        : issueSaid(g.issue),
    );
    // what the opening go-ahead agreed to was said before the record began: the work done shows what it was
    if (g.opened_on)
      out.push(
        `(The conversation opened on "${g.opened_on}", a go-ahead to what was agreed before it was recorded.)`,
      );
  }
  if (g.requests.length) {
    out.push(`Later requests${g.requests_more ? ` (${g.requests_more} more: baton details requests)` : ''}:`);
    for (const r of g.requests) out.push(`  - "${quote(r.text)}"${itemOf(r.refers_to)}`);
  } else if (g.requests_more) out.push(`(${g.requests_more} later requests: baton details requests)`);
  if (g.earlier) {
    const e = g.earlier;
    out.push(
      `${e.new_conversation ? 'Earlier work here, over before the conversation this workflow follows began' : 'Earlier work of the conversation this workflow follows'}: workflow ${e.workflow_id} "${quote(e.title)}", ${e.abandoned ? 'abandoned by the user (not to be continued)' : 'completed'} (\`baton context -w ${e.workflow_id}\` or the MCP tool get_resume_context shows it).${e.done.length ? ' Done there, not to redo:' : ''}`,
    );
    for (const d of e.done) out.push(`  - ${d}`);
  }
  out.push('');
}

function tasks(c: ResumeContext, out: string[]) {
  const p = c.plan_status;
  out.push(
    p.total === 0
      ? '### Plan Status: no task recorded'
      : `### Plan Status: ${progressLabel(p, ' tasks done')}${p.skipped_why ? ` (${p.skipped_why})` : ''}${p.current_task ? `, current ${p.current_task}` : ''}`,
  );
  if (c.completed_more)
    out.push(
      c.skipped_more === 0
        ? `  ... ${c.completed_more} earlier completed tasks (baton status)`
        : c.skipped_more === c.completed_more
          ? `  ... ${c.completed_more} skipped tasks (baton status)`
          : `  ... ${c.completed_more} more finished tasks: ${c.completed_more - c.skipped_more} done, ${c.skipped_more} skipped (baton status)`,
    );
  for (const t of c.completed_tasks)
    out.push(`  ${mark[t.status] ?? '[x]'} ${t.id} ${t.title}${t.summary ? ` (done: ${t.summary})` : ''}`);
  for (const t of c.pending_tasks) {
    // a finished workflow's task not done is nobody's work now: left open, neither in progress nor still to come
    const left = c.finished !== null && (t.status === 'in_progress' || t.status === 'pending');
    // a task an earlier plan left, no later list took up: to check whether still needed, not to go on with; a task
    // the agent's last message says is over, its list not updated: probably done, for the session to check
    const said = t.left_behind
      ? 'left from an earlier plan: check whether still needed'
      : left
        ? 'left open'
        : t.said_done
          ? `in progress, probably done: the agent's last message says "${t.said_done}": check`
          : t.status !== 'pending'
            ? `${t.status}${t.reason ? `: ${t.reason}` : ''}`
            : null;
    out.push(
      `  ${left || t.left_behind ? '[ ]' : (mark[t.status] ?? '[ ]')} ${t.id} ${t.title}${said ? ` (${said})` : ''}${t.deps.length ? ` after ${t.deps.join(', ')}` : ''}`,
    );
  }
  if (p.keep_in_list)
    out.push(
      '  (Keep the tasks left in your own task list in these words: Baton follows each there by its words; one in other words is another task, and this one stays open.)',
    );
  out.push('');
}

function alreadyDone(c: ResumeContext, out: string[]) {
  const d = c.already_done;
  const more = [
    ...(d.pushes_prs_more
      ? [counted(d.pushes_prs_more, 'more push or pull request', 'more pushes and pull requests')]
      : []),
    ...(d.other_more ? [counted(d.other_more, 'more side effect')] : []),
  ];
  const lines = [
    ...d.commits.map((x) => `  - ${commitSaid(x)}`),
    ...(d.commits_more
      ? [`  - ${counted(d.commits_more, 'more commit')} since the workflow began (${d.commits_more_command})`]
      : []),
    ...d.pushes.map((p) => `  - ${pushSaid(p)}`),
    ...d.pull_requests.map((p) => `  - ${pullRequestSaid(p)}`),
    ...(d.files.length
      ? [
          `  - files${d.files_under ? ` (under ${d.files_under})` : ''}: ${d.files.join('; ')}${d.files_more ? `; ${d.files_more} more` : ''}`,
          ...(d.files_elsewhere
            ? [
                `  - (files in the worktree ${d.files_elsewhere} the session added: Git State does not say whether they are committed there; \`git -C ${d.files_elsewhere} status\` does)`,
              ]
            : []),
        ]
      : d.files_more && !d.counts_left_out
        ? [`  - ${counted(d.files_more, 'file')} created, edited or deleted`]
        : []),
    ...d.other.map(
      (o) =>
        `  - ${o.kind === 'other' ? '' : `[${o.kind}] `}${o.task_id ? `${o.task_id}: ` : ''}${o.summary}`,
    ),
    // the pushes, pull requests and other side effects cut from the list: counted on one line
    ...(more.length ? [`  - ${more.join(', ')}`] : []),
    // TDD State says the run's counts and what changed after it: said here once, without them
    ...(d.tests_passing && !d.counts_left_out
      ? [
          d.tests_changed_since
            ? `  - tests passed before ${counted(d.tests_changed_since, 'later file change')}`
            : '  - tests pass',
        ]
      : []),
  ];
  if (!lines.length) return;
  out.push('### Already Done (do not redo)', ...lines, '');
}

/**
 * The agent's last word, then the user's interruption of the last turn when there was one: said plainly, so the next
 * session neither takes that turn for done nor redoes it unasked.
 */
function lastState(c: ResumeContext, out: string[]) {
  // none of it shown (no room): the next step says where it is
  const s = c.last_state?.text ? c.last_state : null;
  const cut = c.interrupted;
  if (!s && !cut) return;
  if (s) {
    // a new conversation beside another at work: what the workflow last heard is that conversation's
    const other = c.elsewhere !== undefined;
    // said by another agent than the one briefed (Claude Code's, for Codex going on after it): named
    const whose = s.by && c.briefed_agent && s.by !== c.briefed_agent ? `${agentLabel(s.by)}'s` : null;
    const what =
      s.kind === 'compaction'
        ? `${other ? "another conversation's" : (whose ?? 'the')} compaction summary`
        : s.kind === 'said_nothing'
          ? other
            ? "another conversation's turn, its agent silent so far"
            : 'cut off before the agent said anything'
          : other
            ? "another conversation's last message"
            : `${whose ?? "the agent's"} last message`;
    // said before `baton recover` went back to a checkpoint: what it tells of after that checkpoint is undone
    const undone = s.undone_by ? `; then \`baton recover\` went back to checkpoint ${s.undone_by}` : '';
    out.push(`### Last State (${what}, ${s.at}${undone})`, nestedHeadings(s.text));
    if (s.cut) out.push(`(${s.cut} more characters: baton details summaries)`);
    if (s.since.length) out.push(`Newer than this, in the sections above: ${s.since.join('; ')}.`);
  } else out.push('### Last State (interrupted by the user)');
  // after the agent's words, a paragraph of its own
  if (cut)
    out.push(
      ...(s ? [''] : []),
      `The user interrupted the last turn (${cut.request ? `their request "${cut.request}", ` : ''}${cut.at}) before it finished: it is not done; ask them before redoing it.`,
    );
  out.push('');
}

/** The agent's compaction summary, older than its Last State: the session before the compaction, as it told it. */
function beforeTheCompaction(c: ResumeContext, out: string[]) {
  const s = c.before_compaction;
  if (!s) return;
  out.push(
    `### Before the Compaction (the agent's summary of the session then, ${s.at}; the sections above are newer)`,
    nestedHeadings(s.text),
  );
  if (s.cut) out.push(`(${s.cut} more characters: baton details summaries)`);
  out.push('');
}

/**
 * How a resolved error was got past: `[fixed]`, `[deferred]`, or a workaround with what worked (the call, the tool,
 * the agent's words), else what its record holds of the way (the next call that worked, the agent going on without
 * it), else that the way is not recorded: a bare `[workaround]` would only say that something else was done, and no
 * tag at all would not say that it was got past.
 */
function resolutionSaid(e: ResumeContext['errors_resolved'][number]): string {
  if (e.resolution !== 'workaround') return ` [${e.resolution}]`;
  if (e.instead) return ` [workaround: \`${e.instead}\` worked instead]`;
  if (e.instead_tool) return ` [workaround: the ${e.instead_tool} tool worked instead]`;
  if (e.agent_said) return ` [workaround, as the agent said: "${quote(e.agent_said)}"]`;
  if (e.next_call) return ` [worked around; the next call that worked: \`${e.next_call}\`]`;
  if (e.went_on_without) return ' [worked around: the agent went on without it]';
  return ' [worked around (how not recorded)]';
}

function decisionsAndErrors(c: ResumeContext, out: string[]) {
  if (!c.decisions.length) {
    const none = c.decisions_in_goal ? "only the user's directives, in the Goal" : 'none recorded';
    out.push(
      `### Key Decisions Made: ${c.decisions_more ? `${c.decisions_more} (baton details decisions)` : none}`,
      '',
    );
  } else {
    // in the order they were made: a later one may take back an earlier one, which the list keeps as it was said
    out.push('### Key Decisions Made (oldest first: a later one may replace an earlier one)');
    for (const d of c.decisions) {
      out.push(`  - [${d.type}] ${d.description}`);
      if (d.rationale) out.push(`    Rationale: ${d.rationale}`);
      if (d.corrected_by) out.push(`    The user said after it: "${d.corrected_by}"`);
    }
    if (c.decisions_more) out.push(`  ... and ${c.decisions_more} more (baton details decisions)`);
    out.push('');
  }
  if (!c.errors_unresolved.length && !c.errors_resolved.length) {
    out.push(
      `### Errors Encountered: ${c.errors_more ? `${c.errors_more} resolved (baton details errors)` : 'none'}`,
      '',
    );
    return;
  }
  out.push('### Errors Encountered');
  const errors = [
    ...c.errors_unresolved.map(
      (e) =>
        `  ! UNRESOLVED${e.times ? ` (met ${e.times} times)` : ''}: ${e.type}: ${e.message}${e.context ? ` (while: ${quote(e.context)})` : ''}${
          e.edited_after ? `; ${e.edited_after} was changed after it: run it again to check the fix` : ''
        }`,
    ),
    ...c.errors_resolved.map((e) => `  - ${e.type}: ${e.message}${resolutionSaid(e)}`),
  ];
  if (c.errors_unresolved_more)
    errors.push(
      `  ! ... and ${c.errors_unresolved_more} more UNRESOLVED, older (baton details errors lists them)`,
    );
  const others = c.errors_more - (c.errors_unresolved_more ?? 0);
  if (others > 0) errors.push(`  ... and ${others} more (baton details errors)`);
  out.push(errors.join('\n'), '');
}

function git(c: ResumeContext, out: string[]) {
  out.push('### Git State');
  const r = c.git.recorded;
  if (r) {
    // the session imported was recorded elsewhere (another machine, another clone) or on another branch: said first,
    // so that this worktree's branch and changes below are not read as the session's
    const where = r.cwd ? ` in ${r.cwd}` : '';
    const on = r.branch ? ` on branch ${r.branch}` : '';
    out.push(`- The session's transcript was recorded${where}${on}${r.cwd ? ', not in this worktree' : ''}`);
  }
  // files still holding conflict markers: said first, or "uncommitted changes" below reads as work to commit
  if (c.git.conflict)
    out.push(
      `- ${r ? 'This worktree: ' : ''}${c.git.conflict.charAt(0).toUpperCase()}${c.git.conflict.slice(1)}`,
    );
  const here = r ? 'This worktree: branch' : 'Branch';
  if (c.git.branch === null)
    out.push(`- ${r ? 'This worktree: ' : ''}${c.git.note ?? 'no git state recorded'}`);
  else {
    // files_modified counts what changed since the workflow began, committed or not; the summary is the uncommitted
    // Baton's block that `baton init` put in CLAUDE.md / AGENTS.md is not the work in progress: said apart
    const block = c.git.baton_block?.length
      ? ` besides Baton's instructions block in ${c.git.baton_block.join(', ')} (from \`baton init\`)`
      : '';
    const named = c.git.uncommitted_files?.length
      ? `: ${c.git.uncommitted_files.join(', ')}${c.git.uncommitted_more ? ` and ${c.git.uncommitted_more} more` : ''}`
      : '';
    // the changes of another person's checkout: theirs, not files this checkout holds
    const there = c.git.checkout_elsewhere ? ` ${c.git.checkout_elsewhere}, not in this checkout` : '';
    const changes = c.git.has_uncommitted
      ? `uncommitted changes${there}${c.git.summary ? ` (${c.git.summary})` : ''}${named}${block}`
      : `no uncommitted changes${block}`;
    const n = c.git.files_modified;
    const since = n ? `; ${counted(n, 'file')} changed since the start` : '';
    const head = c.git.head
      ? `${c.git.head}${c.git.head_subject ? ` "${c.git.head_subject}"` : ''}`
      : '(no commits)';
    out.push(`- ${here} ${c.git.branch} at ${head}, ${changes}${since}`);
  }
  out.push('');
}

function tdd(c: ResumeContext, out: string[]) {
  const t = c.test_state;
  if (!t) return;
  out.push('### TDD State', `- Phase: ${t.phase}`);
  if (t.command) out.push(`- Last run: ${t.command}${t.result ? ` -> ${t.result}` : ''}`);
  // what the run said is older than the files changed after it: run it again before building on it, unless CI passed
  // on them since (they were pushed before its report), which is said instead
  const ci = t.ci;
  if (t.changed_since && ci?.outcome === 'pass' && ci.covers_changes)
    out.push(
      `- ${counted(t.changed_since, 'file')} changed after this run, then pushed: CI passed on them since (${ciSaid(ci)}); the local run is older than them`,
    );
  else if (t.changed_since)
    out.push(
      `- ${counted(t.changed_since, 'file')} changed after this run: run it again before trusting it${ci?.outcome === 'pass' ? ` (CI passed after it, ${ciSaid(ci)}, but no push of these changes was seen before that report)` : ''}`,
    );
  // a failing CI after the run: said whatever the run said
  if (ci?.outcome === 'fail') out.push(`- CI failed after this run: ${ciSaid(ci)}`);
  else if (ci && !t.changed_since) out.push(`- CI passed after this run too: ${ciSaid(ci)}`);
  // a run that every test passed failed by its coverage threshold: no test fails
  if (t.coverage_unmet)
    out.push(`- Every test passed; the run failed its coverage threshold: ${t.coverage_unmet}`);
  // no failing test: said, unless the last run's own counts say it ("-> 12 passed, 0 failed")
  else if (t.failing_total === 0) {
    if (!/\b0 failed\b/.test(t.result ?? ''))
      out.push(`- Failing tests: none${t.not_run_again ? ' in this run' : ''}`);
  } else {
    const more = t.failing_more ? `, and ${t.failing_more} more (baton details test-state)` : '';
    out.push(`- Failing tests: ${t.failing_total}${more}`);
    // the failures nobody meant: named alone, unless the red phase's expected ones are listed beside them
    const which = t.expected.length ? 'unexpected (not the red phase): ' : '';
    if (t.unexpected.length) out.push(`  - ${which}${t.unexpected.join(', ')}`);
    if (t.expected.length) out.push(`  - expected (red phase): ${t.expected.join(', ')}`);
    if (t.failing_unnamed) out.push(`  - ${t.failing_unnamed} not named in the output Baton read`);
  }
  // the last run named other test files: what an earlier run failed is not known to pass
  const left = t.not_run_again;
  if (left) {
    const more = left.more ? `, and ${left.more} more (baton details test-state)` : '';
    const by = left.command ? ` (${left.command})` : '';
    out.push(`- Not run since an earlier run${by} failed them: ${left.tests.join(', ')}${more}`);
  }
  out.push('');
}

/** How `baton run` says that a task's agent was killed by a signal: `the agent (pid 42) was killed by SIGKILL`. */
const killedAgent = /^the agent (?:\(pid \S+\) )?was killed by (SIG[A-Z0-9]+)\b/;

/**
 * The next step in one line: the runnable task, else why there is none (every task done, none recorded: go on from
 * the user's latest request), the latest request first when it came after the task list last changed, and why the
 * last session ended when it ended for a reason (a snapshot taken by hand, on a schedule or for this context is not
 * one).
 */
export function nextStep(c: ResumeContext): string {
  const step = stepAndWhy(c);
  // this agent's own usage limit, still in force though another agent went on meanwhile: it may stop again at once
  return c.next.own_limit && !c.finished
    ? `${step} Your own usage limit has not reset: ${c.next.own_limit}; until then you may be stopped again at once.`
    : step;
}

/** The next step and why the last session ended (`nextStep`, without the briefed agent's own usage limit). */
function stepAndWhy(c: ResumeContext): string {
  // a finished workflow is not gone on with: why its last session ended is history, not a reason to resume
  if (c.finished) return `Nothing: the workflow ${finishedAs[c.finished]}; new work goes in a new workflow.`;
  // another conversation at work on the workflow: its work is not this one's to go on with
  if (c.elsewhere === 'at_work') {
    const current = c.pending_tasks.find((t) => t.id === c.next.task_id && t.status === 'in_progress');
    const theirs = current ? `; task "${current.id}: ${c.next.title}" is that conversation's` : '';
    return `Another conversation is at work on this workflow (Warnings above): ask the user what this session should do before doing anything${theirs}.`;
  }
  // a warning may change what comes next (another conversation at work here, the branch changed): it goes first
  const heed =
    c.elsewhere === 'maybe_at_work'
      ? 'First ask the user whether the other conversation of this worktree is still open (Warnings above); if it is, ask what this session should do; if it is not: '
      : c.warnings.length
        ? 'Read the Warnings above: they may change what follows. '
        : '';
  const what = `${heed}${nextWork(c)}`;
  if (/^(?:manual|handover|scheduled)\b/.test(c.next.ended_because)) return what;
  // the snapshot before a compaction: the conversation went on from its summary, no session ended there
  const compaction = c.next.ended_because.startsWith(`exhaustion: ${COMPACTION_REASON}`);
  return compaction
    ? `${what} The last snapshot was taken at a ${c.next.ended_because.slice('exhaustion: '.length)}, which ends no session: the work went on from the agent's summary.`
    : `${what} The previous session ended because: ${c.next.ended_because}.`;
}

/**
 * A pause the user (or the agent itself) asked for that still waits, said before the next step: the session finishes the task under way and
 * ends its turn, rather than being stopped at its next task boundary unawares.
 */
function pauseWaitingSaid(p: PauseWaiting): string {
  const why = p.reason ? ` (reason: ${p.reason})` : '';
  const when = p.when ? `it takes effect ${p.when}` : 'it takes effect at the next task boundary or turn end';
  const finish = p.tasks.length
    ? `Finish ${p.tasks.join(', ')} and mark ${p.tasks.length > 1 ? 'them' : 'it'} done`
    : 'Finish what you are doing';
  return `${pauseAskerWord(p.asked_by)} asked to pause this workflow${why} at ${p.requested_at}: ${when}. ${finish}, then end your turn saying where the work stands; start no other task (the user resumes the work later).`;
}

/**
 * Where the briefing shows the user's latest request: the last of the Goal's later requests when it lists any, else
 * the Goal's own request (the first is the latest when none came after it).
 */
function latestWhere(c: ResumeContext): string {
  return c.goal.requests.length ? 'the last of the Later requests, under Goal' : 'Goal';
}

/** Where the briefing shows the agent's last word: its Last State, or nowhere when the budget left no room for it. */
const lastShown = (c: ResumeContext) =>
  c.last_state?.text || c.interrupted ? 'Last State' : 'not shown: baton details summaries';

function nextWork(c: ResumeContext): string {
  const p = c.plan_status;
  const where = latestWhere(c);
  const said = lastShown(c);
  const theLast = said === 'Last State' ? 'the Last State' : `its last message (${said})`;
  // a skipped task is finished, not done
  // only tasks left from an earlier plan are open: the list that moved on without them is done, they are to check
  const leftIds = c.pending_tasks.filter((t) => t.left_behind).map((t) => t.id);
  const listDone = p.remaining === 0 || leftIds.length > 0;
  const allDone = leftIds.length
    ? `Every other task is finished; ${leftBehindWords(leftIds)}`
    : p.skipped
      ? 'Every task is done or skipped'
      : 'Every task is done';
  // commits made since the task in progress started: it may be done though the list does not say so
  const since = commitsSinceSaid(c.next.commits_since_start);
  const task = c.next.task_id
    ? `task "${c.next.task_id}: ${c.next.title}"${since ? ` (${since})` : ''}`
    : null;
  const left = c.interrupted ? null : (c.last_state?.left ?? null);
  // a call it left open is checked first, unless git shows every one of them landed
  const checkCall = c.last_state?.calls_landed ? '' : ' (check whether its last call ran)';
  const undone = c.last_state?.undone_by;
  if (undone) {
    // the work went back to a checkpoint after the agent's last word: what that word tells of since is not there
    const then = task
      ? `continue from ${task}`
      : listDone
        ? `${allDone.charAt(0).toLowerCase()}${allDone.slice(1)}`
        : 'go on';
    return `\`baton recover\` went back to checkpoint ${undone} after the agent's last message (${said}): the work it tells of after that checkpoint is undone (its commits are kept on ${backupRefPrefix(c.workflow_id)}...); ${then}.`;
  }
  if (c.next.go_ahead && c.last_state?.kind === 'last_message') {
    // the user's answer to the agent's last message: what it proposed or asked to do is what comes next
    const then = task ? `, then continue from ${task}` : '';
    // the session went on with it before it ended (files written, a commit): some of it may be done
    const begun = c.next.go_ahead_work
      ? ` (${counted(c.next.go_ahead_work, 'change was', 'changes were')} recorded after that answer: check what of it is done first)`
      : '';
    return `The user answered the agent's last message (${said}) with "${clip(c.next.go_ahead, 80)}": go on with what it proposed${begun}${then}.`;
  }
  if (left === 'asked') {
    // the user owes an answer: going on without it would decide for them
    const asked = `agent's last message ended waiting on the user's answer (${said})`;
    if (task) return `The ${asked}: get their answer first, then continue from ${task}.`;
    if (p.total > 0 && listDone) return `${allDone}, but the ${asked}: get their answer before doing more.`;
    // the Goal may hold no request of the user's (a `claude -p` stream, whose prompt it does not carry)
    const requested = c.goal.issue || c.goal.requests.length;
    const goal = p.total === 0 && requested ? ` and the user's latest request (${where})` : '';
    return `The ${asked}: get their answer, then go on from it${goal}.`;
  }
  if (c.interrupted) {
    // the user stopped the turn: what they want of it now is theirs to say, whatever the task list says
    const ask =
      c.next.latest_request_first || p.total === 0
        ? `ask the user how to go on with their latest request (${where}), whose turn they interrupted`
        : `ask the user how to go on with the turn they interrupted (${said})`;
    if (task) return `First ${ask}; then continue from ${task}.`;
    if (p.total === 0) return `No task is recorded: ${ask}.`;
    return listDone
      ? `${allDone}; ${ask}.`
      : `No task is runnable (the remaining ones wait on others or are blocked); ${ask}.`;
  }
  if (left === 'waiting' && c.last_state?.kind === 'last_message') {
    // its turn ended waiting on what it left running (CI checks, a deploy) or on sub-agents at work (a review): how
    // that ended decides what comes next
    const then = task ? `, then continue from ${task}` : '';
    const on = c.last_state.waiting_on ?? ['commands'];
    if (!on.includes('sub_agents'))
      return `The agent was waiting on a background command (${said}): see how it ended (run it or its check again if its output is gone), then go on as its last message says${then}.`;
    const both = on.includes('commands');
    return `The agent was waiting on ${both ? 'a background command and ' : ''}sub-agents it started that had not answered (${said}): get their answers (wait for them, or ask again if they are gone${both ? '; see how the command ended, running it or its check again if its output is gone' : ''}), then go on as its last message says${then}.`;
  }
  if (c.next.latest_request_first) {
    // the agent may have answered it without touching its list (a push, a question): the sections above say
    const newer = `the latest request (${where}), newer than the task list`;
    if (task) return `Unless done above, first do ${newer}; then continue from ${task}.`;
    return listDone
      ? `${allDone}; unless done above, go on from ${newer}.`
      : `No task is runnable (the remaining ones wait on others or are blocked); unless done above, go on from ${newer}.`;
  }
  const saidDone = c.pending_tasks.find((t) => t.id === c.next.task_id)?.said_done;
  if (task && saidDone && left === null)
    return `Check whether ${task} is done, as the agent's last message says ("${saidDone}"): if it is, mark it done in your task list and go on; if not, continue from it.`;
  if (task && c.next.list_behind && left === null && c.last_state?.kind === 'last_message')
    return `Continue from ${task}, unless the agent's last message (${said}), newer than the task list, says it is done.`;
  if (task && c.next.list_behind && c.last_state?.kind === 'compaction')
    return `Continue from ${task}, unless the compaction's summary (${said}), newer than the task list, says it is done.`;
  // the list stood still while the agent worked on (Codex agents often stop updating their plan): its message leads
  if (task && c.next.list_behind && left === 'mid_turn' && c.last_state?.kind === 'last_message')
    return `The session ended in the middle of the agent's turn, and its last message (${said}) is newer than the task list: finish what it says it was doing${checkCall}, then continue from ${task} unless that message shows it done.`;
  // a task that failed is not simply taken up again: what made it fail comes first, unless its agent was killed from
  // outside (a person, an out-of-memory kill): nothing it did is known to be wrong, and what it left is where to go on
  const failed = c.pending_tasks.find((t) => t.id === c.next.task_id && t.status === 'failed');
  const killed = failed?.reason ? killedAgent.exec(failed.reason) : null;
  if (task && failed && killed)
    return `Task "${c.next.task_id}: ${c.next.title}" was cut off: its agent was killed (by ${killed[1]}) before it finished. Check what it left (\`git status\`, \`git log\`), then go on with it.`;
  if (task && failed)
    return `Task "${c.next.task_id}: ${c.next.title}" failed${failed.reason ? ` (${clip(quote(failed.reason), 160)})` : ''}: find out why and fix it before running it again.`;
  // a usage limit, an API error or a full context cut the agent's turn off: the task goes on from where it got to,
  // what of the turn ran checked first (what cut it off: why the previous session ended, said next)
  const cutOff = c.next.cut_off;
  if (task && cutOff)
    return `Continue from ${task}: the agent's turn on the user's latest request (${where}) was cut off${cutOff.resumed ? ` by ${stopperWords[cutOff.by]}` : ''}${cutOff.said ? '' : ' before it said anything'}${cutOff.resumed ? `, and the user said "${clip(cutOff.resumed, 80)}" since` : ''}; first check what of that turn already ran.`;
  if (task) return `Continue from ${task}.`;
  if (p.total === 0) {
    // an API error or a usage limit cut the turn off: its last message was said on the way, no reply; the request
    // still stands. What cut it off, and how to go on past that, is said once: as why the previous session ended
    const cut = c.next.cut_off;
    if (cut) {
      const reached = cut.said ? ` from where ${theLast} shows it had got to` : '';
      // the user said go on since the stop (the limit reset): that asks for the request, not for an older message
      if (cut.resumed)
        return `No task is recorded, and the agent's turn on the user's latest request (${where}) was cut off by ${stopperWords[cut.by]}${cut.said ? '' : ' before it said anything'}; the user said "${clip(cut.resumed, 80)}" since: go on with that request${reached}, first checking what of it already ran.`;
      return `No task is recorded, and the agent's turn on the user's latest request (${where}) was cut off${cut.said ? '' : ' before it said anything'} (by what: why the previous session ended, said next): go on with that request${reached}, first checking what of it already ran.`;
    }
    // cut in the middle of the agent's turn: what it announced last is under way, and perhaps not done
    if (left === 'mid_turn' && c.last_state?.kind === 'last_message')
      return `No task is recorded, and the session ended in the middle of the agent's turn: finish what ${theLast} says it was doing for the user's latest request (${where}), first checking whether any of it already ran.`;
    // the turn ended on the agent's reply: the request may be done, which only that reply and the user can say
    if (c.next.answered && left === null && c.last_state?.kind === 'last_message')
      return `No task is recorded, and the agent's last message (${said}) replies to the user's latest request: unless it names work left, ask the user what comes next.`;
    return c.goal.issue || c.goal.requests.length
      ? `No task is recorded: go on from the user's latest request (${where})${c.last_state?.text ? ' and the last state' : ''}.`
      : 'No task is recorded.';
  }
  if (!listDone) return 'No task is runnable: the remaining ones wait on others or are blocked.';
  // the list was done before the user asked for more, and the agent's reply to that ended its turn: the reply (a
  // review's findings, a question answered) says whether anything is left, which the finished list cannot
  // (short of room, what to do without why)
  if (c.next.request_after_list && c.next.answered && left === null && c.last_state?.kind === 'last_message')
    return c.next.newer_request_note
      ? `${allDone}; the latest request (${where}) came after them, and the agent's last message (${said}) replies to it: unless it names work left, ask the user what comes next.`
      : `${allDone}: unless ${theLast} names work left, ask the user what comes next.`;
  // the list is done, yet the agent was still at work: what it announced last may not be
  return left === 'mid_turn'
    ? `${allDone}, but the session ended in the middle of the agent's turn: finish what ${theLast} says it was doing${checkCall}.`
    : `${allDone}.`;
}

/** The markdown rendering handed to an agent. */
/**
 * The context's hints for more (`baton details decisions`: the workflow of the current worktree) naming its workflow,
 * for a context shown in another workflow's briefing, where a bare category would read the new workflow.
 */
export function namingWorkflow(markdown: string, workflowId: string): string {
  return markdown.replace(
    /\bbaton details (requests|summaries|decisions|errors|reviewer-feedback|history|test-state|git-changes)\b/g,
    `baton details $1 -w ${workflowId}`,
  );
}

/** The heading: a briefing for the next session, or the recap of a workflow that is over (shown for what it did). */
function heading(c: ResumeContext): string {
  if (!c.finished) return `## Session Resume Context (session ${c.session_number} of ${c.total_sessions})`;
  const n = c.session_number;
  return `## Recap of a Finished Workflow (${c.finished}, after ${counted(n, 'session')})`;
}

/**
 * What a briefing cut short says, in one way wherever it was cut: what it was cut to fit (`fit`: "400 tokens, and
 * still over them" for a token budget even its shortest must-keep facts exceed, "1500 characters" for what a hook
 * injects), and where the whole is.
 */
export function briefingCut(fit: string, whole = 'run `baton context` for the whole'): string {
  return `(briefing cut to fit ${fit}: ${whole})`;
}

/**
 * The briefing without its retrieval footer, which each surface that hands it over adds (`retrievalFooter`): what its
 * hash is over. `budget`: the token budget the context was fitted to, said when even its must-keep facts exceed it.
 */
export function renderResumeContext(c: ResumeContext, budget: number | null = null): string {
  const out: string[] = [];
  out.push(heading(c), '');
  if (c.over_budget)
    out.push(
      briefingCut(
        budget === null ? 'its budget, and still over it' : `${budget} tokens, and still over them`,
      ),
      '',
    );
  if (c.warnings.length) out.push('### Warnings', ...c.warnings.map((w) => `- ${w}`), '');
  goal(c, out);
  tasks(c, out);
  alreadyDone(c, out);
  lastState(c, out);
  beforeTheCompaction(c, out);
  decisionsAndErrors(c, out);
  git(c, out);
  tdd(c, out);
  out.push(
    '### What to Do Next',
    ...(c.next.pause_waiting ? [pauseWaitingSaid(c.next.pause_waiting)] : []),
    nextStep(c),
  );
  if (c.next.description) out.push(c.next.description);
  if (c.next.notes_file && !c.finished)
    out.push(
      `Read \`${c.next.notes_file}\` before going on: the state, plan or notes file this work wrote last.`,
    );
  out.push('');
  if (c.reviewer_feedback.length) {
    out.push('### Unaddressed Reviewer Feedback');
    for (const f of c.reviewer_feedback) {
      out.push(`  From ${f.reviewer} (${f.severity}):`, ...f.comments.map((x) => `    - ${x}`));
      if (f.more) out.push(`    ... and ${f.more} more (baton details reviewer-feedback)`);
    }
    out.push('');
  }
  return out.join('\n') + '\n';
}
