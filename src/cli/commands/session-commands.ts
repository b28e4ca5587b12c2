import type { Command } from 'commander';
import type { BatonClient } from '../../client/baton-client.js';
import {
  agentLabel,
  alsoOpenWords,
  BatonError,
  conflictWords,
  formatAgo,
  goneAgentWords,
  invalidInput,
  leftBehindWords,
  nextStepText,
  openErrorsOfWork,
  openErrorsWords,
  pauseRequestedWords,
  progressLabel,
  refusalText,
  renderResumeReport,
  shortHash,
  standingText,
  teammateActText,
  teammateWorkWords,
  theirRestoreNote,
  type AlsoOpen,
  type NextStep,
  type PauseWaits,
  type QueueStanding,
  type RecoveryPlan,
  type SessionSnapshot,
  type SnapshotSummary,
  type TeammateAct,
  type UsageMetrics,
} from '../../core/index.js';
import {
  detailCategories,
  detailsText,
  type DetailCategory,
  isLiveSnapshotId,
  type ResumeResult,
} from '../../service/index.js';
import { gitConflict, identityAt } from '../../git/git.js';
import { settingReader } from '../../config/settings.js';
import { action, theirsOption, workflowOption } from '../action.js';
import { oneOf, parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';
import { recoverCheckpointCommand, type RestoreFlags } from './restore-command.js';
import { table } from '../output.js';
import { snapshotsTable, snapshotText } from '../snapshot-table.js';
import { usageLine } from '../usage-line.js';
import { goOnLine, pauseText, pauseWithdrawnText, resumedGoOnLine, whoseWords } from '../pause-text.js';
import { askerAt, elsewhereOf, ownerFields, resumeRefusedTheirs, type Elsewhere } from '../whose-workflow.js';
import { catchUpFollowed } from '../../integrations/hooks/followed-catch-up.js';
import { sayAlsoOpen, takenRef } from '../taken-workflow.js';
import {
  goneAgentsOf,
  readBeforeContext,
  watchAgents,
  type GoneAgentSaid,
} from '../../integrations/hooks/agent-watch.js';
import { sizeText } from '../../integrations/hooks/unread-transcripts.js';

type Status = {
  workflow: {
    id: string;
    title: string;
    status: string;
    pause_requested: boolean;
    pause_reason: string | null;
    /** The latest pause, resume or abandon asked by someone other than its owner; absent from older servers. */
    teammate_act?: TeammateAct | null;
    session_count: number;
    pause_overdue: boolean;
    worktree: string | null;
    /** Whose it is (the git identity it was made under); absent or null: anyone's. */
    owner?: string | null;
    /** The workflow it went on from (its conversation's, or the worktree's last), when it did. */
    earlier?: { workflow_id: string; title: string; new_conversation?: boolean; abandoned_at?: string };
  };
  counts: {
    tasks: {
      done: number;
      total: number;
      in_progress: number;
      failed: number;
      blocked: number;
      skipped: number;
      /** Absent from a server older than the count. */
      left_behind?: number;
    };
    open_errors?: number;
    /** How many of the open errors are the API failing under the agent (absent from an older server). */
    open_api_failures?: number;
  };
  /** The newest open errors (at most 20); `counts.open_errors` is how many are open in all. */
  open_errors: { id: string; error_type: string; error_message: string; api_failure?: string }[];
  tasks: { id: string; title: string; status: string; note: string | null }[];
  left_open: { id: string }[];
  probably_done: { id: string; title: string; said: string }[];
  left_behind?: { id: string; title: string }[];
  next_task: { id: string; title: string; status: string } | null;
  runnable_tasks: { id: string }[];
  snapshots: SnapshotSummary[];
  warnings: string[];
  usage: UsageMetrics;
  usage_limit: string | null;
  /** Absent from an older server. */
  api_error?: string | null;
  context_compacted_at?: string | null;
  work_over: string | null;
  turn_under_way: boolean;
  pause_waits_for: PauseWaits | null;
  /** The agent whose hooks follow it: how it goes on is said with it first. Absent from an older server. */
  following_agent?: string | null;
  conversation_open?: boolean | null;
  /** The worktree's other incomplete workflows, when this one was taken for its conversation being at work last. */
  also_open?: AlsoOpen[];
  completes_at_next_start: string | null;
  /** Absent from an older server. */
  done_while_open?: string | null;
  not_over: string | null;
  next_step: NextStep | null;
  queue: QueueStanding | null;
  driver: {
    command: string;
    host: string;
    pid: number;
    heartbeat_at: string;
    expired: boolean;
    liveness: 'alive' | 'dead' | 'unknown';
  } | null;
};

/** The workflow this one went on from, in the briefing's words, with the command that shows what it did. */
function earlierWords(e: NonNullable<Status['workflow']['earlier']>): string {
  const how = e.abandoned_at
    ? 'abandoned by the user (not to be continued)'
    : e.new_conversation
      ? 'completed before the conversation this workflow follows began'
      : 'completed, then the conversation this workflow follows went on';
  return `${e.workflow_id} "${e.title}", ${how} (\`baton context -w ${e.workflow_id}\` shows what it did)`;
}

/** The tasks line: done of all, then what the rest are (left open, left behind, in progress), or why there are none. */
function tasksWords(s: Status): string {
  const c = s.counts.tasks;
  if (!c.total) return noTasksWords(s);
  const rest = s.left_open.length
    ? // a finished workflow's tasks not done are nobody's work now: left open, not in progress
      `${s.left_open.length} left open (${s.left_open.map((t) => t.id).join(', ')})`
    : c.left_behind
      ? // tasks left from an earlier plan are not under way: counted apart (the "left behind:" line names them)
        `${c.left_behind} left behind`
      : `${c.in_progress} in progress${s.probably_done.length ? ` (${s.probably_done.length} probably done)` : ''}`;
  return `${progressLabel(c)}, ${rest}${c.blocked ? `, ${c.blocked} blocked` : ''}`;
}

/**
 * Why a workflow has no task, and where tasks come from. Codex's plan (`update_plan`) reaches Baton with the rollout's
 * import at the end of each turn, so a Codex turn under way has none yet whatever it planned.
 */
function noTasksWords(s: Status): string {
  if (s.following_agent === 'codex' && s.turn_under_way)
    return "none yet (Codex's plan is read when its turn ends)";
  if (s.following_agent) return 'none (the agent made no task list; `baton task add <title>` adds one)';
  return 'none (`baton task add <title>` adds one)';
}

/** Who drives the workflow (its lease): the command, where it runs, whether it is alive, its last heartbeat. */
function driverLine(d: NonNullable<Status['driver']>, now: number): string {
  const state =
    d.liveness === 'alive'
      ? 'alive'
      : d.liveness === 'dead'
        ? 'its process is gone'
        : 'not seen from this host';
  const beat = `last heartbeat ${formatAgo(now - Date.parse(d.heartbeat_at))}`;
  return `driver: \`${d.command}\` (pid ${d.pid} on ${d.host}, ${state}, ${beat}${d.expired ? ': its lease has expired, `baton run --take-over` takes the workflow over' : ''})`;
}

/** A resume (or recovery) for a person: the report (warnings included), what resumed, and the briefing. */
export const resumeText = (r: ResumeResult, elsewhere: Elsewhere | null = null) =>
  [
    renderResumeReport(r.report),
    '',
    `resumed ${r.workflow_id}${whoseWords(elsewhere)}: session ${r.session_number}, from snapshot ${r.snapshot_id}`,
    ...(r.requeued
      ? ['queued again: the worker that ran it before the pause goes on with it (baton queue)']
      : []),
    // nothing runs the session it started (a workflow `baton run` drives): what does
    ...(r.next_step?.command ? [`to go on: ${nextStepText(r.next_step)}`] : []),
    // a plain `baton run` after a crash goes on in the agent's own conversation; after this, it does not
    ...(r.next_run ? [r.next_run] : []),
    // one an agent's hooks follow goes on in that agent, not in one the person starts with the briefing below
    ...(!r.next_step?.command && r.following_agent
      ? [resumedGoOnLine(r.workflow_id, r.following_agent, r.conversation_open ?? null, elsewhere)]
      : []),
    // the report's Warnings section says them: once is enough (--json keeps `warnings`)
    r.next_task ? `next task: ${r.next_task.id} ${r.next_task.title}` : 'no runnable task',
    '',
    r.context,
  ].join('\n');

/**
 * What an option would change, in lines: task statuses, the commits leaving the branch, the files. A teammate's
 * (`elsewhere.owner`) has its branch and files put back only in their worktree, by them: `baton recover --checkpoint`
 * refuses it from another clone, so where that is done is said instead of a plan read from this machine's folder at
 * that path (their clone, or the person's own at the same path). The service says so itself when the clone at that
 * path is another identity's (its note, no git plan); this covers a server that read one (it runs as their identity).
 */
const changesText = (o: RecoveryPlan['options'][number], id: string, elsewhere: Elsewhere | null) => {
  const c = o.changes;
  if (!c) return [];
  const g = c.git;
  return [
    ...(c.tasks.length
      ? [`      tasks: ${c.tasks.map((t) => `${t.task_id} ${t.from} -> ${t.to}`).join(', ')}`]
      : []),
    ...(g && elsewhere?.owner
      ? [`      git: ${theirRestoreNote({ id, owner: elsewhere.owner, worktree: elsewhere.worktree })}`]
      : g
        ? [
            `      git: ${g.branch ?? 'HEAD'} ${g.moves_branch ? `moves ${g.from ? shortHash(g.from) : '?'} -> ${shortHash(g.to)}` : 'stays'}`,
            ...(g.commits_count
              ? [
                  `      ${g.commits_count} commit(s) leave the branch, kept on a backup ref (${g.backup_ref_prefix ?? 'refs/baton/backup/'}<time>):`,
                  ...g.commits.slice(0, 10).map((x) => `        ${shortHash(x.sha)} ${x.subject}`),
                ]
              : []),
            ...(g.files_count
              ? [
                  `      ${g.files_count} file(s) change: ${g.files
                    .slice(0, 10)
                    .map((f) => `${f.status} ${f.path}`)
                    .join(', ')}${g.files_count > 10 ? ', ...' : ''}`,
                ]
              : []),
            ...(g.dirty_files.length
              ? [`      uncommitted now: ${g.dirty_files.slice(0, 10).join(', ')}`]
              : []),
          ]
        : [`      ${c.note}`]),
  ];
};

const optionsText = (p: RecoveryPlan, elsewhere: Elsewhere | null) =>
  p.options.flatMap((o, i) => [
    `  [${i + 1}] ${o.type}${o.type === p.recommended ? ' (recommended)' : ''}: ${o.description}`,
    `      data loss: ${o.data_loss}`,
    ...changesText(o, p.workflow_id, elsewhere),
  ]);

/**
 * Where the workflow's work is against the branch checked out, and other people's unfinished work at its folder or on
 * its branch; none from a server too old to say (no such route; one without `teammates` names none).
 */
const standingOf = async (client: BatonClient, workflowId: string) => {
  try {
    const s = await client.standing({ workflowId });
    return { away: s.away, teammates: s.teammates ?? [] };
  } catch (e) {
    if (BatonError.isInstance(e) && e.code === 'not_found') return null;
    throw e;
  }
};

/** A workflow found by the folder whose work is on another branch: the next agent session here starts a new one. */
const awayWords = (a: { branch: string; checked_out: string }) =>
  `its work is on ${a.branch}, and ${a.checked_out} is checked out here: an agent session started here now begins a new workflow (\`git checkout ${a.branch}\` goes on with this one)`;

/**
 * An agent gone with no SessionEnd, in a line: cut off in the middle of its turn (no Stop came after the last prompt),
 * or gone after it; and what the next session here does with the workflow.
 */
function goneLine(a: GoneAgentSaid, s: Pick<Status, 'work_over'>): string {
  const agent = agentLabel(a.agent);
  const next = s.work_over
    ? `${s.work_over}, so the next ${agent} session here completes this workflow and starts a new one`
    : `the next ${agent} session here goes on with this workflow, from its briefing${a.cut_off ? ', told what was cut off' : ''}`;
  return `${goneAgentWords(a)}: ${next}`;
}

/** What recovers a workflow whose agent is gone: the agent started again here (its session start reads what it wrote). */
const startAgain = (a: GoneAgentSaid) => {
  const [start, reopen] = a.agent === 'codex' ? ['codex', 'codex resume'] : ['claude', 'claude --resume'];
  return `To go on, start ${agentLabel(a.agent)} again here (\`${start}\`, or \`${reopen}\` to reopen that conversation): its session start reads what the last one wrote and goes on from the briefing (\`baton context\` shows it now). Nothing needs recovering by hand; what follows is only for going back:`;
};

/**
 * The options, and how to choose one, only when one can be chosen now; otherwise first why not and what to run, then
 * what recovery would offer once that is done (nothing, when no command makes the workflow recoverable).
 */
const recoveryText = (p: RecoveryPlan, elsewhere: Elsewhere | null) =>
  (p.refusal
    ? [
        `workflow ${p.workflow_id}${whoseWords(elsewhere)} is ${p.status}: ${refusalText(p.refusal)}`,
        ...(p.refusal.command
          ? ['once it is paused, recovery would offer:', ...optionsText(p, elsewhere)]
          : []),
      ]
    : [
        `workflow ${p.workflow_id}${whoseWords(elsewhere)} is ${p.status}${p.interrupt_reason ? ` (${p.interrupt_reason})` : ''}`,
        'recovery options:',
        ...optionsText(p, elsewhere),
        ...(p.conversation ? [`note: ${p.conversation}`] : []),
        `choose with: baton recover --option ${p.options.map((o) => o.type).join('|')}${p.options.some((o) => o.type === 'checkpoint') ? ' [--checkpoint <name>]' : ''}`,
      ]
  ).join('\n');

export function registerSessionCommands(program: Command, rt: Runtime) {
  program
    .command('status')
    .description('status, counts, next task, runnable tasks and snapshots')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt, g }, o: { workflow?: string }) => {
        const found = (await client.status(rt.ref(o.workflow))) as Status;
        // agents gone without a SessionEnd, and transcripts that hold work Baton has not read (as the server says them)
        const {
          gone_agents: gone,
          unread_transcripts: unread,
          transcripts_not_read: notRead,
        } = watchAgents(found, rt.settings(g).home);
        // this machine's reading, over a server's (its hooks' files are here); no gone_agents key when none is gone
        // found by the folder: whether the next agent session here would go on with it, its work on another branch
        const standing = o.workflow ? null : await standingOf(client, found.workflow.id);
        const away = standing?.away ?? null;
        // another person's unfinished work here (same path, or this branch in their clone): pointed to, not merged
        const teammates = standing?.teammates ?? [];
        // the worktree as git has it on this machine now: files still holding conflict markers are said first, before
        // an agent or a person commits them (null: none, or the worktree is not here)
        const conflict = found.workflow.worktree ? await gitConflict(found.workflow.worktree) : null;
        // run outside the workflow's worktree (-w from a teammate's clone), or of a teammate's workflow: where its agent
        // goes on is named, and whose it is
        const elsewhere = await elsewhereOf(rt.cwd, found.workflow);
        const s = {
          ...found,
          gone_agents: gone.length ? gone : undefined,
          unread_transcripts: unread,
          transcripts_not_read: notRead,
          ...(away ? { away } : {}),
          git_conflict: conflict ? { ...conflict, words: conflictWords(conflict) } : null,
          ...(teammates.length ? { teammates } : {}),
        };
        print(s, () =>
          [
            `${s.workflow.id}  ${s.workflow.title}`,
            ...(s.git_conflict ? [`git: ${s.git_conflict.words}`] : []),
            `status: ${s.workflow.status}${s.workflow.pause_requested ? ` (${pauseRequestedWords(s.pause_waits_for)}${s.workflow.pause_overdue ? ', overdue' : ''})` : ''}${s.workflow.pause_reason ? ` - ${s.workflow.pause_reason}` : ''}`,
            // a teammate paused, resumed or abandoned it: the owner is told who, when and why
            ...(s.workflow.teammate_act
              ? [`by a teammate: ${teammateActText(s.workflow.teammate_act)}`]
              : []),
            `session: ${s.workflow.session_count}   tasks: ${tasksWords(s)}`,
            // a failed or blocked task, with why: what the user has to look at before going on
            ...s.tasks
              .filter((t) => t.status === 'failed' || t.status === 'blocked')
              .map((t) => `${t.status}: ${t.id} ${t.title}${t.note ? `: ${t.note.split('\n')[0]}` : ''}`),
            // in progress, though the agent's last message says it is over: said as the briefing says it
            ...s.probably_done.map(
              (p) =>
                `probably done: ${p.id} ${p.title} (in progress, though the agent's last message says "${p.said}": the next session is asked to check it)`,
            ),
            // what failed and is still open (a finished workflow's `not over:` line names them itself)
            ...(s.not_over ? [] : openErrorsLines(s)),
            // only tasks an earlier plan left are open: to check, not the next task
            ...(s.left_behind?.length
              ? [
                  `left behind: ${leftBehindWords(s.left_behind.map((t) => t.id))} (${s.left_behind.map((t) => `${t.id} ${t.title}`).join('; ')})`,
                ]
              : []),
            `next task: ${s.next_task ? `${s.next_task.id} ${s.next_task.title}${s.next_task.status === 'in_progress' ? ` (in progress${s.probably_done.some((p) => p.id === s.next_task?.id) ? ', probably done' : ''})` : ''}` : 'none'}`,
            // the tasks that could be started now (their dependencies done): none beside a task under way is no contradiction
            `ready to start: ${s.runnable_tasks.map((t) => t.id).join(', ') || 'none'}`,
            // the work done here before it, as the briefing names it: a new workflow, empty yet, is not all there is
            ...(s.workflow.earlier ? [`earlier: ${earlierWords(s.workflow.earlier)}`] : []),
            ...(s.driver ? [driverLine(s.driver, Date.now())] : []),
            ...(away ? [`branch: ${awayWords(away)}`] : []),
            // taken among several here for its conversation being at work last: the others, and how to see each
            ...(s.also_open ?? []).map((a) => `also open here: ${alsoOpenWords(a)}`),
            ...teammates.map((t) => `not yours: ${teammateWorkWords(t)}`),
            ...(s.usage_limit ? [`agent: ${s.usage_limit}`] : []),
            // the API failing under the agent: the turn it cut off, said for what it is (no open error of the work)
            ...(s.api_error ? [`agent: ${s.api_error}`] : []),
            ...gone.map((a) => `agent: ${goneLine(a, s)}`),
            ...unread.map(
              (u) =>
                `unread: ${u.path} grew by ${sizeText(u.grown_bytes)} since Baton last read it (written ${formatAgo(Date.now() - Date.parse(u.written_at))}, ${u.why}): \`${u.command}\` reads it, as \`baton context\` and the next session start do`,
            ),
            // a transcript gone before Baton read it: said as `baton context` says what it could not read
            ...notRead.map((n) => `not read: ${n.path}: ${n.why} (moved: \`${n.command}\` reads it)`),
            // its work is over and its conversation ended: said before the user wonders why it is still open (a paused
            // one is completed only once resumed: its next new conversation does both)
            ...(!gone.length && s.completes_at_next_start
              ? [
                  `work over: ${s.completes_at_next_start}, so the next new agent conversation here completes this workflow and starts a new one${s.workflow.status === 'paused' ? '' : ' (`baton complete` completes it now)'}`,
                ]
              : []),
            // the work is done, its conversation not: the workflow stays open while it goes on, and how it ends is said
            ...(!gone.length && s.done_while_open
              ? [
                  `work done: ${s.done_while_open}; the workflow stays open while the agent's conversation goes on (a new request adds to it): quit or /clear the agent, and its next conversation here completes this workflow and starts a new one (\`baton complete\` completes it now)`,
                ]
              : []),
            // the work is done and its conversation ended, but an error is open: said, or the workflow stays open unexplained
            ...(!gone.length && s.not_over ? [`not over: ${s.not_over}`] : []),
            ...(s.workflow.status === 'paused' || s.workflow.status === 'interrupted'
              ? // queued work goes on with a worker (the queue line says which can), not with a command of the person's
                [
                  s.queue
                    ? 'to go on: it is queued, so a worker takes it over and resumes it'
                    : goOnLine(
                        s.workflow.id,
                        s.following_agent ?? null,
                        s.conversation_open ?? null,
                        s.completes_at_next_start !== null,
                        elsewhere,
                      ),
                ]
              : []),
            // queued for the workers: whether one runs it, can take it, or nothing can (and what would)
            ...(s.queue ? [`queue: ${standingText(s.queue)}`] : []),
            // in progress, yet nothing runs it: what does (the queue's line says it of queued work)
            ...(s.next_step && !(s.queue && !s.next_step.command)
              ? [`to go on: ${nextStepText(s.next_step)}`]
              : []),
            ...(s.usage
              ? [usageLine(s.usage, s.context_compacted_at ?? null)].filter((l): l is string => l !== null)
              : []),
            ...s.warnings.map((w) => `warning: ${w}`),
            '',
            snapshotsTable(s.snapshots),
          ].join('\n'),
        );
      }),
    );

  program
    .command('pause')
    .description('pause at the next task boundary')
    .option(...workflowOption)
    .option('-r, --reason <text>', 'why')
    .option('--force', 'pause now, even with a task in progress (recorded as a warning)')
    .option(...theirsOption)
    .action(
      action(
        rt,
        async (
          { client, print, rt, g },
          o: { workflow?: string; reason?: string; force?: boolean; theirs?: boolean },
        ) => {
          const settings = rt.settings(g);
          const ref = await takenRef(rt, client, o.workflow);
          // a turn the user cut off sends no hook: its transcript says so, read first
          const read = await catchUpFollowed(client, ref, settings.home);
          // a timeout given here (--pause-timeout, BATON_PAUSE_TIMEOUT, a config file) goes with the request, so a
          // server's own setting does not silently replace it
          const given = settingReader({ pauseTimeout: g.pauseTimeout }, rt.env, settings).get('pauseTimeout');
          // who asks: a teammate's workflow is refused unless --theirs, and the pause records them
          const w = await client.get(ref);
          const identity = await identityAt(rt.cwd, w.worktree);
          const paused = await client.pause(
            ref,
            {
              reason: o.reason ?? null,
              force: o.force === true,
              ...(given.from === 'default' ? {} : { timeout_ms: settings.pauseTimeoutMs }),
            },
            { identity, theirs: o.theirs === true },
          );
          // a teammate's workflow (-w on a database a team shares) is named theirs, and where its agent goes on
          const elsewhere = await elsewhereOf(rt.cwd, w, identity);
          const r = { ...paused, transcripts_read: read, ...ownerFields(w, elsewhere) };
          print(r, () => read.map((x) => `${x}\n`).join('') + pauseText(r, Date.now(), elsewhere));
        },
      ),
    );

  program
    .command('resume')
    .description(
      'resume a paused or interrupted workflow: a new session with the compiled context; while a requested pause waits, withdraw it',
    )
    .option(...workflowOption)
    .option(...theirsOption)
    .action(
      action(rt, async ({ client, print, rt }, o: { workflow?: string; theirs?: boolean }) => {
        const ref = rt.ref(o.workflow);
        // the person's identity here: whose the workflow is, here and to a server (which reads no git of a teammate's)
        const identity = await askerAt(rt.cwd, client, ref);
        // refused for a teammate's workflow in progress: said as theirs, their agent going on in their worktree; one of
        // theirs the person did not mean (no --theirs): refused, named theirs
        const resumed = await client
          .resume(ref, { identity, theirs: o.theirs === true })
          .catch(async (e: unknown) => {
            throw await resumeRefusedTheirs(e, rt.cwd, (workflowId) => client.get({ workflowId }), identity);
          });
        // a teammate's workflow (-w on a database a team shares) is named theirs, and where its agent goes on
        const w = await client.get({ workflowId: resumed.workflow_id });
        const elsewhere = await elsewhereOf(rt.cwd, w, identity);
        const r = { ...resumed, ...ownerFields(w, elsewhere) };
        print(r, () =>
          r.outcome === 'pause_withdrawn' ? pauseWithdrawnText(r, elsewhere) : resumeText(r, elsewhere),
        );
      }),
    );

  program
    .command('context')
    .description(
      'the resume context for the next session, within its token budget (a hook injects it fitted to inject_max_chars)',
    )
    .option(...workflowOption)
    .option('--format <format>', 'markdown | json', 'markdown')
    .option('--budget <tokens>', 'token budget (env BATON_CONTEXT_BUDGET, default 4000)')
    .action(
      action(rt, async ({ client, rt, g }, o: { workflow?: string; format: string; budget?: string }) => {
        const budget =
          o.budget === undefined ? undefined : parseNumber(o.budget, '--budget', { int: true, min: 200 });
        const format = oneOf(o.format, ['markdown', 'json'] as const, '--format');
        const home = rt.settings(g).home;
        // what a crashed or killed agent wrote after Baton last read its transcript is read first, as the next
        // session start would: the briefing handed over is then not one from before the crash
        const found = await readBeforeContext(client, rt.ref(o.workflow), home);
        const status = found.status as Status;
        const read = found.read;
        for (const r of read) rt.io.err(`note: ${r}`);
        const c = await client.context({ workflowId: status.workflow.id }, budget);
        for (const a of goneAgentsOf(status, home)) rt.io.err(`note: ${goneAgentWords(a)}`);
        const away = o.workflow ? null : ((await standingOf(client, status.workflow.id))?.away ?? null);
        if (away) rt.io.err(`note: ${awayWords(away)}`);
        // the briefing of the workflow whose conversation was at work last, of several here: the others are said
        const others = status.also_open ?? [];
        sayAlsoOpen(rt, others);
        rt.io.out(
          g.json
            ? JSON.stringify(
                { ...c, transcripts_read: read, ...(others.length ? { also_open: others } : {}) },
                null,
                2,
              )
            : format === 'json'
              ? JSON.stringify(c.json, null, 2)
              : c.markdown,
        );
      }),
    );

  program
    .command('ack <hash>')
    .description('confirm that the running session loaded the resume context with this hash')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, hash: string, o: { workflow?: string }) => {
        const r = (await client.acknowledge(await takenRef(rt, client, o.workflow), hash)) as {
          matches: boolean;
          latest: string | null;
          next?: string;
        };
        print(r, () =>
          r.matches
            ? `acknowledged context ${hash}`
            : // a server older than `next` says no more than which is the latest
              `acknowledged ${hash}, a stale one: ${r.next ?? `the latest delivered context is ${r.latest ?? 'none'}`}`,
        );
      }),
    );

  program
    .command('snapshots')
    .description("the workflow's snapshots")
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, o: { workflow?: string }) => {
        const r = await client.snapshots(await takenRef(rt, client, o.workflow));
        print(r, () => snapshotsTable(r.snapshots));
      }),
    );

  program
    .command('snapshot <snapshot-id>')
    .description('one snapshot in full')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, id: string, o: { workflow?: string }) => {
        // only a live snapshot is the worktree's workflow's; a snapshot's id is found whatever workflow holds it
        const ref = isLiveSnapshotId(id) ? await takenRef(rt, client, o.workflow) : rt.ref(o.workflow);
        const s: SessionSnapshot = await client.snapshot(ref, id);
        print(s, () => snapshotText(s));
      }),
    );

  program
    .command('details [snapshot-id] [category]')
    // commander fills optional arguments in order, so the usage says what the handler makes of them
    .usage('[options] [snapshot-id] <category>')
    .description(
      `every record of one category, whole, as of a snapshot (or, given only the category, the workflow as it stands now): ${detailCategories.join(', ')}`,
    )
    .option(...workflowOption)
    .option('--limit <n>', 'only the newest n records (the lists: not git-changes nor test-state)')
    .option('--before <position>', 'with --limit: the newest n before this position (1 is the oldest)')
    .action(
      action(
        rt,
        async (
          { client, print, rt },
          first: string | undefined,
          second: string | undefined,
          o: { workflow?: string; limit?: string; before?: string },
        ) => {
          if (first === undefined)
            throw invalidInput(
              `a category is needed: one of ${detailCategories.join(', ')}: \`baton details decisions\` (the workflow as it stands), or \`baton details <snapshot-id> decisions\``,
            );
          // `baton details requests`, as the briefing's hints say: the workflow as it stands (its live snapshot)
          const id = second === undefined ? null : first;
          const category = second ?? first;
          const known = (c: string) => (detailCategories as readonly string[]).includes(c);
          if (id !== null && known(id) && !known(category))
            throw invalidInput(
              `category "${category}" is not one of ${detailCategories.join(', ')}; the snapshot id comes first: \`baton details ${category} ${id}\``,
            );
          const wanted = oneOf(category, detailCategories, 'category') as DetailCategory;
          const ref =
            id === null || isLiveSnapshotId(id) ? await takenRef(rt, client, o.workflow) : rt.ref(o.workflow);
          if (o.before !== undefined && o.limit === undefined)
            throw invalidInput(
              '--before needs --limit: the newest n records before that position (`--limit 20 --before 41`)',
            );
          const paging =
            o.limit === undefined
              ? undefined
              : {
                  limit: parseNumber(o.limit, '--limit', { int: true, min: 1 }),
                  before:
                    o.before === undefined
                      ? undefined
                      : parseNumber(o.before, '--before', { int: true, min: 1 }),
                };
          const d = await client.details(ref, id, wanted, paging);
          // every record whole (or the page asked for), for a person or an agent reading it, as the MCP tool
          // get_details answers; --json: as stored
          print(d, () => detailsText(wanted, d, id));
        },
      ),
    );

  program
    .command('checkpoint')
    .description(
      'make a named checkpoint: a snapshot, and the git commit HEAD is at (commit files first to keep them)',
    )
    .requiredOption('--name <name>', 'e.g. architecture (stored as cp-NN-architecture)')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, o: { name: string; workflow?: string }) => {
        const ref = await takenRef(rt, client, o.workflow);
        const r = await client.checkpoint(ref, o.name);
        print(
          r,
          () =>
            `checkpoint ${r.checkpoint.name}${r.checkpoint.commit ? ` at ${shortHash(r.checkpoint.commit)}` : ''}`,
        );
        // a checkpoint keeps a commit: changes not committed are not in it, and a restore to it would not bring them
        const git = (await client.snapshot(ref, r.checkpoint.snapshot_id)).git_state;
        if (git?.has_uncommitted_changes) {
          const files = git.uncommitted_files ?? [];
          const named = files.length
            ? `: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`
            : '';
          rt.io.err(
            `baton: warning: uncommitted changes are not in ${r.checkpoint.name}, which keeps the commit HEAD is at${named}; commit them and make another checkpoint to keep them`,
          );
        }
      }),
    );

  program
    .command('checkpoints')
    .description("the workflow's checkpoints")
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, o: { workflow?: string }) => {
        const r = (await client.checkpoints(await takenRef(rt, client, o.workflow))) as {
          checkpoints: { name: string; commit: string | null; created_at: string; snapshot_id: string }[];
        };
        print(r, () =>
          r.checkpoints.length
            ? table(
                ['NAME', 'COMMIT', 'SNAPSHOT', 'CREATED'],
                r.checkpoints.map((c) => [
                  c.name,
                  c.commit ? shortHash(c.commit) : '-',
                  c.snapshot_id,
                  c.created_at,
                ]),
              )
            : // what makes one, so an empty list after a cut-off turn is not read as Baton having followed nothing
              "no checkpoints yet: Baton makes one when a task is done and when an agent's turn ends after work (at most every `checkpoint_interval`, 10m by default); `baton checkpoint --name <name>` makes one now",
        );
      }),
    );

  program
    .command('recover')
    .description('recovery options of an interrupted workflow; with --option, recover and resume')
    .option(...workflowOption)
    .option(
      '--option <option>',
      'checkpoint (the last checkpoint) | live_state (the last auto-save of a running workflow) | fresh (every task back to pending)',
    )
    .option('--checkpoint <name>', 'the checkpoint to go back to (default: the latest)')
    .option('--stash', "checkpoint: stash the worktree's uncommitted changes before restoring its commit")
    .option('--force', "checkpoint: discard the worktree's uncommitted changes")
    .option('--dry-run', 'checkpoint: only say exactly what would be done')
    .option('--state-only', 'checkpoint: restore the workflow state, leave the worktree as it is')
    .option(
      '--yes',
      'checkpoint: confirm a restore that moves the branch (its commits are kept on a backup ref)',
    )
    .option(...theirsOption)
    .action(
      action(
        rt,
        async (
          { client, print, rt, g },
          o: RestoreFlags & { workflow?: string; option?: string; checkpoint?: string; theirs?: boolean },
        ) => {
          const option = o.option ?? (o.checkpoint ? 'checkpoint' : undefined);
          // only the options are listed of the workflow a conversation was at work in last: a recovery asks which
          const ref = option ? rt.ref(o.workflow) : await takenRef(rt, client, o.workflow);
          // the person's identity here: whose the workflow is, here and to a server (which plans nothing in git of a
          // teammate's, and reads no git state of it)
          const identity = await identityAt(rt.cwd);
          if (!option) {
            const plan = await client.recoveryOptions(ref, { identity });
            // a teammate's (-w on a database a team shares): named theirs, its worktree's part said to be done there
            const w = await client.get({ workflowId: plan.workflow_id });
            const elsewhere = await elsewhereOf(rt.cwd, w, identity);
            // a workflow the hooks follow whose agent is gone: the agent started again goes on from it, nothing to undo
            const status =
              plan.refusal && plan.status === 'in_progress' ? ((await client.status(ref)) as Status) : null;
            const gone = status ? goneAgentsOf(status, rt.settings(g).home) : [];
            print(
              {
                workflow_id: plan.workflow_id,
                ...ownerFields(w, elsewhere),
                recovery: plan,
                ...(gone.length ? { gone_agents: gone } : {}),
              },
              () =>
                [
                  ...gone.map((a) => `${goneAgentWords(a)}.\n${startAgain(a)}`),
                  recoveryText(plan, elsewhere),
                ].join('\n'),
            );
            return;
          }
          if (option === 'checkpoint' && !o.stateOnly)
            return recoverCheckpointCommand(rt, client, g, ref, o.checkpoint ?? null, o, print);
          const r = await client.recover(
            ref,
            oneOf(option, ['checkpoint', 'live_state', 'fresh'] as const, '--option'),
            o.checkpoint ?? null,
            { identity, theirs: o.theirs === true },
          );
          // a teammate's (-w on a database a team shares): named theirs, going on in their worktree
          const w = await client.get({ workflowId: r.workflow_id });
          const elsewhere = await elsewhereOf(rt.cwd, w, identity);
          print(
            { ...r, ...ownerFields(w, elsewhere) },
            () => `recovered from ${r.option}\n${resumeText(r, elsewhere)}`,
          );
        },
      ),
    );

  program
    .command('interrupt')
    .description(
      'mark a workflow interrupted (it stopped without being asked): crash snapshot, recovery options',
    )
    .option(...workflowOption)
    .option('--reason <text>', 'what happened', 'interrupted')
    .action(
      action(rt, async ({ client, print, rt }, o: { workflow?: string; reason: string }) => {
        const r = (await client.interrupt(await takenRef(rt, client, o.workflow), o.reason)) as {
          workflow_id: string;
          snapshot_id: string;
        };
        print(
          r,
          () => `${r.workflow_id} is interrupted (crash snapshot ${r.snapshot_id}); see \`baton recover\``,
        );
      }),
    );
}

/**
 * The open errors of the work in one line: how many, the newest two, where the rest are and how one is closed. The API
 * failing under the agent is none of them (What to Do Next says the turn it cut off).
 */
function openErrorsLines(s: Pick<Status, 'counts' | 'open_errors'>): string[] {
  const { n, newest } = openErrorsOfWork(s);
  if (n === 0) return [];
  return [
    `${openErrorsWords(n, newest)}; \`baton details errors\` lists them, \`baton record resolve <id> --resolution fixed\` closes one that no longer applies`,
  ];
}
