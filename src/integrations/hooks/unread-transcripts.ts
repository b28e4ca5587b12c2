import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { BatonClient } from '../../client/baton-client.js';
import { counted, isTerminal, type NotRead, type WorkflowStatus } from '../../core/index.js';
import type { TranscriptSource } from '../transcripts/transcript-import.js';
import { ACTIVE_WITHIN_MS, CATCH_UP_MAX_BYTES, sourceOf } from './catch-up.js';
import { hookLogPath, readHookLog, updateHookLog, type TranscriptSeen } from './hook-log.js';
import { isRunning } from './agent-process.js';
import { isSubAgentFile } from './sub-agent-call.js';
import { importCaveats } from './import-caveats.js';

/** What a command needs of a workflow's status to find the transcripts it follows. */
export interface FollowedStatus {
  workflow: { id: string; status: string; worktree?: string | null };
  imports?: Record<
    string,
    { format: string; path: string | null; through_line?: number; through_byte?: number }
  >;
}

/** A transcript a workflow follows: where its import stopped, and what the hooks of this machine saw of it. */
export interface Followed {
  path: string;
  source: TranscriptSource;
  /** Where its last import stopped (for a transcript no import read yet, where the hooks saw it). */
  through: number;
  /** The last line its last import read; null when no import read it. */
  through_line: number | null;
  /** What the hook log of `home` keeps of it, for this workflow; undefined when no hook here recorded it. */
  seen: TranscriptSeen | undefined;
}

/**
 * The transcripts a workflow follows: those it imported, and those its hooks saw on this machine (`home`'s hook log)
 * but did not import yet (a session cut off in its first turn). Transcripts on another machine are not known here.
 */
export function followedTranscripts(status: FollowedStatus, home: string): Followed[] {
  const worktree = status.workflow.worktree;
  const log = worktree ? readHookLog(hookLogPath(home, worktree), worktree).transcripts : {};
  const mine = (path: string) => (log[path]?.workflow_id === status.workflow.id ? log[path] : undefined);
  const out = new Map<string, Followed>();
  for (const m of Object.values(status.imports ?? {})) {
    const source = sourceOf(m.format);
    // a sub-agent's file is read at its session's Stop, for its test runs and files only: never a conversation's
    if (m.path && source && !isSubAgentFile(m.path))
      out.set(m.path, {
        path: m.path,
        source,
        through: m.through_byte ?? 0,
        through_line: m.through_line ?? null,
        seen: mine(m.path),
      });
  }
  for (const [path, t] of Object.entries(log))
    if (!out.has(path) && t.workflow_id === status.workflow.id && t.source)
      out.set(path, { path, source: t.source, through: t.bytes, through_line: null, seen: t });
  return [...out.values()];
}

/**
 * What an agent writes right after its Stop or SessionEnd hook read the transcript (Claude Code's stop-hook summary,
 * Codex's turn bookkeeping) lands within this of the hook's record: no work of the agent, and no entry an import
 * would read.
 */
export const SETTLE_MS = 10_000;

/** A followed transcript that holds more than Baton read of it, while no agent that would read it is at work. */
export interface UnreadTranscript {
  path: string;
  agent: TranscriptSource;
  workflow_id: string;
  /** How far Baton read it (its last import, or a hook that read on with no entry in what it read). */
  read_through: number;
  size: number;
  grown_bytes: number;
  /** When the file was last written. */
  written_at: string;
  /** Why no agent's hook will read it soon, in words. */
  why: string;
  /** The command that reads it now. */
  command: string;
}

const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const statOf = (path: string) => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

/** Whether nothing is at `path` any more (deleted, or moved away): not a file that cannot be looked at. */
const isGone = (path: string) => {
  try {
    statSync(path);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
};

/**
 * The transcripts of a workflow not finished that are gone (deleted, or moved) while their conversation may have held
 * work Baton had not read: its agent's last hook here was no turn's end nor the conversation's (a crash or a kill in
 * the middle of a turn, whose Stop would have imported it), so what it wrote after the last import is lost to the
 * briefing. Said as what a command could not read (`NotRead`), never skipped in silence. One whose last hook ended a
 * turn or the conversation, or that a session start took over, was read to its end; one only `baton import` read
 * (no hook here saw it at work) is not known to have held more; one moved and imported again from where it is now
 * (a followed transcript of the same name there) is read.
 */
export function goneTranscripts(status: FollowedStatus, home: string): NotRead[] {
  if (isTerminal(status.workflow.status as WorkflowStatus)) return [];
  const followed = followedTranscripts(status, home);
  return followed.flatMap((f): NotRead[] => {
    const seen = f.seen;
    if (!seen || seen.ended || seen.turn_ended || seen.taken_over || !isGone(f.path)) return [];
    const elsewhere = followed.some(
      (o) => o.path !== f.path && basename(o.path) === basename(f.path) && !isGone(o.path),
    );
    if (elsewhere) return [];
    const after = f.through_line === null ? 'what it held' : `what it held after line ${f.through_line}`;
    return [
      {
        path: f.path,
        why: `it is gone (deleted or moved); ${after} is not in the briefing`,
        command: `baton import -w ${status.workflow.id} <where it is now>`,
      },
    ];
  });
}

/**
 * The transcripts of a workflow not finished that grew since Baton last read them, while no agent at work will read
 * them: an agent that crashed or was killed in the middle of its turn sent no Stop (whose hook imports the turn), and
 * only the next session start reads that tail; until then `baton status` and `baton context` would show what was
 * read before. A size check each (the file's size against how far Baton read it); nothing of what they hold is read.
 *
 * A transcript still being written is an agent at work, whose next Stop reads it: not said. The rule: said when its
 * conversation ended (a SessionEnd came) or the agent process its hooks recorded has exited (Linux); not while that
 * process runs (a turn may write nothing for minutes while a tool runs); where no process is known (not Linux, a
 * transcript only `baton import` read), once it was not written for ACTIVE_WITHIN_MS, the rule a session start uses
 * to tell a conversation at work from one cut off. What is written within SETTLE_MS of the Stop or SessionEnd hook
 * that read it last is the agent's bookkeeping, not work: not said. A transcript whose hooks could not reach the
 * store (`missed_since`: an outage) is said whatever its agent does: no hook reads it until one reaches the store.
 */
export function unreadTranscripts(
  status: FollowedStatus,
  home: string,
  now = Date.now(),
): UnreadTranscript[] {
  if (isTerminal(status.workflow.status as WorkflowStatus)) return [];
  return followedTranscripts(status, home).flatMap((f): UnreadTranscript[] => {
    const st = statOf(f.path);
    const readTo = Math.max(f.through, f.seen?.bytes ?? 0);
    if (!st || st.size <= readTo) return [];
    const seen = f.seen;
    // a hook of its conversation could not reach the store since: its agent may be at work, but what it wrote since
    // its last read waits for the next hook that reaches the store (the turns of an outage)
    const missed = seen?.missed_since;
    if (!missed && seen && (seen.turn_ended || seen.ended) && st.mtimeMs <= Date.parse(seen.at) + SETTLE_MS)
      return [];
    const running = seen?.agent_process && !seen.ended ? isRunning(seen.agent_process) : null;
    if (running === true && !missed) return [];
    const why = missed
      ? `its hooks could not reach Baton's store since ${missed.slice(0, 16).replace('T', ' ')} UTC; the next one that reaches it reads it`
      : seen?.ended
        ? 'its conversation ended'
        : running === false
          ? `its agent (process ${seen?.agent_process?.pid}) no longer runs`
          : now - st.mtimeMs >= ACTIVE_WITHIN_MS
            ? 'no agent seen at work on it'
            : null;
    if (!why) return [];
    return [
      {
        path: f.path,
        agent: f.source,
        workflow_id: status.workflow.id,
        read_through: readTo,
        size: st.size,
        grown_bytes: st.size - readTo,
        written_at: new Date(st.mtimeMs).toISOString(),
        why,
        command: `baton import -w ${status.workflow.id} ${shellWord(f.path)}`,
      },
    ];
  });
}

/** A size in words: bytes, KB or MB. */
export const sizeText = (bytes: number) =>
  bytes < 1024
    ? counted(bytes, 'byte', 'bytes')
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/**
 * Keeps how far a command outside the hooks (`baton import`, `baton context`) read a transcript the workflow follows,
 * in `home`'s hook log as a hook keeps it: an import that finds nothing to record writes no event, so its import mark
 * stays, and without this the lines it read (an agent's bookkeeping written after its last hook, a title Claude Code
 * adds later) would be said unread again however often the command that reads them ran. Only ever moves forward.
 * A mark that cannot be kept (the hook log not writable, or held by a stuck hook) costs nothing the import did: it is
 * said (the text returned), not thrown; null when kept or not needed.
 */
export function keepReadMark(
  status: FollowedStatus,
  home: string,
  path: string,
  bytes: number,
): string | null {
  const worktree = status.workflow.worktree;
  const f = followedTranscripts(status, home).find((x) => x.path === path);
  if (!worktree || !f || bytes <= Math.max(f.through, f.seen?.bytes ?? 0)) return null;
  const logPath = hookLogPath(home, worktree);
  try {
    updateHookLog(logPath, worktree, (log) => {
      log.transcripts[path] = {
        ...log.transcripts[path],
        bytes,
        workflow_id: status.workflow.id,
        at: new Date().toISOString(),
        source: f.source,
      };
    });
    return null;
  } catch (e) {
    return `could not note in the hook log ${logPath} how far ${path} was read (${(e as Error).message}): its last lines may be said unread again`;
  }
}

/**
 * Reads what the workflow's unread transcripts gained (as a session start reads it: one import each, at most
 * CATCH_UP_MAX_BYTES of it), before a command hands the work over (`baton context`), keeping how far it read one that
 * held nothing to record. Gives what it read and what it could not (a transcript gone before it was read among them:
 * `goneTranscripts`), in words (`said`), and apart what it could not read (`not_read`), for a reader that says it in
 * fields of its own (MCP's get_resume_context).
 */
export async function readUnread(
  client: BatonClient,
  status: FollowedStatus,
  home: string,
): Promise<{ said: string[]; not_read: NotRead[] }> {
  // a transcript gone before Baton read it is said as one that could not be read, not skipped
  const notRead: NotRead[] = goneTranscripts(status, home);
  const said = notRead.map((n) => `could not read ${n.path}: ${n.why}`);
  for (const u of unreadTranscripts(status, home)) {
    if (u.grown_bytes > CATCH_UP_MAX_BYTES) {
      said.push(
        `${u.path} grew by ${sizeText(u.grown_bytes)} since Baton last read it, more than is read here: \`${u.command}\` reads it`,
      );
      notRead.push({
        path: u.path,
        why: `it grew by ${sizeText(u.grown_bytes)}, more than is read here`,
        command: u.command,
      });
      continue;
    }
    try {
      // the importer and its rules load only when a transcript is read
      const { importTranscriptFile } = await import('../transcripts/import-file.js');
      const r = await importTranscriptFile(client, { workflowId: u.workflow_id }, u.path, u.agent);
      const unkept = r.new_entries === 0 ? keepReadMark(status, home, u.path, r.read.to_byte) : null;
      said.push(
        `${
          r.new_entries
            ? `read ${counted(r.new_entries, 'entry', 'entries')} that ${u.path} gained since Baton last read it`
            : `nothing new in ${u.path} since Baton last read it (${sizeText(u.grown_bytes)} written, no entry)`
        }${importCaveats(r)}`,
        ...(unkept ? [unkept] : []),
      );
    } catch (e) {
      said.push(`could not read ${u.path}: ${(e as Error).message}`);
      notRead.push({ path: u.path, why: (e as Error).message, command: u.command });
    }
  }
  return { said, not_read: notRead };
}
