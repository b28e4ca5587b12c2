import { basename } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import {
  BatonError,
  branchInWords,
  counted,
  isDetached,
  isAgentTaskTool,
  linkedPhrase,
  notLinkedPhrase,
  progressLabel,
  teammateActText,
  teammateWorkWords,
  type TeammateWork,
  type BranchChange,
  type EarlierWorkflow,
  type OtherWork,
  type SessionEnd,
} from '../../core/index.js';
import { clip } from '../../core/clip.js';
import { COMPACTION_REASON } from '../../core/compaction.js';
import { errorLine } from '../../core/errors.js';
import { subAgentFiles } from './sub-agent-call.js';
import { importCaveats } from './import-caveats.js';
import { isNotice } from '../../agents/agent-summaries.js';
import {
  detectUsageLimit,
  isLimitNotice,
  machineZone,
  stoppedByLimit,
} from '../../core/runtime/usage-limit.js';
import { promptRequest } from '../../extraction/session/requests.js';
import { pickedLabel } from '../../core/requests/menu-pick.js';
import type { OnOtherBranch, StartResult, TrackResult } from '../../service/index.js';
import type { HookOutcome, Outage, TranscriptRead, TranscriptSeen } from './hook-log.js';
import { outageOver } from './outage.js';
import type { HookAgent, HookEvent, HookPayload } from './hook-payload.js';
import { agentLabel } from '../../core/agent-label.js';
import { catchUpTranscripts, type CaughtEnd, type CaughtUp, type Elsewhere } from './catch-up.js';
import { goneAgents } from './gone-agents.js';

export interface HookSettings {
  autoTrack: boolean;
  injectMaxChars: number;
  checkpointIntervalMs: number;
}

export interface HookContext {
  client: BatonClient;
  agent: HookAgent;
  payload: HookPayload;
  settings: HookSettings;
  /** The git worktree of the payload's cwd (found by the hook without running git), null outside one. */
  worktree: string | null;
  /** How far each transcript was imported (the hook's local record): an import reads only what follows. */
  transcripts?: Record<string, TranscriptSeen>;
  /** Baton's home, where `baton init` keeps what it set up (which worktrees of the repository are). */
  home?: string;
  /** Why the session start before this prompt failed, when it did and no prompt got through since (`missedBriefing`). */
  missedBriefing?: string | null;
  /** This agent's hooks here could not reach the store since (`HookLog.outages`): this hook is the first that does. */
  outage?: Outage | null;
  /**
   * How the agent runs Baton's CLI here, as it would type it (`baton` on the PATH, else this install by its paths):
   * asked only by the briefing that names a command, not by every hook.
   */
  cli?: () => string;
  /**
   * The unfinished workflows the worktree's run folders hold that the store lacks (Baton's home emptied or replaced),
   * in words with the command that brings them back; null when none. Asked by a session start that made a workflow.
   */
  runsLost?: (worktree: string) => Promise<string | null>;
}

export interface HookResult {
  outcome: HookOutcome;
  note: string;
  /** JSON for the agent on stdout, when the hook has something to say. */
  output: Record<string, unknown> | null;
  /**
   * How far the transcripts the hook read are read now (the hook log keeps it, so a Stop with nothing new stays cheap,
   * and a session start reads again only what grew since: a piece with no entry moves no import mark).
   */
  transcripts?: TranscriptRead[];
  /** Transcripts of conversations over with no SessionEnd that a session start went on from (`taken_over`). */
  takenOver?: string[];
  /** Transcripts whose end a session start recorded for the hook that could not (`end_unrecorded`). */
  endsRecorded?: string[];
  /** A line for the user (a systemMessage), shown when it is new for this event in this folder. */
  tell?: string;
}

function context(event: 'SessionStart' | 'UserPromptSubmit', text: string) {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

const trackInput = (ctx: HookContext, resume: boolean) => ({
  cwd: ctx.payload.cwd,
  ...(ctx.worktree ? { worktree: ctx.worktree } : {}),
  agent: { name: ctx.agent, session_id: ctx.payload.session_id },
  auto_track: ctx.settings.autoTrack,
  resume,
});

async function track(
  ctx: HookContext,
  resume: boolean,
  only: { follow_new?: boolean; tell_left_out?: boolean } = {},
): Promise<TrackResult> {
  const t = await ctx.client.trackSession({ ...trackInput(ctx, resume), ...only });
  // a pause that outlived its timeout, forced by this look: the user hears it, whatever the hook answers
  if (t.paused_now !== undefined && t.workflow_id)
    forcedPauses.set(ctx, forcedPauseTell(t.workflow_id, t.paused_now));
  return t;
}

/** What each hook's look forced (a pause past its timeout), told with the hook's answer (`handleHookEvent`). */
const forcedPauses = new WeakMap<HookContext, string>();

const forcedPauseTell = (workflowId: string, reason: string) =>
  `Baton paused workflow ${workflowId}${reason ? ` ("${clip(reason, 120)}")` : ''}: the pause you asked for waited its timeout for the task under way, which did not end. The agent may still be at work; your next prompt resumes the workflow`;

/** A hook that found no workflow to follow (auto_track off, not a git repository) says why and does nothing. */
const untracked = (t: TrackResult): HookResult => ({ outcome: 'skipped', note: t.note, output: null });

/**
 * Imports what is new in the transcript. A transcript that cannot be read does not stop the hook (the snapshot or
 * checkpoint still matters); the hook then ends as failed, so `baton doctor` and the user see it.
 */
interface Imported {
  note: string;
  transcript: TranscriptRead | undefined;
  failed: boolean;
  /** For the user: a requested pause took effect at the boundary the imported task list reached. */
  tell?: string;
  /** The usage limit the imported piece ends on (the agent stopped on it), as the import recorded it. */
  limit?: LimitMet;
}

async function importNew(
  ctx: HookContext,
  ref: Ref,
  workflowId: string,
  event: HookEvent,
): Promise<Imported> {
  const path = ctx.payload.transcript_path;
  if (!path) return { note: 'no transcript path', transcript: undefined, failed: false };
  // A session that ends before its first prompt never wrote its transcript: nothing to import, nothing wrong.
  if (event === 'SessionEnd' && !existsSync(path))
    return { note: `no transcript at ${path} (none written)`, transcript: undefined, failed: false };
  let r: Awaited<ReturnType<typeof import('../transcripts/import-file.js').importTranscriptFile>>;
  try {
    // Loaded only by the hooks that import (parsers and extractors are the heaviest modules a hook can need).
    const { importTranscriptFile } = await import('../transcripts/import-file.js');
    // It reads from where the workflow's last import of this transcript stopped (the byte offset kept with it); a
    // hook that imported the same piece meanwhile makes it read on from where that one stopped.
    for (let attempt = 1; ; attempt++)
      try {
        r = await importTranscriptFile(ctx.client, ref, path, ctx.agent);
        break;
      } catch (e) {
        if (attempt >= 3 || !BatonError.isInstance(e) || e.code !== 'conflict') throw e;
      }
  } catch (e) {
    // an empty transcript, or one whose first line is still being written: the next hook reads it
    // a store out of reach (a server down, a database kept locked) fails this hook, as in the catch-up: the rest of its
    // work would wait again, and the outage goes on (the next hook reads what this one could not)
    if (BatonError.isInstance(e) && e.code === 'unavailable') throw e;
    if (BatonError.isInstance(e) && e.details.nothing_yet === true)
      return {
        note: 'nothing new in the transcript (nothing written yet)',
        transcript: undefined,
        failed: false,
      };
    return { note: `transcript not imported: ${(e as Error).message}`, transcript: undefined, failed: true };
  }
  const worked = ctx.agent === 'claude-code' ? await subAgentWork(ctx, ref, path) : '';
  const t = r.agent_tasks;
  const moved =
    t.added.length +
    t.started.length +
    t.completed.length +
    t.skipped.length +
    t.retitled.length +
    t.linked.length;
  const tasks = moved
    ? `; tasks: ${[
        t.added.length && `${t.added.length} added`,
        t.started.length && `${t.started.length} started`,
        t.completed.length && `${t.completed.length} completed`,
        t.skipped.length && `${t.skipped.length} skipped`,
        t.retitled.length && `${t.retitled.length} reworded`,
        t.linked.length && `${t.linked.length} linked to the tasks they wait for`,
      ]
        .filter(Boolean)
        .join(', ')}`
    : '';
  const caveats = importCaveats(r);
  const paused = t.paused_snapshot_id ? `; paused at the boundary (snapshot ${t.paused_snapshot_id})` : '';
  return {
    note: `${
      r.new_entries
        ? `imported ${counted(r.new_entries, 'new transcript entry', 'new transcript entries')} (${counted(r.records.decisions, 'decision')}, ${counted(r.records.errors, 'error')})${tasks}${caveats}${paused}`
        : `nothing new in the transcript${tasks}${caveats}${paused}`
    }${worked}`,
    transcript: { path, bytes: r.bytes, workflow_id: workflowId, source: ctx.agent },
    failed: false,
    ...(t.paused_snapshot_id ? { tell: pausedTell(workflowId, t.paused_snapshot_id) } : {}),
    ...(r.stopped_on_limit ? { limit: r.stopped_on_limit } : {}),
  };
}

/**
 * What the session's sub-agents did since the hooks last read their files: their test runs and the files they changed
 * (a sub-agent that runs the tests and commits them leaves the test state to the session; the main transcript holds only
 * its answer). Said in the hook's note; a file that cannot be read is said there too, and the turn's import stands.
 */
async function subAgentWork(ctx: HookContext, ref: Ref, path: string): Promise<string> {
  const files = subAgentFiles(path);
  if (!files.length) return '';
  const { importTranscriptFile } = await import('../transcripts/import-file.js');
  let read = 0;
  const failed: string[] = [];
  for (const file of files)
    try {
      // one look at how far it was read: a file that did not grow since (most of them) is not read again
      const mark = (await ctx.client.imports(ref, file)).imports.at(-1);
      if (mark?.through_byte !== undefined && mark.through_byte >= statSync(file).size) continue;
      // another hook that read it meanwhile: read on from where that one stopped
      for (let attempt = 1; ; attempt++)
        try {
          const r = await importTranscriptFile(ctx.client, ref, file, 'claude-code', {
            only: ['test', 'ci', 'side_effect', 'resolution'],
          });
          if (r.new_entries) read += 1;
          break;
        } catch (e) {
          if (attempt >= 3 || !BatonError.isInstance(e) || e.code !== 'conflict') throw e;
        }
    } catch (e) {
      if (!BatonError.isInstance(e) || e.details.nothing_yet !== true)
        failed.push(`${file}: ${errorLine(e)}`);
    }
  return `${read ? `; read what ${counted(read, 'sub-agent')} did (test runs, files changed)` : ''}${failed.length ? `; sub-agent files not read: ${failed.join('; ')}` : ''}`;
}

/** The boundary a requested pause waited for, told to the user: their next prompt resumes the workflow. */
const pausedTell = (workflowId: string, snapshotId: string) =>
  `Baton paused workflow ${workflowId} at the task boundary you asked for (snapshot ${snapshotId}); your next prompt resumes it`;

/**
 * The agent's turn is over (Stop, StopFailure, Codex's Interrupt) or its session is (SessionEnd): recorded, and a pause asked while the
 * turn was under way takes effect now, said to the user (their next prompt, or the next session, resumes it).
 */
async function turnEnded(ctx: HookContext, ref: Ref, workflowId: string, event: HookEvent) {
  const r = await ctx.client.endAgentTurn(ref, { agent: ctx.agent });
  if (!r.paused_snapshot_id) return { note: '' };
  const next =
    event === 'SessionEnd'
      ? 'the next session resumes it'
      : event === 'SessionStart'
        ? 'this session resumes it'
        : 'your next prompt resumes it';
  return {
    note: `; paused at the end of the agent's turn (snapshot ${r.paused_snapshot_id})`,
    tell: `Baton paused workflow ${workflowId} at the end of the agent's turn, as you asked (snapshot ${r.paused_snapshot_id}); ${next}`,
  };
}

/**
 * The ends of turns and conversations the hooks here saw but could not record (the store was down at that Stop or
 * SessionEnd), recorded as those hooks would have (the turn's end, the Baton session's end) before a session start
 * judges whether the conversation was cut off. What was recorded, for the note and the hook log.
 */
async function recordUnrecordedEnds(ctx: HookContext, ends: CaughtEnd[]) {
  const said: string[] = [];
  const paths: string[] = [];
  for (const e of ends) {
    const ref = { workflowId: e.workflowId, cwd: ctx.payload.cwd };
    const what = `the ${e.event} of ${e.path} (${e.at.slice(0, 16).replace('T', ' ')} UTC)`;
    try {
      const turn = await ctx.client.endAgentTurn(ref, { agent: e.source });
      const session =
        e.event === 'SessionEnd' && e.session_id
          ? await ctx.client.endAgentSession(ref, {
              agent: { name: e.source, session_id: e.session_id },
              reason: e.reason,
            })
          : null;
      paths.push(e.path);
      // an end its hook recorded after all (it failed later, or ran out of time after writing) changes nothing
      const paused = turn.paused_snapshot_id
        ? `, which paused the workflow as asked (snapshot ${turn.paused_snapshot_id})`
        : '';
      if (turn.recorded || session?.ended)
        said.push(`recorded ${what}, which its hook could not record then${paused}`);
    } catch (err) {
      said.push(`could not record ${what} either (${errorLine(err)})`);
    }
  }
  return { note: said.length ? said.join('; ') : null, paths };
}

/**
 * Stop's `last_assistant_message` (Claude Code and Codex send it) is the agent's last summary even where no
 * transcript is read (Codex's `transcript_path: null`, one whose last lines are not flushed yet): kept as the last
 * message, once (the transcript's copy of the same text writes nothing). Stop comes when the agent's turn ended: its
 * message is the turn's end (a quick job without a task list is over once the user's last request got one). A usage
 * limit's notice or an API error's words in its place are not the agent's: the last message stays the one before.
 */
async function keepLastMessage(ctx: HookContext, ref: Ref, event: HookEvent): Promise<boolean> {
  const text = ctx.payload.raw.last_assistant_message;
  if (typeof text !== 'string' || !text.trim()) return false;
  // a failed turn's last message may be the API error it ended on (Claude Code's synthetic "API Error: 529 ...",
  // "Prompt is too long"), not the agent's words: its transcript records it as the error it is
  const failure = event === 'StopFailure' && isNotice(text.trim());
  if (failure || isLimitNotice(text) || text.trim() === ctx.payload.api_error?.message?.trim()) return false;
  const r = (await ctx.client.record(ref, {
    kind: 'summary',
    summary: {
      kind: 'last_message',
      text: text.trim(),
      source: `${ctx.agent}:last_assistant_message`,
      ...(event === 'Stop' ? { turn_ended: true } : {}),
    },
    at: new Date().toISOString(),
  })) as { record: unknown };
  return r.record !== null;
}

/** The context for the agent, or a short note when Baton holds nothing yet for this workflow. */
async function contextFor(ctx: HookContext, t: TrackResult & { workflow_id: string }, why: string) {
  // Codex runs the agent's commands in a sandbox that cannot write Baton's database: only the MCP tool works there
  const cli =
    ctx.agent === 'codex' ? '' : ` (or \`${ctx.cli?.() ?? 'baton'} task add "<title>"\` in a shell)`;
  if (t.empty)
    return {
      text: `Baton is following this ${agentLabel(ctx.agent)} session as workflow ${t.workflow_id}: the user's requests, your task list, decisions and errors are recorded, and the next session (after /clear, a compaction or a restart) gets them back. Nothing is recorded yet. Add a task that must outlive this session with the MCP tool add_task${cli}.\n`,
      note: `nothing to hand over yet (${t.note})`,
    };
  const c = await ctx.client.injectContext(
    { workflowId: t.workflow_id, cwd: ctx.payload.cwd },
    { max_chars: ctx.settings.injectMaxChars, reason: why },
  );
  return {
    text: c.text,
    note: `${t.note}; injected the context of ${t.workflow_id} (${c.chars} characters${c.cut ? ', cut to fit' : ''}, hash ${c.hash})`,
  };
}

/** Why a turn ended on an API error other than a usage limit, in words: its kind and message. */
function apiFailure(p: HookPayload): string {
  const e = p.api_error;
  const said = [e?.type, e?.message].filter(Boolean).join(': ') || 'no detail given';
  return `the turn ended on an API error (${clip(said, 300)})`;
}

interface LimitMet {
  /** The notice as the agent gave it (the transcript's copy of the same words is the same limit). */
  notice: string;
  resets_at: string | null;
}

/**
 * The usage limit a turn ended on, from the hook's payload: StopFailure's error (its kind, its words) and the last
 * message when it is the notice (Claude Code gives the notice as the turn's last message; with only the Stop hook,
 * older versions give nothing else). Its reset is read now, in this machine's zone when it names none, as the agent
 * prints it.
 */
function limitOf(p: HookPayload, event: HookEvent): LimitMet | null {
  const last = p.raw.last_assistant_message;
  const notice = typeof last === 'string' && isLimitNotice(last) ? last.trim() : null;
  const e = event === 'StopFailure' ? p.api_error : null;
  const limit = detectUsageLimit(
    [e?.type, e?.message, notice].filter(Boolean).join(' '),
    new Date(),
    machineZone,
  );
  if (!limit) return null;
  return { notice: notice ?? e?.message ?? e?.type ?? 'usage limit', resets_at: limit.resets_at };
}

/**
 * A turn cut short (StopFailure, or a Stop whose last message is a usage limit's notice): what the turn did is
 * imported as Stop would, then `cutShort`.
 */
async function turnCut(ctx: HookContext, event: HookEvent, said: LimitMet | null): Promise<HookResult> {
  const t = await track(ctx, false);
  if (!t.workflow_id) return untracked(t);
  const ref = { workflowId: t.workflow_id, cwd: ctx.payload.cwd };
  const imported = await importNew(ctx, ref, t.workflow_id, event);
  return cutShort(ctx, event, t.workflow_id, imported, said, t.session_number);
}

/**
 * The end of a turn cut short, once its transcript is imported: the limit the hook's payload said recorded (why the
 * agent stopped: the next briefing says it until the agent works again; one the transcript ends on the import
 * recorded), and a snapshot marks where the work was cut, with why (trigger `usage_limit` for a limit, else
 * `api_error`: the agent stopped, the work is not over; `exhaustion` is the compaction's, which PostCompact reads as
 * "snapshot before compacting"). Every usage limit a hook meets ends here, whether its payload or only the transcript
 * says it (Codex fires Stop and writes the limit in its rollout), or only the next session start's catch-up reads it
 * (no Stop or StopFailure came for it).
 */
async function cutShort(
  ctx: HookContext,
  event: HookEvent,
  workflowId: string,
  imported: Imported,
  said: LimitMet | null,
  /** The Baton session the limit stopped, named in the pause's reason when known. */
  session: number | null,
): Promise<HookResult> {
  const ref = { workflowId, cwd: ctx.payload.cwd };
  // a limit read in the transcript came with the agent's last words as it holds them, the calls left open among them:
  // the hook's copy of the last message (Codex's Stop sends it) would take their place as if the turn had ended on it
  const kept = imported.limit && !said ? false : await keepLastMessage(ctx, ref, event);
  const limit = said ?? imported.limit ?? null;
  if (said)
    await ctx.client.record(ref, {
      kind: 'summary',
      summary: {
        kind: 'usage_limit',
        text: said.notice,
        source: `${ctx.agent}:${event}`,
        resets_at: said.resets_at,
      },
      at: new Date().toISOString(),
    });
  const why = limit
    ? stoppedByLimit(limit.notice, limit.resets_at, undefined, ctx.agent, session)
    : apiFailure(ctx.payload);
  const snap = await ctx.client.snapshotNow(ref, limit ? 'usage_limit' : 'api_error', why);
  const ended = await turnEnded(ctx, ref, workflowId, event);
  const tell = ended.tell ?? imported.tell;
  return {
    outcome: imported.failed ? 'failed' : 'ok',
    note: `${why}; snapshot ${snap.snapshot_id}; ${imported.note}${kept ? "; the agent's last message kept" : ''}${ended.note}`,
    output: null,
    ...(imported.transcript ? { transcripts: [imported.transcript] } : {}),
    ...(tell ? { tell } : {}),
  };
}

/** Open tasks named in the note to the agent; more are counted. */
const UNTIED_SHOWN = 8;

/**
 * What the agent is told when its session's first task list leaves the workflow's open tasks out: Baton ties the
 * items of its list to tasks by their words, so a task it rewrote in its own words would stay open for good.
 */
function untiedNote(
  tasks: readonly { id: string; title: string; status: string }[],
  agent: HookAgent,
): string {
  const list = agent === 'codex' ? 'plan (update_plan)' : 'task list';
  const named = tasks
    .slice(0, UNTIED_SHOWN)
    .map(
      (t) =>
        `${t.id} "${clip(t.title, 120)}"${t.status === 'pending' ? '' : ` (${t.status.replace('_', ' ')})`}`,
    );
  const more = tasks.length > UNTIED_SHOWN ? ` and ${tasks.length - UNTIED_SHOWN} more (baton status)` : '';
  return `Baton: this workflow has open tasks your ${list} does not hold (an earlier session's, or added outside your list): ${named.join(', ')}${more}. Baton ties your list's items to its tasks by their words: put each of these in your list in these words, then mark it completed when it is done (at once if it is done already), or remove it if it is no longer wanted (Baton then skips it). Left out, they are handed on as left from an earlier plan once your list is done.`;
}

/** The hook log's words for the left-out tasks told to the agent. */
const untiedTold = (tasks: readonly { id: string }[]) =>
  `told the agent of ${tasks.length} open task(s) its list leaves out: ${tasks.map((x) => x.id).join(', ')}`;

/** How the agent reads another workflow's context whole (Codex's sandbox cannot run the CLI, which writes). */
const shownWhole = (workflowId: string, agent: HookAgent) =>
  agent === 'codex'
    ? `the MCP tool get_resume_context with workflow_id ${workflowId} shows it whole (\`baton context -w ${workflowId}\` outside your sandbox)`
    : `\`baton context -w ${workflowId}\` shows it whole`;

/**
 * A conversation whose workflow was completed, or abandoned by the user, goes on (`codex resume`, `claude --resume`, a
 * terminal left open): a new workflow follows it, linked to the ended one (never reopened). Said to the user, who would
 * otherwise not know which workflow holds this conversation's work now, and to the agent when no briefing says it yet
 * (an abandoned workflow's briefing, which the agent may hold, no longer stands).
 */
function earlierNote(e: EarlierWorkflow, t: { workflow_id: string; others: number }, agent: HookAgent) {
  const workflowId = t.workflow_id;
  const what = `workflow ${e.workflow_id} ("${clip(e.title, 120)}")`;
  const on = `Baton follows this conversation on as workflow ${workflowId}, which links it; ${shownWhole(e.workflow_id, agent)}.`;
  const shown = `(\`baton context -w ${e.workflow_id}\` shows what it did; ${workflowId}'s briefing links it)`;
  // another conversation's unfinished work in the same worktree (its uncommitted changes may be there)
  const beside = t.others
    ? {
        agent: ` ${t.others === 1 ? 'Another incomplete workflow is' : `${t.others} other incomplete workflows are`} open in this worktree (work this conversation did not do; uncommitted changes in the worktree may be its): leave it as it is unless the user asks.`,
        tell: `. ${t.others === 1 ? 'One other incomplete workflow is' : `${t.others} other incomplete workflows are`} open here (\`baton list\` names them; commands here take -w to say which)`,
      }
    : { agent: '', tell: '' };
  if (e.abandoned_at)
    return {
      agent: `This conversation's earlier work is ${what}, which the user abandoned: do not go on with it unless the user asks. ${on}${beside.agent}`,
      tell: `Baton follows this conversation as a new workflow, ${workflowId}: its ${what} was abandoned, and an abandoned workflow is not resumed ${shown}${beside.tell}`,
    };
  return {
    agent: `This conversation's earlier work is ${what}, which is completed: ${on}${beside.agent}`,
    tell: `Baton follows this conversation as a new workflow, ${workflowId}: its ${what} is completed, and a completed workflow is not reopened ${shown}${beside.tell}`,
  };
}

/**
 * A fresh start found the last workflow's work over and completed it, or found it completed already (its last task
 * done): said to the agent (it starts afresh, and knows where the finished work is), to the user, and in the hook log.
 */
function finishedNote(f: NonNullable<StartResult['finished']>, t: StartResult, agent: HookAgent) {
  const what = `workflow ${f.workflow_id} ("${clip(f.title, 120)}")`;
  const whole = shownWhole(f.workflow_id, agent);
  const now =
    t.outcome === 'created'
      ? 'this session is followed as a new workflow'
      : `this session follows workflow ${t.workflow_id ?? '?'}, incomplete here`;
  if (f.completed_at)
    return {
      agent: `The last ${what} here was ${f.reason}. This session is not asked to continue it; what it did follows, and ${whole}.`,
      tell: `The last ${what} here was ${f.reason}; ${now}`,
      note: `found the last ${what} here ${f.reason}`,
    };
  return {
    agent: `Baton completed the last ${what} before this session: ${f.reason}. This session is not asked to continue it; what it did follows, and ${whole}.`,
    tell: `Baton completed ${what}: ${f.reason}; ${now}`,
    note: `completed ${what}: ${f.reason}`,
  };
}

/**
 * Workflows of a repository that is gone (another one was made at the worktree's path) a fresh start set aside: said
 * to the agent (that work is not this repository's), to the user with the ways on (end it, or continue it after all:
 * a checkpoint records this repository's HEAD for it, so the next start keeps it), and in the hook log.
 */
function asideNote(aside: StartResult['set_aside'], t: StartResult) {
  const now = !t.workflow_id
    ? ''
    : t.outcome === 'created'
      ? `. This session is followed as a new workflow, ${t.workflow_id}`
      : `. This session follows workflow ${t.workflow_id}`;
  const each = aside.map((a) => {
    const what = `workflow ${a.workflow_id} ("${clip(a.title, 120)}", ${a.status})`;
    const instead = t.workflow_id ? `\`baton abandon -w ${t.workflow_id}\`, ` : '';
    return {
      agent: `Baton set aside ${what}: ${a.reason}. Its tasks, commits and files are not this repository's: this session is not asked to continue it.`,
      tell: `Baton set aside ${what}: ${a.reason}; \`baton abandon -w ${a.workflow_id}\` ends it, or if this is that work after all, ${instead}\`baton resume -w ${a.workflow_id}\` and \`baton checkpoint -w ${a.workflow_id}\` continue it here`,
      note: `set aside ${what}: ${a.reason}`,
    };
  });
  return {
    agent: each.map((e) => e.agent).join('\n'),
    tell: `${each.map((e) => e.tell).join('. ')}${now}`,
    note: each.map((e) => e.note).join('; '),
  };
}

/**
 * Workflows a new conversation left for the branches their work is on (another branch is checked out), said to the
 * user with the way back to each, and in the hook log. The agent is not told: they are not its work.
 */
function otherBranchNote(away: readonly OnOtherBranch[]) {
  const named = away
    .slice(0, 2)
    .map((a) => `workflow ${a.workflow_id} ("${clip(a.title, 60)}") on ${a.branch}`);
  const more = away.length > 2 ? ` and ${away.length - 2} more (\`baton list\` shows their branches)` : '';
  const [one] = away;
  const back =
    away.length === 1 && one
      ? `it waits for a session on ${one.branch}`
      : 'each waits for a session on its branch';
  return {
    tell: `Baton left ${named.join(', ')}${more} for ${away.length === 1 ? 'its branch' : 'their branches'}: ${one?.checked_out ?? ''} is checked out; ${back}`,
    note: `left ${named.join(', ')}${more} (${one?.checked_out ?? ''} is checked out)`,
  };
}

/**
 * A session that goes on with a workflow whose work the branch checked out does not hold (a conversation resumed after
 * a checkout): the user is told where its work is, not only the agent (its briefing opens with the warning).
 */
function branchMovedNote(c: BranchChange, workflowId: string) {
  const back = isDetached(c.from) ? '' : ` (\`git checkout ${c.from}\` to go on with it there)`;
  return {
    tell: `Baton: workflow ${workflowId}, which this session goes on with, has its work on ${branchInWords(c.from)}; ${branchInWords(c.to)}, checked out now, does not hold it${back}`,
    note: `the work of workflow ${workflowId} is on ${branchInWords(c.from)}, not on ${branchInWords(c.to)} checked out`,
  };
}

/**
 * Other conversations that worked on the workflow while this one waited (a usage limit waited out in Claude Code while
 * Codex went on): said to the agent before the briefing (its history ends before their work), and to the user.
 */
function othersWorkedNote(others: readonly OtherWork[]) {
  // named as the person knows them: by what they were asked and Baton's session (`baton status`), not the agent's id
  const who = others
    .map(
      (o) =>
        `${agentLabel(o.name)} (Baton session ${o.session_number}${o.asked ? `, asked "${o.asked}"` : ''})`,
    )
    .join(' and ');
  return {
    who,
    agent: `Since your last turn, ${who} worked on this workflow in another conversation: your conversation above does not hold what it did. Where the work stands now follows; do not redo what it says is done.`,
    tell: `Baton: ${who} worked on this workflow since this conversation's last turn; the agent is given the briefing of where it stands`,
  };
}

/**
 * A workflow whose worktree is gone (`git worktree remove`) moved to this one, which has its branch checked out: the
 * user is told where its work is followed now (Git State says what is uncommitted here).
 */
function movedHereNote(from: string, workflowId: string) {
  return {
    tell: `Baton: the worktree of workflow ${workflowId}, ${from}, is gone and its branch is checked out here, so the workflow goes on in this worktree`,
    note: `moved workflow ${workflowId} here from ${from}, which is gone`,
  };
}

/**
 * A conversation resumed in another folder than the one it began in (`codex resume <id>` there), which goes on with the
 * workflow of the worktree it began in: the user is told, since its briefing, records and git state stay that
 * worktree's, and how to follow the work here instead.
 */
const elsewhereTell = (startedIn: string, workflowId: string, cwd: string) =>
  `Baton: this conversation began in ${startedIn} and goes on with its workflow there, ${workflowId}: what it does now in ${cwd} is recorded there, and its briefing's git state is that worktree's. For work of this folder, start a new conversation here`;

/**
 * What the user is told of the cut-off session's transcript: read to where it stops, or why not (never assumed). Read
 * whole, it had never been imported (no Stop came: cut off in its first turn); else what it wrote since the last
 * import (a Stop's, mostly; a compaction's or a session start's too).
 */
function cutOffRead(c: CaughtUp): string {
  if (c.unread.length) return `; what it wrote last could not be read: ${c.unread.join('; ')}`;
  if (!c.read.length) return '';
  return c.read.every((r) => r.whole)
    ? '; what it wrote was read'
    : '; what it wrote since Baton last read its transcript was read';
}

/**
 * A new conversation that continues unfinished work of an earlier one (the next morning, after a crash or a /clear),
 * said to the user with what it is and how to start afresh instead: the briefing tells the agent, the user would not
 * know. Also when nothing is recorded in it yet: the new conversation still joins a workflow another conversation
 * started (a Codex conversation's, a Claude Code session then started in the same worktree).
 */
async function continuing(ctx: HookContext, t: StartResult): Promise<string | null> {
  if (!t.workflow_id || t.outcome === 'created' || t.outcome === 'same') return null;
  const s = await ctx.client.status({ workflowId: t.workflow_id });
  const tasks = s.counts.tasks.total ? `, ${progressLabel(s.counts.tasks)}` : '';
  const next = s.next_task ? `, next ${s.next_task.id} ${clip(s.next_task.title, 60)}` : '';
  // its tasks all finished (done or skipped): the work may be over, which Baton could not tell (it completes such work
  // when it sees a quit)
  const done = s.counts.tasks.total > 0 && s.counts.tasks.finished === s.counts.tasks.total;
  const end = done
    ? `if that work is over, \`baton complete -w ${t.workflow_id}\` completes it`
    : `if this conversation is for other work, \`baton abandon -w ${t.workflow_id}\` ends that workflow`;
  // a usage limit holds (the last session's, or that of the agent another one went on for): whether it has lifted is
  // what the user asks first; the words name whose it is
  const limit = s.usage_limit ? `; the work was ${s.usage_limit}` : '';
  // a stopped workflow this start resumed: how it had stopped (a pause the user asked for, a crash noticed)
  const from = t.resumed_from;
  const was = from ? `, which was ${from.status}${from.reason ? ` (${clip(from.reason, 80)})` : ''},` : '';
  // the worktree's other incomplete workflows wait: a person's command without -w takes the one whose conversation was
  // at work last, and asks which is meant when no conversation tells them apart
  const others = t.others
    ? `. ${t.others === 1 ? 'One other incomplete workflow is' : `${t.others} other incomplete workflows are`} open here (\`baton list\` names them; \`baton abandon -w <id>\` or \`baton complete -w <id>\` ends one)`
    : '';
  return `Baton ${from ? 'resumed' : 'continues'} workflow ${t.workflow_id} "${clip(s.workflow.title, 80)}"${was} in this conversation (session ${t.session_number}${tasks}${next})${limit}; ${end} and your next prompt starts a new one${others}`;
}

/** Said to a conversation reopened where it left off (`history_whole`): Baton still follows it, nothing is new. */
const heldWholeNote = (t: StartResult & { workflow_id: string }, agent: HookAgent) =>
  `Baton follows this conversation as workflow ${t.workflow_id}${t.session_number === null ? '' : ` (session ${t.session_number})`}. Nothing was recorded in it since this conversation's last turn, so the conversation above holds where the work stands; Baton's briefing is there should you need it (${shownWhole(t.workflow_id, agent)}).${t.limit_in_force ? ` Its last turn was ${t.limit_in_force}: until then you may stop again at once.` : ''}`;

/** Another conversation at work on the same workflow, said: seen running, or guessed from a recent write (hedged). */
function busyNote(e: Elsewhere): string {
  const shared =
    'both share one workflow (their task lists replace each other; `git worktree add` gives each its own)';
  return e.pid !== null
    ? `another conversation is at work in this worktree (its agent, process ${e.pid}, still runs; its transcript was written ${e.ago} s ago), so it is not taken as cut off: ${shared}`
    : `another conversation wrote its transcript in this worktree ${e.ago} s ago, so it is not taken as cut off: if it is still at work, ${shared}; if it stopped, what it wrote was read`;
}

/**
 * Other people's unfinished workflows a new conversation here could be taken for (a shared store): the user and the
 * agent are pointed to each, with the command that shows its briefing; this conversation has a workflow of its own.
 */
function teammatesNote(theirs: readonly TeammateWork[]) {
  const each = theirs.map(teammateWorkWords);
  return {
    tell: `Baton: ${each.join('; ')}. It is theirs: this conversation has its own workflow`,
    agent: `Another person's unfinished work (theirs, not this session's: do not continue it unless the user asks):\n${each.map((l) => `- ${l}`).join('\n')}`,
  };
}

/** Why a session start hands over, in words: a compaction or a resume is the same conversation going on. */
const startReason = (agent: string, source: string) =>
  source === 'compact'
    ? `${agent} compacted its context`
    : source === 'resume'
      ? `a ${agent} conversation was resumed`
      : `a new ${agent} session began (${source})`;

/** Answers one agent hook over the client. Throws only on failures the caller reports (it never fails the agent). */
export async function handleHookEvent(event: HookEvent, ctx: HookContext): Promise<HookResult> {
  // the first hook that reaches the store after an outage reads what it missed first (a session start always does)
  const back = ctx.outage && event !== 'SessionStart' ? await outageCatchUp(ctx, event) : null;
  const answered = await answer(event, ctx);
  const r = back ? afterOutage(back, answered) : answered;
  const forced = forcedPauses.get(ctx);
  forcedPauses.delete(ctx);
  const over = ctx.outage ? outageOver(ctx.outage, back?.read ?? null) : null;
  const tell = [forced, over, r.tell].filter(Boolean).join('. ');
  return tell ? { ...r, tell } : r;
}

/**
 * What the transcripts here gained since their last import, read as a session start reads it (`catchUp`), by the first
 * hook of another event that reaches the store after an outage: the turns its failed hooks could not record (a
 * prompt, a Stop) are in the workflow before this hook's own work, not only once the next Stop reads them. A hook
 * that ends a turn or compacts reads its own transcript itself (its import answers a usage limit it ends on).
 */
async function outageCatchUp(ctx: HookContext, event: HookEvent) {
  const reads =
    event === 'Stop' || event === 'StopFailure' || event === 'Interrupt' || event === 'SessionEnd';
  const own = (reads || event === 'PreCompact') && ctx.payload.transcript_path;
  const { caught, limited, ended } = await catchUp(ctx, event, own || undefined);
  const note = [caught.note, ...limited.map((l) => l.note), ended.note].filter(Boolean).join('; ');
  const entries = caught.read.reduce((n, t) => n + t.entries, 0);
  // what the hook reads of its own transcript is said after this (a prompt whose session start failed reads it too,
  // before the briefing it gives)
  const itself = own || (event === 'UserPromptSubmit' && ctx.missedBriefing && ctx.payload.transcript_path);
  const none = `no ${itself ? 'other ' : ''}transcript here had grown since its last import`;
  return {
    note: `the store answers again: ${note || none}`,
    read: caught.unread.length
      ? `what was written meanwhile could not all be read: ${caught.unread.join('; ')}`
      : entries
        ? `read the ${counted(entries, 'transcript entry', 'transcript entries')} written meanwhile`
        : null,
    transcripts: caught.read.map(({ whole: _, entries: __, ...t }) => t),
    endsRecorded: ended.paths,
    tells: limited.map((l) => l.tell).filter((t): t is string => !!t),
  };
}

/** A hook's answer with what its catch-up after an outage read before it (its own read of a transcript counts last). */
const afterOutage = (back: Awaited<ReturnType<typeof outageCatchUp>>, r: HookResult): HookResult => {
  const transcripts = [...back.transcripts, ...(r.transcripts ?? [])];
  const ends = [...back.endsRecorded, ...(r.endsRecorded ?? [])];
  const tell = [...back.tells, r.tell].filter(Boolean).join('. ');
  return {
    ...r,
    note: `${back.note}; ${r.note}`,
    ...(transcripts.length ? { transcripts } : {}),
    ...(ends.length ? { endsRecorded: ends } : {}),
    ...(tell ? { tell } : {}),
  };
};

/**
 * What the transcripts of the worktree's incomplete workflows gained since their last import, read (`leave`: one the
 * hook reads itself), with the usage limits they end on answered as their Stop would have (no Stop or StopFailure came
 * for them) and the turn ends the hooks here could not record, recorded.
 */
async function catchUp(ctx: HookContext, event: HookEvent, leave?: string) {
  const caught = await catchUpTranscripts(ctx, leave);
  // a turn a usage limit ended whose Stop or StopFailure never came: answered as that hook would have, so the next
  // session gets the same pause snapshot and briefing
  const limited: HookResult[] = [];
  for (const l of caught.limits)
    limited.push(
      await cutShort(
        { ...ctx, agent: l.source },
        event,
        l.workflowId,
        {
          note: `read at this ${event === 'SessionStart' ? 'session start' : 'hook'} in ${l.path}`,
          transcript: undefined,
          failed: false,
          limit: { notice: l.notice, resets_at: l.resets_at },
        },
        null,
        l.session,
      ),
    );
  const ended = await recordUnrecordedEnds(ctx, caught.ends);
  return { caught, limited, ended };
}

async function answer(event: HookEvent, ctx: HookContext): Promise<HookResult> {
  const p = ctx.payload;
  switch (event) {
    case 'SessionStart': {
      const source = p.source ?? 'startup';
      // what an earlier session wrote after its last Stop (it may have been cut off) counts before the handover
      const { caught, limited, ended } = await catchUp(ctx, event);
      const t = await ctx.client.startAgentSession({
        ...trackInput(ctx, true),
        max_chars: ctx.settings.injectMaxChars,
        reason: startReason(agentLabel(ctx.agent), source),
        // a new conversation, or a /clear (many clear to switch tasks), does not continue work that is over (a /clear
        // with work left goes on with it); a resume or a compaction is the same conversation going on
        fresh_start: source === 'startup' || source === 'clear',
        ...(caught.activeElsewhere !== null ? { active_elsewhere: true } : {}),
        ...(caught.activeElsewhere?.pid === null ? { active_elsewhere_unsure: true } : {}),
        // a Codex older than its SessionEnd sends none: a conversation whose agent process is gone (or moved on) is over
        ...(Object.keys(caught.over).length ? { conversations_over: caught.over } : {}),
        // the conversation reopened in a new process (`--resume`): its last turn may have been cut off, unless its
        // own agent still runs elsewhere
        ...(source === 'resume' && caught.ownElsewhere === null ? { reopened: true } : {}),
      });
      const done = t.finished ? finishedNote(t.finished, t, ctx.agent) : null;
      const aside = t.set_aside.length ? asideNote(t.set_aside, t) : null;
      const away = t.other_branches?.length ? otherBranchNote(t.other_branches) : null;
      // said at a start or a resume; a compaction goes on in the conversation the user was told it in
      const moved =
        t.branch_changed && t.workflow_id && source !== 'compact'
          ? branchMovedNote(t.branch_changed, t.workflow_id)
          : null;
      const movedHere = t.moved_from && t.workflow_id ? movedHereNote(t.moved_from, t.workflow_id) : null;
      const elsewhere =
        t.started_in && t.workflow_id && source !== 'compact'
          ? elsewhereTell(t.started_in, t.workflow_id, p.cwd)
          : null;
      const earlier =
        t.earlier && t.workflow_id
          ? earlierNote(t.earlier, { ...t, workflow_id: t.workflow_id }, ctx.agent)
          : null;
      const cut = t.cut_off ? `Baton noticed that ${t.cut_off}${cutOffRead(caught)}` : null;
      const withdrawn =
        t.pause_withdrawn === undefined
          ? null
          : `Baton withdrew the pause you asked for${t.pause_withdrawn ? ` (${t.pause_withdrawn})` : ''}: the turn it waited for was cut off, and this session goes on with the work (\`baton pause\` asks again)`;
      const busy = caught.activeElsewhere && t.outcome !== 'same' ? busyNote(caught.activeElsewhere) : null;
      // a new conversation (a start, or a /clear: many clear to switch tasks) told which work it goes on with; a
      // compaction or a resume goes on with the same conversation, whose user knows what it was doing
      const goingOn =
        (source === 'startup' || source === 'clear') && !done && !busy ? await continuing(ctx, t) : null;
      // a worktree added after `baton init` has none of its (uncommitted) files: said where the user looks (init's
      // module loads for a start only: the other hooks of a turn never need it)
      const missing =
        source === 'startup' && ctx.home && ctx.worktree
          ? (await import('../init/init.js')).worktreesNotSetUp(ctx.home, ctx.worktree)
          : [];
      const unwired = missing.length ? (await import('../init/init.js')).notSetUpNote(missing) : null;
      // a new workflow beside unfinished ones the run folders hold and the store lacks (Baton's home emptied)
      const lostRuns =
        t.outcome === 'created' && ctx.worktree ? ((await ctx.runsLost?.(ctx.worktree)) ?? null) : null;
      // a limit still in force: the agent may stop again at once (the briefing says it too, to the agent; a new
      // conversation is told it with the work it goes on with)
      // another person's unfinished work here (a teammate's clone at this path, or this branch in theirs): pointed to
      const theirs = t.teammates?.length ? teammatesNote(t.teammates) : null;
      const limitAhead =
        t.limit_in_force && !limited.length && !goingOn
          ? `Baton: the work was ${t.limit_in_force}; until then the agent may stop again at once`
          : null;
      const tells = [
        limitAhead,
        aside?.tell,
        away?.tell,
        moved?.tell,
        movedHere?.tell,
        elsewhere,
        ...limited.map((l) => l.tell),
        cut,
        withdrawn,
        busy && `Baton: ${busy}`,
        done?.tell,
        earlier?.tell,
        goingOn,
        theirs?.tell,
        unwired,
        lostRuns &&
          `Baton: ${lostRuns}; this session is followed as a new workflow, ${t.workflow_id} meanwhile`,
      ].filter(Boolean);
      const told = tells.length ? { tell: tells.join('. ') } : {};
      const before = [
        caught.note,
        aside?.note,
        away?.note,
        moved?.note,
        movedHere?.note,
        ...limited.map((l) => l.note),
        ended.note,
        t.cut_off,
        busy,
      ]
        .filter(Boolean)
        .join('; ');
      const read = {
        ...(caught.read.length
          ? { transcripts: caught.read.map(({ whole: _, entries: __, ...r }) => r) }
          : {}),
        ...(ended.paths.length ? { endsRecorded: ended.paths } : {}),
      };
      // the user installed the hooks expecting to be followed: a session Baton does not follow is said so
      if (!t.workflow_id)
        return {
          ...untracked(t),
          note: `${before ? `${before}; ` : ''}${t.note}`,
          tell: `${aside ? `${aside.tell}. ` : ''}${done ? `Baton ${done.note}. ` : ''}Baton is not following this session: ${t.note}`,
          ...read,
        };
      // the conversations over that this session goes on from: those of the workflow it follows
      const gone = Object.keys(caught.overPaths).filter((path) => caught.overPaths[path] === t.workflow_id);
      const takenOver = gone.length ? { takenOver: gone } : {};
      // a conversation reopened where it left off: its history is the briefing; the agent is told where it stands
      if (t.history_whole)
        return {
          outcome: 'ok',
          note: `${before ? `${before}; ` : ''}${t.note}; nothing recorded since this conversation's last turn: no context injected, its history holds the work`,
          output: context(
            'SessionStart',
            `${aside ? `${aside.agent}\n\n` : ''}${heldWholeNote({ ...t, workflow_id: t.workflow_id }, ctx.agent)}`,
          ),
          ...told,
          ...read,
          ...takenOver,
        };
      if (!t.context) {
        const c = await contextFor(ctx, { ...t, workflow_id: t.workflow_id, empty: true }, '');
        // what the finished workflow did, in the room the injection leaves
        const head = [aside?.agent, done?.agent, earlier?.agent]
          .filter(Boolean)
          .map((x) => `${x}\n\n`)
          .join('');
        const room = ctx.settings.injectMaxChars - head.length - c.text.length - 2;
        const did = t.finished && room > 200 ? `${clip(t.finished.context.trim(), room)}\n\n` : '';
        return {
          outcome: 'ok',
          note: `${before ? `${before}; ` : ''}${done ? `${done.note}; ` : ''}${c.note}`,
          output: context('SessionStart', `${head}${did}${c.text}${theirs ? `\n${theirs.agent}\n` : ''}`),
          ...told,
          ...read,
          ...takenOver,
        };
      }
      // a conversation reopened after others worked on its workflow: the briefing's last state may be theirs
      const others = t.others_worked?.length ? othersWorkedNote(t.others_worked) : null;
      const head = [aside?.agent, others?.agent].filter(Boolean).join('\n\n');
      return {
        outcome: 'ok',
        note: `${before ? `${before}; ` : ''}${done ? `${done.note}; ` : ''}${t.note}; injected the context (${t.context.chars} characters${t.context.cut ? ', cut to fit' : ''}, hash ${t.context.hash})${others ? ` (${others.who} worked on it since this conversation's last turn)` : ''}`,
        output: context(
          'SessionStart',
          `${head ? `${head}\n\n` : ''}${t.context.text}${theirs ? `\n${theirs.agent}\n` : ''}`,
        ),
        ...told,
        ...read,
        ...takenOver,
      };
    }
    case 'UserPromptSubmit': {
      // the user at work again in this session: a paused (or interrupted) workflow resumes, and they are told; the
      // open tasks its agent's list left out, read from its transcript (Codex's plan always is), are told it now
      const t = await track(ctx, true, { tell_left_out: true });
      if (!t.workflow_id) return untracked(t);
      const resumed =
        t.outcome === 'resumed'
          ? {
              tell: `Baton resumed workflow ${t.workflow_id} as session ${t.session_number}: you are at work again`,
            }
          : {};
      // a conversation whose workflow was completed while it was open (`baton complete` in another terminal)
      const earlier = t.earlier
        ? earlierNote(t.earlier, { ...t, workflow_id: t.workflow_id }, ctx.agent)
        : null;
      const ref = { workflowId: t.workflow_id, cwd: p.cwd };
      // the user's words only: a task notification or another agent's message arrives as a prompt too, and a slash
      // command asks its arguments (as the transcript import reads the same turn)
      const prompt = promptRequest(p.prompt ?? '');
      let note = 'no request in the prompt';
      if (prompt) {
        // a pick ("go with 2") is recorded with the item of the list this conversation's agent gave before it
        // (loaded only then: the transcript parsers are among the heaviest modules a hook can need)
        const said = pickedLabel(prompt)
          ? await (await import('./prompt-pick.js')).saidBeforePick(p.transcript_path, prompt)
          : {};
        const r = (await ctx.client.record(ref, {
          kind: 'request',
          text: prompt,
          at: new Date().toISOString(),
          // the hook's sighting: the transcript import's of the same prompt pairs with it (core/commands/requests.ts)
          source: `${ctx.agent}:hook`,
          ...(said.agent_said !== undefined ? { agent_said: said.agent_said } : {}),
        })) as { record: unknown };
        note = r.record === null ? 'request already recorded' : 'request recorded';
        if (said.note)
          note += `; the list it picks from taken from the workflow's last message: ${said.note}`;
      }
      if (t.outcome === 'resumed' || earlier) note = `${t.note}; ${note}`;
      if (t.moved_from) note = `${movedHereNote(t.moved_from, t.workflow_id).note}; ${note}`;
      // a transcript the hooks have not seen yet is noted (from its start): a session cut off in its first turn,
      // before any Stop imported it, is still read at the next start
      const path = p.transcript_path;
      const seen =
        path && !ctx.transcripts?.[path]
          ? { transcripts: [{ path, bytes: 0, workflow_id: t.workflow_id, source: ctx.agent }] }
          : {};
      if (earlier)
        return {
          outcome: 'ok',
          note,
          output: context('UserPromptSubmit', earlier.agent),
          tell: earlier.tell,
          ...seen,
        };
      // the session start could not give the briefing (Baton's store out of reach): the first prompt that gets through
      // gives it, and the user is told Baton works again
      const missed = ctx.missedBriefing ?? null;
      // other conversations worked on the workflow while this one waited (its window left open): their work is not in
      // its history, so the briefing is given with its first prompt back
      const others = t.others_worked?.length ? othersWorkedNote(t.others_worked) : null;
      // the conversations it took the workflow back from whose agents are gone: over, no longer said cut off
      const tookFrom = (path: string) =>
        !!t.others_worked?.some((o) => basename(path).includes(o.session_id));
      const gone =
        others && ctx.home && ctx.worktree
          ? goneAgents(ctx.home, ctx.worktree, t.workflow_id).filter((g) => tookFrom(g.transcript))
          : [];
      const takenOver = gone.length ? { takenOver: gone.map((g) => g.transcript) } : {};
      const leftOut = t.left_out?.length ? untiedNote(t.left_out, ctx.agent) : null;
      if (leftOut) note += `; ${untiedTold(t.left_out ?? [])}`;
      // a teammate paused, resumed or abandoned this workflow since this conversation's last turn: it and its user
      // are told who, when and why (one wording: `teammateActText`)
      const teammate = t.teammate_act
        ? `Baton: workflow ${t.workflow_id} was ${teammateActText(t.teammate_act)}`
        : null;
      if (teammate) note += `; told: ${teammate}`;
      if (!t.reinject && !missed && !others) {
        const told = [resumed.tell, teammate].filter(Boolean);
        const agentNote = [teammate, leftOut].filter(Boolean).join('\n\n');
        return {
          outcome: 'ok',
          note,
          output: agentNote ? context('UserPromptSubmit', agentNote) : null,
          ...(told.length ? { tell: told.join('. ') } : {}),
          ...seen,
        };
      }
      // the turns this session had while its start could not reach the store (its Stops failed too): read first, else
      // the briefing hands back a task list the conversation itself has moved past
      const own = missed && path ? await importNew(ctx, ref, t.workflow_id, 'UserPromptSubmit') : null;
      if (own) note += `; read the transcript of this session first: ${own.note}`;
      const read = own?.transcript ? { transcripts: [own.transcript] } : seen;
      // Codex's PostCompact cannot inject: the first prompt after a compaction brings the context back.
      const c = await contextFor(
        ctx,
        { ...t, workflow_id: t.workflow_id },
        missed
          ? 'the session start could not give it'
          : others
            ? `${others.who} worked on it since this conversation's last turn`
            : 'the agent compacted its context',
      );
      const tells = [
        resumed.tell,
        // after an outage, the hook says first that Baton reaches its store again
        missed &&
          `${ctx.outage ? 'This' : 'Baton works again: this'} session's start failed (${clip(missed, 200)}), so its briefing is given now`,
        others?.tell,
        teammate,
      ].filter(Boolean);
      const back = tells.length ? { tell: tells.join('. ') } : {};
      return {
        outcome: 'ok',
        note: `${note}; ${c.note}${missed ? ' (the session start had failed)' : ''}${others ? ` (${others.who} worked on it meanwhile)` : ''}`,
        output: context(
          'UserPromptSubmit',
          [teammate, others && !t.empty ? others.agent : null, c.text, leftOut].filter(Boolean).join('\n\n'),
        ),
        ...back,
        ...read,
        ...takenOver,
      };
    }
    case 'PostToolUse': {
      if (!p.tool_name || !isAgentTaskTool(p.tool_name))
        return {
          outcome: 'skipped',
          note: `${p.tool_name ?? 'the tool'} is not a task-list tool`,
          output: null,
        };
      const t = await track(ctx, false);
      if (!t.workflow_id) return untracked(t);
      const r = await ctx.client.syncAgentTasks(
        { workflowId: t.workflow_id, cwd: p.cwd },
        {
          source: ctx.agent,
          // the untied tasks are told in this hook's answer
          tells: true,
          calls: [
            {
              tool: p.tool_name,
              input: p.tool_input,
              result: p.tool_response,
              id: p.tool_use_id,
              at: new Date().toISOString(),
            },
          ],
        },
      );
      const moved = [
        r.added.length && `added ${r.added.join(', ')}`,
        r.started.length && `started ${r.started.join(', ')}`,
        r.completed.length && `completed ${r.completed.join(', ')}`,
        r.skipped.length && `skipped ${r.skipped.join(', ')}`,
        r.retitled.length && `reworded ${r.retitled.join(', ')}`,
        ...r.linked.map(linkedPhrase),
        ...(r.not_linked ?? []).map(notLinkedPhrase),
      ].filter(Boolean);
      // the boundary a requested pause waited for: the agent stops here (`continue: false`; both agents end the turn
      // after this hook), the user is told why, and their next prompt resumes the workflow
      const stop = r.paused_snapshot_id
        ? {
            continue: false,
            stopReason: `${pausedTell(t.workflow_id, r.paused_snapshot_id)}: the agent stopped here`,
          }
        : null;
      // the session's first list left the workflow's open tasks out: the agent is told them while it can still fix it
      const untied = r.untied?.length
        ? {
            hookSpecificOutput: {
              hookEventName: 'PostToolUse',
              additionalContext: untiedNote(r.untied, ctx.agent),
            },
          }
        : null;
      return {
        outcome: moved.length || r.paused_snapshot_id ? 'ok' : 'nothing',
        note: `${moved.length ? `task list: ${moved.join('; ')}` : 'task list unchanged'}${r.paused_snapshot_id ? `; paused at the boundary (snapshot ${r.paused_snapshot_id}), the agent stopped` : ''}${r.pause_at_turn_end ? "; every task is done: the pause asked for takes effect when the agent's turn ends, once it has said what it did" : ''}${r.untied?.length ? `; ${untiedTold(r.untied)}` : ''}`,
        output: stop || untied ? { ...stop, ...untied } : null,
        // a link refused is a problem the agent's list has: the user is shown it, not only the log
        ...(r.not_linked?.length ? { tell: `Baton: ${r.not_linked.map(notLinkedPhrase).join('; ')}` } : {}),
      };
    }
    case 'PreCompact': {
      const t = await track(ctx, false);
      if (!t.workflow_id) return untracked(t);
      const ref = { workflowId: t.workflow_id, cwd: p.cwd };
      const imported = await importNew(ctx, ref, t.workflow_id, event);
      const snap = await ctx.client.snapshotNow(
        ref,
        'exhaustion',
        `${COMPACTION_REASON} (${p.trigger ?? 'auto'})`,
      );
      return {
        outcome: imported.failed ? 'failed' : 'ok',
        note: `snapshot ${snap.snapshot_id} before compaction; ${imported.note}`,
        output: null,
        ...(imported.transcript ? { transcripts: [imported.transcript] } : {}),
        ...(imported.tell ? { tell: imported.tell } : {}),
      };
    }
    case 'PostCompact': {
      const t = await track(ctx, false);
      if (!t.workflow_id) return untracked(t);
      const noted = await ctx.client.noteCompaction(
        { workflowId: t.workflow_id, cwd: p.cwd },
        { agent: ctx.agent, trigger: p.trigger, summary: p.compact_summary },
      );
      const next = noted.reinject
        ? 'the next prompt or session start injects the context'
        : 'the compacted session already got the context at its start';
      return {
        outcome: 'ok',
        note: p.compact_summary
          ? `compaction summary kept (${p.compact_summary.length} characters); ${next}`
          : `compaction noted; ${next}`,
        output: null,
      };
    }
    case 'StopFailure':
      // the turn ended on an API error (a usage or rate limit, billing, an outage) instead of a Stop
      return turnCut(ctx, event, limitOf(p, event));
    // Codex's Interrupt: the user pressed Esc, the turn is over as at a Stop (its rollout says it was cut)
    case 'Stop':
    case 'Interrupt':
    case 'SessionEnd': {
      // a Stop whose last message is a usage limit's notice (Claude Code without StopFailure) is a turn cut short
      const limit = event === 'Stop' ? limitOf(p, event) : null;
      if (limit) return turnCut(ctx, event, limit);
      // a SessionEnd only finds the workflow this session follows: ending a session must not tie or start one; nor
      // does the end of a turn that names no transcript, or one that is not there (nothing to read), of a session no
      // workflow follows
      const unread = p.transcript_path && existsSync(p.transcript_path) ? {} : { follow_new: false };
      const t =
        event === 'SessionEnd'
          ? await ctx.client.trackSession({ ...trackInput(ctx, false), link: false, ...unread })
          : await track(ctx, false, unread);
      if (!t.workflow_id) return untracked(t);
      const ref = { workflowId: t.workflow_id, cwd: p.cwd };
      const imported = await importNew(ctx, ref, t.workflow_id, event);
      // a usage limit only the transcript says (Codex fires Stop, and writes the limit in its rollout) cut it short
      if (event === 'Stop' && imported.limit)
        return cutShort(ctx, event, t.workflow_id, imported, null, t.session_number);
      const kept = await keepLastMessage(ctx, ref, event);
      // the turn is over (a Stop), or the session is (a SessionEnd): with words or not, it was not cut off; a pause
      // that waited for it takes effect
      const turn = await turnEnded(ctx, ref, t.workflow_id, event);
      // the end of a conversation is a boundary: its last work gets a checkpoint however recent the last one is
      const cp = await ctx.client.checkpointIfDue(ref, {
        name: event === 'SessionEnd' ? 'session-end' : 'stop',
        interval_ms: event === 'SessionEnd' ? 0 : ctx.settings.checkpointIntervalMs,
      });
      // the agent's session is over: the Baton session that follows it ends with it (a fresh start can then tell
      // finished work from work a crash cut)
      const id = p.session_id;
      const ended =
        event === 'SessionEnd' && id
          ? await ctx.client.endAgentSession(ref, {
              agent: { name: ctx.agent, session_id: id },
              reason: p.reason,
            })
          : null;
      const endNote = ended?.ended ? `; ${sessionEndSaid(ended, cp.checkpoint)}` : '';
      const tell = turn.tell ?? imported.tell;
      return {
        outcome: imported.failed
          ? 'failed'
          : cp.checkpoint || kept || ended?.ended || turn.tell || !imported.note.startsWith('nothing new')
            ? 'ok'
            : 'nothing',
        note: `${imported.note}${kept ? "; the agent's last message kept" : ''}${turn.note}; ${cp.checkpoint ? `checkpoint ${cp.checkpoint} (${cp.reason})` : `no checkpoint: ${cp.reason}`}${endNote}`,
        output: null,
        ...(imported.transcript ? { transcripts: [imported.transcript] } : {}),
        ...(tell ? { tell } : {}),
      };
    }
  }
}

/**
 * The Baton session's end as the hook line says it, with the snapshot that holds where it left off: one taken for it,
 * or the latest, which nothing recorded since made stale: the checkpoint this same hook took just before (`checkpoint`,
 * its name: only what this hook wrote came after the work, so no gap is suggested), else an earlier one (a Stop's).
 */
function sessionEndSaid(e: SessionEnd, checkpoint: string | null): string {
  const ended = `session ${e.session_number} ended`;
  if (!e.snapshot) return ended;
  if (e.snapshot.taken) return `${ended} on snapshot ${e.snapshot.id} (handover)`;
  return checkpoint
    ? `${ended} on snapshot ${e.snapshot.id}, that of checkpoint ${checkpoint} just taken`
    : `${ended} on snapshot ${e.snapshot.id}, the latest (nothing recorded since)`;
}
