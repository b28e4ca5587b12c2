import type { Draft } from '../draft.js';
import { recordSummary } from './records.js';
import type { AgentRef, AgentSessionRef, SessionInfo } from '../schemas/workflow.js';
import type { WorkflowState } from '../schemas/state.js';
import { agentLabel } from '../agent-label.js';
import { requestsSinceTurnEnd, turnOver } from '../agent-turn.js';
import type { GitCapture, GitMark } from '../schemas/git-state.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { honourRequestedPause, requestedPauseTakesNow } from './pause.js';
import { takeSnapshot } from './snapshots.js';
import { isEmptyWorkflow } from '../empty-workflow.js';
import { requestTitle } from '../requests/request-text.js';

export type AgentSessionOutcome = 'same' | 'linked' | 'next';

/**
 * Ties an agent's session to a Baton session. The session that already follows it continues; an open session that
 * follows no agent session yet is tied to it; any other agent session (a new one, `/clear`, another terminal) ends
 * the open session and is the next Baton session. A call that does not know its agent session (a hook payload
 * without a session id) continues the open session, whichever it follows: it never ends one. The same agent session
 * reopened (`--resume`) after it was cut off ends the Baton session that the cut closed, and goes on as the next.
 * The session replaced is said to have ended only when a session start saw no other conversation at work; else
 * another conversation took over from it (two at work in one worktree take turns this way).
 */
export function linkAgentSession(
  d: Draft,
  agent: AgentRef,
  /**
   * judgeCutOff: whether to judge if the session it replaces was cut off (a session start does, having read its
   * transcript and seen no other conversation at work; a prompt of another conversation replaces a session without
   * judging it). reopened: the agent session starts again in a new process (SessionStart's source `resume`), so the
   * same agent session is judged too. start: a session start; elsewhere: it saw another conversation at work here.
   * git: where git stands (a session start has it): a session judged cut off ends on a crash snapshot of where it
   * stopped, taken while it is still open, so that the snapshot is of that session (its number, its usage), as
   * `interrupt`'s is; the result holds it (`cut_off_snapshot`) for the briefing handed to the next.
   */
  opts: {
    judgeCutOff?: boolean;
    reopened?: boolean;
    start?: boolean;
    elsewhere?: boolean;
    git?: GitCapture;
  } = {},
): {
  outcome: AgentSessionOutcome;
  session_number: number;
  cut_off?: string;
  cut_off_snapshot?: SessionSnapshot;
} {
  const cur = d.state.sessions[d.state.sessions.length - 1];
  // an agent working on it: the workflow is under way (pause and resume apply), whether or not it has tasks
  if (d.state.status === 'pending') d.emit({ type: 'workflow.started', data: {} });
  if (agent.session_id === null) {
    if (cur && cur.ended_at === null) return { outcome: 'same', session_number: cur.number };
    const number = d.state.session_count + 1;
    d.emit({ type: 'session.started', session_number: number, data: { origin: 'resume' } });
    return { outcome: 'next', session_number: number };
  }
  if (cur && cur.ended_at === null) {
    const same = cur.agent?.name === agent.name && cur.agent.session_id === agent.session_id;
    const judged = opts.judgeCutOff
      ? sessionCutOff(d.state, agent, { reopened: opts.reopened === true })
      : null;
    const cut = judged?.reason ?? null;
    if (same && !cut) return { outcome: 'same', session_number: cur.number };
    if (!cur.agent) {
      d.emit({ type: 'session.linked', data: { agent } });
      return { outcome: 'linked', session_number: cur.number };
    }
    const was = `${agentLabel(cur.agent.name)} session ${cur.agent.session_id}`;
    // a start that saw no other conversation at work: the one it replaces ended (a /clear, a quit); another's hook (a
    // prompt, or a start beside one at work) says it took over, the one it replaces may well be at work still
    const ended = opts.start === true && opts.elsewhere !== true;
    const replaced = `another conversation (${agentLabel(agent.name)} session ${agent.session_id}) took over from ${was}, which had not ended`;
    // taken before the next session starts: the snapshot says the cut session's number and usage, not the next's; an
    // earlier one than the open session (another conversation opened meanwhile and asked nothing) is named by its own
    const snap =
      judged && opts.git
        ? takeSnapshot(
            d,
            'crash',
            judged.reason,
            opts.git,
            [],
            judged.session.number === cur.number ? null : judged.session,
          )
        : null;
    d.emit({
      type: 'session.ended',
      data: { reason: cut ?? (ended ? `${was} ended` : replaced), snapshot_id: snap?.id ?? null },
    });
    const number = d.state.session_count + 1;
    d.emit({ type: 'session.started', session_number: number, data: { origin: 'resume', agent } });
    return {
      outcome: 'next',
      session_number: number,
      ...(cut ? { cut_off: cut } : {}),
      ...(snap ? { cut_off_snapshot: snap } : {}),
    };
  }
  const number = d.state.session_count + 1;
  d.emit({ type: 'session.started', session_number: number, data: { origin: 'resume', agent } });
  return { outcome: 'next', session_number: number };
}

/** Another conversation that worked on the workflow: its agent session, its last Baton session, what it was asked. */
export interface OtherWork extends AgentSessionRef {
  session_number: number;
  /** The title of the last request it was given, or null when it was given none (it went on with its list). */
  asked: string | null;
}

/**
 * The other conversations that worked on the workflow since this agent session's last Baton session (another agent
 * took over while this one waited: a usage limit waited out in Claude Code while Codex went on): the agent sessions
 * of the sessions after it whose agent is another and that did something (the user asked it, its model was called, a
 * task was done: a conversation killed before its Stop was read has only its request), each once, with its last Baton
 * session and request: what a person knows it by, not the agent's id. Empty when this agent session never had one (a
 * new conversation is briefed at its start) or nobody worked since.
 */
export function othersWorkedSince(s: WorkflowState, agent: AgentRef): OtherWork[] {
  const mine = (x: SessionInfo) => x.agent?.name === agent.name && x.agent.session_id === agent.session_id;
  const last = agent.session_id === null ? -1 : s.sessions.findLastIndex(mine);
  if (last < 0) return [];
  const requests = s.recent_requests ?? [];
  const asked = new Set(requests.map((r) => r.session_number));
  const worked = (x: SessionInfo) => asked.has(x.number) || (x.usage?.llm_calls ?? 0) > 0 || x.tasks_done > 0;
  const others = new Map<string, OtherWork>();
  for (const x of s.sessions.slice(last + 1)) {
    if (!x.agent || mine(x) || !worked(x)) continue;
    const request = requests.findLast((r) => r.session_number === x.number);
    const before = others.get(x.agent.session_id);
    others.set(x.agent.session_id, {
      name: x.agent.name,
      session_id: x.agent.session_id,
      session_number: x.number,
      asked: request ? requestTitle(request.text) : (before?.asked ?? null),
    });
  }
  return [...others.values()];
}

/**
 * Why the open session that this agent session replaces was cut off, or null when it was not: it follows another agent
 * session (or this one, `reopened` in a new process: a `--resume`) that never ended (no SessionEnd came), and the
 * turn on the user's last request is not over (`turnOver`: no Stop came for it, no answer ended it, nothing since
 * explains the stop). The agent went silent in the middle of its work: a crash, a kill, a closed terminal, a lost
 * connection.
 */
export function cutOffSession(
  s: WorkflowState,
  agent: AgentRef,
  opts: { reopened?: boolean } = {},
): string | null {
  return sessionCutOff(s, agent, opts)?.reason ?? null;
}

/** The session cut off (`cutOffSession`) and why: the one the user's last request was asked in, else the open one. */
function sessionCutOff(
  s: WorkflowState,
  agent: AgentRef,
  opts: { reopened?: boolean },
): { session: SessionInfo; reason: string } | null {
  const cur = s.sessions[s.sessions.length - 1];
  if (!cur || cur.ended_at !== null || !cur.agent || agent.session_id === null) return null;
  // the same agent session goes on in the process that ran it, unless that process is gone and it is reopened
  if (cur.agent.name === agent.name && cur.agent.session_id === agent.session_id && !opts.reopened)
    return null;
  // the turn on the user's last request ended (a Stop came), or the stop is explained (a usage limit, a pause)
  if (turnOver(s) !== false) return null;
  const asked = (s.recent_requests ?? []).at(-1);
  // the session that was asked (an earlier one, when another conversation started meanwhile and asked nothing)
  const who = s.sessions.find((x) => x.number === asked?.session_number && x.agent) ?? cur;
  const name = who.agent?.name ?? cur.agent.name;
  // its transcript, read from its first line, holds no word of the agent's (a first turn cut off before it spoke);
  // no last message at all is not enough (a transcript not read, a Codex session without a rollout)
  const silent = s.summaries?.last_message?.said_nothing === true;
  return {
    session: who,
    reason: `session ${who.number} (${agentLabel(name)} session ${who.agent?.session_id ?? cur.agent.session_id}) stopped in the middle of its turn without ending${silent ? ', before the agent said anything' : ''} (no Stop or SessionEnd came: crashed, killed or cut off)`,
  };
}

/** Claude Code's SessionEnd reasons in words (the briefing and the user read them); a newer one is shown as it comes. */
const endWords: Record<string, string> = {
  prompt_input_exit: 'the user quit',
  clear: '/clear',
  logout: 'the user logged out',
  resume: 'the user resumed another conversation',
};

/**
 * The agent's session ended (its SessionEnd hook: the user quit, cleared or logged out). The Baton session that
 * follows it ends with it; one that follows another agent session (another terminal took over) is left alone. With
 * `at.git`, the session ends on a snapshot of where it left off unless the latest one still stands (`at.fresh_at`: the
 * state's version when the caller found only bookkeeping after it and HEAD where it saw it; a state that moved since
 * takes one too), so reopening the conversation (`--resume`) finds nothing new since and is not briefed again, and
 * the next session's briefing is compiled from it.
 */
export function endAgentSession(
  d: Draft,
  agent: AgentSessionRef,
  reason: string | null,
  at: { git: GitCapture; fresh_at: number | null } | null = null,
): SessionEnd {
  const cur = d.state.sessions[d.state.sessions.length - 1];
  if (
    !cur ||
    cur.ended_at !== null ||
    cur.agent?.name !== agent.name ||
    cur.agent.session_id !== agent.session_id
  )
    return { ended: false, session_number: null, snapshot: null };
  const why = `${agentLabel(agent.name)} session ${agent.session_id} ended${reason ? ` (${endWords[reason] ?? reason})` : ''}`;
  // a workflow holding nothing (a conversation opened and left) stays empty: it is dropped, not handed over
  const stale = at !== null && at.fresh_at !== d.state.version;
  const keep = stale && d.state.status === 'in_progress' && !isEmptyWorkflow(d.state);
  const snap = keep ? takeSnapshot(d, 'handover', why, at.git) : null;
  d.emit({ type: 'session.ended', data: { reason: why, snapshot_id: snap?.id ?? null } });
  // the latest snapshot, found standing at the version the caller saw: it holds where the session left off
  const standing = at !== null && !stale ? (d.state.last_snapshot?.id ?? null) : null;
  const snapshot = snap ? { id: snap.id, taken: true } : standing ? { id: standing, taken: false } : null;
  return { ended: true, session_number: cur.number, snapshot };
}

/**
 * Whether the agent's session ended its Baton session, which one, and the snapshot it ended on: one taken for it
 * (`taken`, trigger `handover`), or the latest, which nothing recorded since made stale; null when none was due (a
 * workflow holding nothing, or not in progress).
 */
export interface SessionEnd {
  ended: boolean;
  session_number: number | null;
  snapshot: { id: string; taken: boolean } | null;
}

/**
 * The agent's turn ended (its Stop hook, a StopFailure, its SessionEnd). Recorded once per turn, when a request came
 * since the last end (or a pause waits for it): a turn whose last response had no words (it ended on a command) is
 * then not taken for one cut off when the conversation is reopened, and keeps where git stood (`mark`): reopened
 * with nothing moved since, the conversation holds where the work stands. The end of a turn is a point where a
 * requested pause may take effect (`honourRequestedPause`): one that waited for this turn does, with its snapshot of
 * `git` (given when a pause is requested).
 */
export function endAgentTurn(
  d: Draft,
  agent: string,
  git: GitCapture | null = null,
  mark: GitMark | null = null,
): { recorded: boolean; paused_snapshot_id: string | null } {
  const waiting = d.state.pause_requested && !requestedPauseTakesNow(d.state);
  const recorded = requestsSinceTurnEnd(d.state) > 0 || waiting;
  if (recorded) d.emit({ type: 'turn.ended', data: { agent, ...(mark ? { git: mark } : {}) } });
  const honoured = git ? honourRequestedPause(d, git) : null;
  return { recorded, paused_snapshot_id: honoured?.outcome === 'paused' ? honoured.snapshot.id : null };
}

/**
 * The agent compacted its context: the next prompt or session start injects Baton's context again, unless the
 * compacted session already got it (its start came first): one injection per compaction, whatever the order. Claude Code's summary of what it compacted (PostCompact's compact_summary) is
 * kept whole as a compaction summary: the context's Last State shows it when it is newer than the agent's last
 * message.
 */
export function noteCompaction(
  d: Draft,
  input: { agent: string; trigger: string | null; summary: string | null },
): void {
  const summary = input.summary?.trim() || null;
  // The agents run the start hook of the compacted session (source `compact`) and PostCompact in either order: a
  // context a hook handed over since the snapshot taken before this compaction (PreCompact's) is already in the new
  // session, even when that start took a snapshot of its own (it read the transcript's compaction lines first).
  const injected = d.state.handed_since_compacting === true;
  d.emit({ type: 'context.compacted', data: { ...input, summary, ...(injected ? { injected } : {}) } });
  if (summary)
    recordSummary(d, { kind: 'compaction', text: summary, source: `${input.agent}:compact_summary` });
}
