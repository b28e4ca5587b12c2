import { createHash } from 'node:crypto';
import { byIsoTime } from '../../core/iso-order.js';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ensurePrivateDir } from '../../storage/private-files.js';
import { withLock } from '../../storage/lock-file.js';
import { dirname, join } from 'node:path';
import type { AgentProcess } from './agent-process.js';

/** How a hook ended: did its work, found nothing to do, was not for Baton, failed, or ran out of time. */
export type HookOutcome = 'ok' | 'nothing' | 'skipped' | 'failed' | 'timeout';

export interface HookRecord {
  at: string;
  agent: string;
  /** The hook's event (`unknown` for a hook that named none). */
  event: string;
  outcome: HookOutcome;
  note: string;
  ms: number;
  /** The hook found its Baton server (or its PostgreSQL) not answering (`lastWentUnanswered`). */
  unanswered?: true;
  /**
   * When a hook here last waited its whole time for it: the hooks after it that did not wait (and failed) keep that
   * time, so the server is waited for in full again once the window is over (a slow one is not shut out for good).
   */
  unanswered_since?: string;
  /**
   * A hook that failed because the store was out of reach, and the hook that reached it first after that outage (it
   * read on what the transcripts gained meanwhile): the failure is past, nothing of it is missing.
   */
  caught_up?: { event: string; at: string };
}

/**
 * The local record of the hooks of one worktree (`$BATON_HOME/hooks/<hash>.json`): the last result of each agent's
 * event (`events`, keyed by `hookRecordKey`: Claude Code and Codex wired in one repository each keep their own), for
 * `baton doctor`, and how far each transcript was imported, so a Stop with nothing new never opens the
 * database. Small: one record per agent and event and the latest transcripts. Hooks that end at once take turns to write
 * it (`updateHookLog`); a write that fails only costs a later hook a database read: the database stays the truth.
 */
export interface HookLog {
  version: 1;
  worktree: string;
  events: Record<string, HookRecord>;
  transcripts: Record<string, TranscriptSeen>;
  /** When `baton init --undo` last took Baton's set-up out of this worktree (doctor says so, not a problem). */
  undone_at?: string;
  /**
   * Each agent's hooks here that could not reach Baton's store (its server or database down), by agent, since the first
   * of them: the user is told the failure whole once, not at every hook, and the first hook that reaches it again
   * reads what the transcripts gained meanwhile and says it answers again.
   */
  outages?: Record<string, Outage>;
}

/** Baton's store out of reach of an agent's hooks: since the first of them failed, whose failure the user was told. */
export interface Outage {
  since: string;
}

/** How far a transcript was imported (the workflow keeps where the next import starts reading). */
export interface TranscriptSeen {
  bytes: number;
  workflow_id: string;
  at: string;
  /** `lastMessageKey` of the Stop's `last_assistant_message` then, if it sent one. */
  last_message?: string | null;
  /** The agent that writes it (a session start reads on from `bytes` as that agent's transcript). */
  source?: 'claude-code' | 'codex';
  /** The agent process whose hook recorded it last (Linux), to tell a conversation at work from one cut off. */
  agent_process?: AgentProcess;
  /** Its conversation ended (a SessionEnd came): it is at work nowhere, until a hook records it again (a resume). */
  ended?: true;
  /**
   * Its agent's turn ended (a Stop or StopFailure was its last hook but session starts): between turns, until a hook of
   * a turn records it again (a prompt). Where its process cannot be seen, a recent write is then no sign of a
   * conversation at work.
   */
  turn_ended?: true;
  /**
   * A session start found its conversation over though no SessionEnd came (`overBecause`: its agent gone) and went on
   * with the workflow: `baton status` no longer says that agent is gone, until a hook records it again (a resume).
   */
  taken_over?: true;
  /**
   * The end of its turn or conversation (a Stop, StopFailure, Interrupt or SessionEnd) came, but its hook could not
   * record it (the store down or locked): the next session start here records it (`catchUpTranscripts`), so the
   * conversation is not taken for one cut off.
   */
  end_unrecorded?: UnrecordedEnd;
  /**
   * A hook of its conversation could not reach Baton's store (an outage), at this time: what it wrote since it was
   * last read is unread though its agent is at work, until a hook that reaches the store reads it.
   */
  missed_since?: string;
}

/** An end a hook saw and could not record: its event, when, the agent session and (a SessionEnd) its reason. */
export interface UnrecordedEnd {
  event: 'Stop' | 'StopFailure' | 'Interrupt' | 'SessionEnd';
  at: string;
  session_id: string | null;
  reason: string | null;
}

/** A transcript a hook read to where it stops, as the hook log keeps it. */
export type TranscriptRead = Omit<TranscriptSeen, 'at'> & { path: string };

/**
 * A short key of a Stop's `last_assistant_message`: a Stop whose transcript has not grown still has news when its
 * last message is another (the transcript's last lines not flushed yet).
 */
export function lastMessageKey(text: unknown): string | null {
  if (typeof text !== 'string' || !text.trim()) return null;
  return createHash('sha256').update(text.trim()).digest('hex').slice(0, 16);
}

const TRANSCRIPTS_KEPT = 20;

/** Where the hook log keeps the last result of an agent's event. */
export function hookRecordKey(agent: string, event: string): string {
  return `${agent}/${event || 'unknown'}`;
}

/**
 * How long after a hook of this agent ran out of time, or found its server not answering, the next ones first ask the
 * server whether it answers (a hung server would cost each of them its whole time budget).
 */
export const UNANSWERED_FOR_MS = 10 * 60_000;

/** When the newest hook of this agent here ran out of time or found its server silent, within UNANSWERED_FOR_MS. */
export function lastWentUnanswered(
  events: Record<string, HookRecord>,
  agent: string,
  now = Date.now(),
): string | null {
  const last = Object.values(events)
    .filter((r) => r.agent === agent)
    .sort((a, b) => byIsoTime(b.at, a.at))[0];
  if (!last || (last.outcome !== 'timeout' && !last.unanswered)) return null;
  const since = last.unanswered_since ?? last.at;
  return now - Date.parse(since) < UNANSWERED_FOR_MS ? since : null;
}

/**
 * The last session start of this agent here failed or ran out of time (the store could not be reached: a server down,
 * a database locked) and no prompt got through since: its session never got its briefing. What the start said, else
 * null.
 */
export function missedBriefing(events: Record<string, HookRecord>, agent: string): string | null {
  const start = events[hookRecordKey(agent, 'SessionStart')];
  if (!start || (start.outcome !== 'failed' && start.outcome !== 'timeout')) return null;
  const prompt = events[hookRecordKey(agent, 'UserPromptSubmit')];
  const through =
    prompt && prompt.at > start.at && prompt.outcome !== 'failed' && prompt.outcome !== 'timeout';
  return through ? null : start.note;
}

/**
 * The records as this Baton keeps them, from a file written by it or by a Baton before them (keyed by the event
 * alone, shared by every agent, the agent inside the record): each under its agent and event, the later one kept
 * where an old and a new record meet.
 */
function recordsOf(raw: unknown): Record<string, HookRecord> {
  const out: Record<string, HookRecord> = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const r = value as Partial<HookRecord>;
    const agent = typeof r.agent === 'string' ? r.agent : 'claude-code';
    const event = typeof r.event === 'string' ? r.event : key;
    const record = { ...r, agent, event } as HookRecord;
    const at = hookRecordKey(agent, event);
    if (!out[at] || String(out[at].at) < String(record.at)) out[at] = record;
  }
  return out;
}

export function hookLogPath(home: string, worktree: string): string {
  const hash = createHash('sha256').update(worktree).digest('hex').slice(0, 16);
  return join(home, 'hooks', `${hash}.json`);
}

export function readHookLog(path: string, worktree: string): HookLog {
  return readHookLogOrWhy(path, worktree).log;
}

/**
 * The hook log, and why the file there could not be read when it could not (null when it was read, or there is none):
 * a log missing or unreadable starts afresh (it is a cache and a report, never the truth), but `baton doctor` would
 * then say no hook ran, and the hook that writes it anew drops what it held: both say it.
 */
export function readHookLogOrWhy(
  path: string,
  worktree: string,
): { log: HookLog; unreadable: string | null } {
  const fresh: HookLog = { version: 1, worktree, events: {}, transcripts: {} };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { log: fresh, unreadable: code === 'ENOENT' ? null : (e as Error).message };
  }
  let raw: Partial<HookLog>;
  try {
    raw = JSON.parse(text) as Partial<HookLog>;
  } catch (e) {
    return { log: fresh, unreadable: `it is not JSON: ${(e as Error).message}` };
  }
  if (!raw || typeof raw !== 'object' || raw.version !== 1)
    return {
      log: fresh,
      unreadable: `it is not a hook log this Baton writes (version ${String(raw?.version)})`,
    };
  return {
    log: {
      version: 1,
      worktree: typeof raw.worktree === 'string' ? raw.worktree : worktree,
      events: recordsOf(raw.events),
      transcripts: raw.transcripts && typeof raw.transcripts === 'object' ? raw.transcripts : {},
      ...(typeof raw.undone_at === 'string' ? { undone_at: raw.undone_at } : {}),
      ...(raw.outages && typeof raw.outages === 'object' ? { outages: raw.outages } : {}),
    },
    unreadable: null,
  };
}

export function writeHookLog(path: string, log: HookLog): void {
  makeLogFolder(path);
  saveLog(path, log);
}

/** The hook log's folder: BATON_HOME made (or refused) on its own first, as a private folder. */
function makeLogFolder(path: string): void {
  // a recursive mkdir under a folder that cannot hold one (/proc) never returns in Node, it retries for ever
  ensurePrivateDir(dirname(dirname(path)));
  mkdirSync(dirname(path), { recursive: true });
}

/** Writes the log whole (the latest transcripts kept), through a file renamed over it. */
function saveLog(path: string, log: HookLog): void {
  const kept = Object.entries(log.transcripts)
    .sort((a, b) => byIsoTime(b[1].at, a[1].at))
    .slice(0, TRANSCRIPTS_KEPT);
  const out: HookLog = { ...log, transcripts: Object.fromEntries(kept) };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(out, null, 2)}\n`);
  renameSync(tmp, path);
}

/**
 * Applies `change` to the log as it is on disk now, holding its lock: hooks of one worktree that end at once (Stop
 * and SessionEnd, two conversations) each keep what the other wrote, instead of the last to write undoing the other.
 */
export function updateHookLog(path: string, worktree: string, change: (log: HookLog) => void): void {
  // the folder first: the lock file lives beside the log
  makeLogFolder(path);
  withLock(
    `${path}.lock`,
    () => {
      const log = readHookLog(path, worktree);
      change(log);
      saveLog(path, log);
    },
    // each holder keeps it for a millisecond (more on a loaded machine); the hook's answer is out before, so a wait
    // cut short by the agent's timeout costs only this record
    { timeoutMs: 1000, staleMs: 10_000 },
  );
}

/** Notes in a worktree's hook log that `baton init --undo` took Baton's set-up out of it, at `at`. */
export function noteUndone(home: string, worktree: string, at: string): void {
  updateHookLog(hookLogPath(home, worktree), worktree, (log) => {
    log.undone_at = at;
  });
}
