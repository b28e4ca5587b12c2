import { statSync } from 'node:fs';
import { BatonError, isTerminal, workflowStatuses } from '../../core/index.js';
import type { HookContext } from './handle-event.js';
import type { TranscriptRead, TranscriptSeen, UnrecordedEnd } from './hook-log.js';
import { clearedBy, overBecause } from './gone-agents.js';
import { agentProcess, isRunning, sameProcess, type AgentProcess } from './agent-process.js';
import type { TranscriptSource } from '../transcripts/transcript-import.js';
import { sessionIdFromTranscript } from './hook-payload.js';
import { isSubAgentFile } from './sub-agent-call.js';
import { importCaveats } from './import-caveats.js';
import type { StatusView } from '../../service/index.js';

/** The agent that writes each transcript format (an import names its source). */
export const sourceOf = (format: string): TranscriptSource | null =>
  format.startsWith('claude-code') ? 'claude-code' : format.startsWith('codex') ? 'codex' : null;

/** More than this written since the last import is left to the next Stop or `baton import`: a start must answer. */
export const CATCH_UP_MAX_BYTES = 8 * 1024 * 1024;
/** Where processes cannot be read: a transcript written this recently is a conversation at work, not one cut off. */
export const ACTIVE_WITHIN_MS = 60_000;

const statOf = (path: string) => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

export interface CaughtUp {
  /** What was read, for the hook's note; null when nothing had grown. */
  note: string | null;
  /**
   * The transcripts read to where they stop (the hook log keeps how far: what held no entry moved no import mark, and
   * is not read again); `whole`: all they hold was read now (none of it had been imported).
   */
  read: (TranscriptRead & { whole: boolean; entries: number })[];
  /** Those that could not be read now, each with why. */
  unread: string[];
  /** Another conversation at work on the worktree's workflow (atWork), the latest written; null when none is. */
  activeElsewhere: Elsewhere | null;
  /**
   * This hook's own conversation seen running in another agent process (its pid): a `--resume` of a conversation
   * still at work elsewhere, not one that was cut off. Only a running process says so, never a recent write: a
   * conversation reopened moments after its crash wrote moments ago.
   */
  ownElsewhere: number | null;
  /**
   * The conversations of the worktree's workflows known to be over though no SessionEnd came (a Codex older than it sends none), by
   * agent session id, each with why: the agent process that ran their hooks exited, or runs this hook for another
   * conversation (Codex's `/new`). Only a process seen says so (Linux), never a quiet transcript.
   */
  over: Record<string, string>;
  /** The transcripts of those conversations (with or without a session id in their name), each with its workflow. */
  overPaths: Record<string, string>;
  /**
   * The usage limits the transcripts read now end on (the agent stopped on one, and no Stop or StopFailure came for
   * it): each is answered as that hook would have answered it (`cutShort`).
   */
  limits: CaughtLimit[];
  /**
   * The ends of turns or conversations the hooks here saw and could not record (`end_unrecorded`: the store was down
   * at that Stop or SessionEnd): each is recorded before the handover, so its conversation is not taken for cut off.
   */
  ends: CaughtEnd[];
}

export interface CaughtEnd extends UnrecordedEnd {
  workflowId: string;
  path: string;
  source: TranscriptSource;
}

export interface CaughtLimit {
  workflowId: string;
  path: string;
  /** The agent that wrote the transcript (its turn is the one the limit ended). */
  source: TranscriptSource;
  /** The Baton session that followed the conversation the limit stopped, when the workflow's recent sessions say it. */
  session: number | null;
  notice: string;
  resets_at: string | null;
}

export interface Elsewhere {
  /** Seconds since its transcript was written. */
  ago: number;
  /** Its agent's process, seen running; null when liveness is only guessed from a recent write. */
  pid: number | null;
}

/**
 * Whether the conversation writing a transcript is at work: not once its SessionEnd came, nor when it is this hook's
 * own agent (a /clear in the same terminal), nor when its turn is over (`idle`: a Stop was its last hook and it wrote
 * no entry since, or it ends on the user's Esc: a Codex `/new`, or a quit and a new start, moments after a turn; or on
 * a usage limit, which stopped it; or `baton import` read it whole after its last write): an agent left open at its
 * prompt (waiting out a usage limit while the user goes on in another agent) does no work. Else, where processes can
 * be read and a hook recorded its agent, whether that process runs; else (macOS, a transcript only `baton import`
 * read) whether it wrote within ACTIVE_WITHIN_MS.
 */
function atWork(
  seen: TranscriptSeen | undefined,
  ago: number,
  self: AgentProcess | null,
  idle: boolean,
): Elsewhere | null {
  if (seen?.ended || idle) return null;
  const proc = seen?.agent_process;
  if (proc) {
    if (sameProcess(proc, self)) return null;
    const running = isRunning(proc);
    if (running !== null) return running ? { ago, pid: proc.pid } : null;
  }
  return ago * 1000 < ACTIVE_WITHIN_MS ? { ago, pid: null } : null;
}

interface Known {
  path: string;
  /** The agent session that writes it, read from the file's name (Claude Code's and Codex's both hold it). */
  sessionId: string | null;
  /** The Baton session that followed that agent session (null: none of the workflow's recent ones did). */
  session: number | null;
  workflowId: string;
  source: TranscriptSource;
  through: number;
  /** No import read it yet (only a prompt's hook saw it): what is read now is all it wrote. */
  unread: boolean;
  /** When the import that read it to `through` was recorded (null: not known). */
  readAt: string | null;
}

/** The Baton session of a workflow's recent ones that followed an agent session (null: none did, or no id). */
const sessionOf = (
  agents: readonly { session_number: number; session_id: string }[],
  sessionId: string | null,
): number | null =>
  agents.find((a) => sessionId !== null && a.session_id === sessionId)?.session_number ?? null;

const incomplete = workflowStatuses.filter((s) => !isTerminal(s));

/** The worktree's incomplete workflows (every one when several are), whose transcripts may have grown. */
async function incompleteWorkflows(
  ctx: HookContext,
): Promise<{ id: string; marks: Known[]; agents: StatusView['agent_sessions'] }[]> {
  const one = async (ref: { cwd: string } | { workflowId: string }) => {
    const status = await ctx.client.status(ref);
    const marks = Object.values(status.imports ?? {}).flatMap((m): Known[] => {
      const source = sourceOf(m.format);
      const sessionId = m.path ? sessionIdFromTranscript(m.path) : null;
      // a sub-agent's file is read at the session's Stop, for its test runs and files only: no conversation of its own
      return m.path && source && !isSubAgentFile(m.path)
        ? [
            {
              path: m.path,
              sessionId,
              session: sessionOf(status.agent_sessions, sessionId),
              workflowId: status.workflow.id,
              source,
              through: m.through_byte ?? 0,
              unread: false,
              readAt: m.read_at ?? null,
            },
          ]
        : [];
    });
    return {
      id: status.workflow.id,
      worktree: status.workflow.worktree,
      marks,
      agents: status.agent_sessions,
    };
  };
  try {
    // every incomplete workflow of the worktree, also one a command without an id passes over (an agent session's
    // that asked nothing: its transcript may have grown since)
    const here = await one({ cwd: ctx.worktree ?? ctx.payload.cwd });
    const others = (await ctx.client.list({ status: incomplete, worktree: here.worktree })).filter(
      (w) => w.id !== here.id,
    );
    return [here, ...(await Promise.all(others.map((w) => one({ workflowId: w.id }))))];
  } catch (e) {
    if (!BatonError.isInstance(e)) throw e;
    if (e.code === 'not_found') return [];
    if (e.code !== 'ambiguous') throw e;
    const candidates = (e.details.candidates ?? []) as { id: string }[];
    return Promise.all(candidates.map((c) => one({ workflowId: c.id })));
  }
}

/**
 * Before a session start hands over the context, what the transcripts of the worktree's incomplete workflows gained
 * since their last import is read: a session cut off (a crash, a kill, a closed terminal) never sent the Stop that
 * imports its last turn, and a Codex task list arrives only with it. The transcripts are those the workflows
 * imported, and those the hooks saw at a prompt but never imported (a session cut off in its first turn). Only a
 * transcript that grew is read (a size check each), at most CATCH_UP_MAX_BYTES of it; what could not be read is said.
 * `leave`: a transcript the hook reads itself (the first Stop after an outage).
 */
export async function catchUpTranscripts(ctx: HookContext, leave?: string): Promise<CaughtUp> {
  const workflows = await incompleteWorkflows(ctx);
  const ids = new Set(workflows.map((w) => w.id));
  const known = new Map<string, Known>();
  for (const m of workflows.flatMap((w) => w.marks)) known.set(m.path, m);
  // seen by a prompt's hook, not imported yet: read from its start, as the agent of the hook that saw it
  for (const [path, seen] of Object.entries(ctx.transcripts ?? {}))
    if (!known.has(path) && ids.has(seen.workflow_id) && seen.source)
      known.set(path, {
        path,
        sessionId: sessionIdFromTranscript(path),
        session: sessionOf(
          workflows.find((w) => w.id === seen.workflow_id)?.agents ?? [],
          sessionIdFromTranscript(path),
        ),
        workflowId: seen.workflow_id,
        source: seen.source,
        through: seen.bytes,
        unread: seen.bytes === 0,
        readAt: null,
      });
  const now = Date.now();
  const own = ctx.payload.transcript_path;
  const notes: string[] = [];
  const self = agentProcess();
  const out: CaughtUp = {
    note: null,
    read: [],
    unread: [],
    activeElsewhere: null,
    ownElsewhere: null,
    over: {},
    overPaths: {},
    limits: [],
    ends: [],
  };
  const ownSeen = own ? ctx.transcripts?.[own] : undefined;
  // (a session start's: the only hook that catches up)
  const cleared = clearedBy(
    ctx.transcripts ?? {},
    { agent: ctx.agent, source: ctx.payload.source, transcript: own ?? null },
    self,
    (path) => statOf(path)?.mtimeMs ?? null,
  );
  const ownProc = ownSeen?.ended ? undefined : ownSeen?.agent_process;
  if (ownProc && !sameProcess(ownProc, self) && isRunning(ownProc) === true) out.ownElsewhere = ownProc.pid;
  for (const k of known.values()) {
    // the hook reads it itself
    if (k.path === leave) continue;
    const seen = ctx.transcripts?.[k.path];
    // recorded whether or not the transcript is still there (its hook saw the end, not the file)
    if (seen?.end_unrecorded && seen.workflow_id === k.workflowId)
      out.ends.push({ ...seen.end_unrecorded, workflowId: k.workflowId, path: k.path, source: k.source });
    const st = statOf(k.path);
    if (!st) continue;
    const over =
      k.path === own
        ? null
        : (overBecause(seen, self) ?? (k.path === cleared ? 'it was cleared (/clear)' : null));
    if (over) out.overPaths[k.path] = k.workflowId;
    if (over && k.sessionId) out.over[k.sessionId] = over;
    // read already, by a hook of this machine, though what it held moved no import mark (no entry in it)
    const readTo = seen?.workflow_id === k.workflowId ? Math.max(k.through, seen.bytes) : k.through;
    const read = st.size <= readTo ? nothingRead : await readOn(ctx, k, st.size - k.through, notes, out);
    const ago = Math.max(0, Math.round((now - st.mtimeMs) / 1000));
    // between turns: the last hook ended its turn and it wrote nothing since, or what it wrote ends on the user's Esc
    // or on a usage limit, or a transcript no hook here follows that an import (`baton import`) read to its end after its last write: a
    // session the user handed over, not one at work (an agent without hooks that writes on is, once it writes again)
    const handedOver =
      !seen && st.size <= k.through && k.readAt !== null && Date.parse(k.readAt) >= st.mtimeMs;
    const idle =
      (seen?.turn_ended === true && read?.entries === 0) ||
      read?.interrupted === true ||
      read?.limited === true ||
      handedOver;
    const elsewhere = k.path === own ? null : atWork(seen, ago, self, idle);
    if (elsewhere && (out.activeElsewhere === null || elsewhere.ago < out.activeElsewhere.ago))
      out.activeElsewhere = elsewhere;
  }
  const said = [...notes, ...out.unread.map((u) => `could not read ${u}`)];
  out.note = said.length ? said.join('; ') : null;
  return out;
}

/**
 * What a session start read of a transcript: its new entries, and whether they end on the user's interruption or on a
 * usage limit (either way the conversation stopped: it is not at work).
 */
interface ReadOn {
  entries: number;
  interrupted: boolean;
  limited: boolean;
}

const nothingRead: ReadOn = { entries: 0, interrupted: false, limited: false };

/**
 * Reads what a transcript gained since its last import (`grown` bytes), saying so in `notes`, or why it could not in
 * `out.unread` (null then). What an agent writes between turns is no entry.
 */
async function readOn(
  ctx: HookContext,
  k: Known,
  grown: number,
  notes: string[],
  out: CaughtUp,
): Promise<ReadOn | null> {
  if (grown > CATCH_UP_MAX_BYTES) {
    out.unread.push(
      `${k.path} (${Math.round(grown / 1048576)} MB written since its last import, more than a session start reads; the next Stop or \`baton import\` reads it)`,
    );
    return null;
  }
  try {
    // loaded only when a transcript grew (parsers and extractors are the heaviest modules a hook can need)
    const { importTranscriptFile } = await import('../transcripts/import-file.js');
    const r = await importTranscriptFile(ctx.client, { workflowId: k.workflowId }, k.path, k.source);
    out.read.push({
      path: k.path,
      whole: k.unread,
      entries: r.new_entries,
      bytes: r.bytes,
      workflow_id: k.workflowId,
      source: k.source,
    });
    if (r.stopped_on_limit)
      out.limits.push({
        workflowId: k.workflowId,
        path: k.path,
        source: k.source,
        session: k.session,
        ...r.stopped_on_limit,
      });
    // what an agent writes between turns (Codex's turn bookkeeping, a resumed conversation's header) is no entry
    notes.push(
      `${
        r.new_entries
          ? `read ${r.new_entries} ${r.new_entries === 1 ? 'entry' : 'entries'} that ${k.path} gained since its last import`
          : `nothing new in ${k.path} since its last import (${grown} bytes written, no entry)`
      }${importCaveats(r)}`,
    );
    return { entries: r.new_entries, interrupted: r.stopped_by_user, limited: !!r.stopped_on_limit };
  } catch (e) {
    // a store out of reach (a server down, a database kept locked) fails this hook: its own work would wait again
    if (BatonError.isInstance(e) && e.code === 'unavailable') throw e;
    out.unread.push(`${k.path} (${(e as Error).message})`);
    return null;
  }
}
