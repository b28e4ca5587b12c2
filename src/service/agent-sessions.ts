import {
  acknowledgeContext,
  checkpoint,
  checkpointDue,
  deliverContext,
  isTerminal,
  linkAgentSession,
  noteCompaction,
  SessionSnapshot,
  takeSnapshot,
  type AgentSessionOutcome,
  type AgentSessionRef,
  type BatonEvent,
  type WorkflowState,
  type WorkflowStatus,
} from '../core/index.js';
import type { BatonService } from './baton-service.js';
import { fitToCharacters } from './fit-characters.js';

export interface TrackInput {
  cwd: string;
  agent: AgentSessionRef;
  /** Create a workflow when the worktree has none (the `auto_track` setting). */
  auto_track: boolean;
  /** Resume a paused or interrupted workflow first (a session start does; other hooks never resume). */
  resume: boolean;
}

export interface TrackResult {
  workflow_id: string | null;
  outcome: 'created' | 'resumed' | AgentSessionOutcome | 'untracked';
  status: WorkflowStatus | null;
  session_number: number | null;
  /** Other incomplete workflows of the worktree (the latest one is followed). */
  others: number;
  /** The agent compacted its context since it last got Baton's (the next prompt or start injects). */
  reinject: boolean;
  /** Nothing recorded yet beyond the sessions: no issue, task, request or record to hand over. */
  empty: boolean;
  note: string;
}

const isEmpty = (s: WorkflowState) =>
  !s.issue &&
  s.tasks.length === 0 &&
  (s.recent_requests ?? []).length === 0 &&
  Object.values(s.counts).every((n) => n === 0);

export interface InjectedContext {
  workflow_id: string;
  snapshot_id: string;
  hash: string;
  /** Estimated (about four characters a token): a hook never loads the tokenizer. */
  tokens: number;
  chars: number;
  max_chars: number;
  /** The text was cut after the must-keep facts still did not fit. */
  cut: boolean;
  text: string;
}

const agentLabel = (name: string) =>
  name === 'claude-code' ? 'Claude Code' : name === 'codex' ? 'Codex' : name;

/** What does not make a snapshot stale: the handoff, the sessions, imports that found nothing. */
const bookkeeping: ReadonlySet<BatonEvent['type']> = new Set([
  'context.delivered',
  'context.acknowledged',
  'session.linked',
  'session.started',
  'session.ended',
  'workflow.resumed',
  'context.compacted',
  'checkpoint.created',
]);

/**
 * Continuity for agent sessions that Baton does not run itself (Claude Code, Codex with Baton's hooks): the
 * workflow of the worktree is found or created, the agent's session tied to a Baton session, the context handed
 * over within what the agent shows, compactions noted, and checkpoints taken only after real work.
 */
export class AgentSessions {
  constructor(private readonly svc: BatonService) {}

  async track(input: TrackInput): Promise<TrackResult> {
    const { store, git } = this.svc;
    const worktree = await git.resolveWorktree(input.cwd);
    const open = (await store.listWorkflows({ worktree })).filter((w) => !isTerminal(w.status));
    const untracked = (note: string): TrackResult => ({
      workflow_id: null,
      outcome: 'untracked',
      status: null,
      session_number: null,
      others: 0,
      reinject: false,
      empty: true,
      note,
    });
    if (open.length === 0) {
      if (!input.auto_track)
        return untracked(`no workflow in ${worktree} and auto_track is off; start one with \`baton create\``);
      const start = await git.gitStart(worktree);
      if (start === null)
        return untracked(`${worktree} is not a git repository; Baton follows git worktrees`);
      const created = await this.svc.create({
        title: `${agentLabel(input.agent.name)} session on ${start.branch ?? 'a detached HEAD'}`,
        tasks: [],
        worktree,
        agent: input.agent,
      });
      return {
        workflow_id: created.id,
        outcome: 'created',
        status: created.status,
        session_number: 1,
        others: 0,
        reinject: false,
        empty: true,
        note: `following this session as workflow ${created.id}`,
      };
    }
    const latest = [...open].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0] as WorkflowState;
    const mine = open.find((w) => w.sessions.some((x) => x.agent?.session_id === input.agent.session_id));
    let w = mine ?? latest;
    const others = open.length - 1;
    let resumed = false;
    if (w.status === 'paused' || w.status === 'interrupted') {
      if (!input.resume)
        return {
          workflow_id: w.id,
          outcome: 'same',
          status: w.status,
          session_number: w.session_count,
          others,
          reinject: w.reinject ?? false,
          empty: isEmpty(w),
          note: `workflow ${w.id} is ${w.status}; the next session start resumes it`,
        };
      await this.svc.resume({ workflowId: w.id });
      resumed = true;
      w = await this.svc.runner.load(w.id);
    }
    const { result, state } = await this.svc.runner.run(w.id, (d) => linkAgentSession(d, input.agent), {
      retry: true,
    });
    return {
      workflow_id: state.id,
      outcome: resumed ? 'resumed' : result.outcome,
      status: state.status,
      session_number: result.session_number,
      others,
      reinject: state.reinject ?? false,
      empty: isEmpty(state),
      note: `${resumed ? 'resumed' : 'following'} workflow ${state.id} as session ${result.session_number}${others ? ` (${others} other incomplete workflow${others > 1 ? 's' : ''} here; the latest is followed)` : ''}`,
    };
  }

  /** The latest snapshot when nothing but bookkeeping happened since it; else a new one (trigger `manual`). */
  private async freshSnapshot(s: WorkflowState, reason: string): Promise<SessionSnapshot> {
    const last = s.last_snapshot;
    if (last && last.seq <= s.version) {
      const after = await this.svc.store.readEvents(s.id, last.seq);
      const row = await this.svc.store.getRecord(s.id, 'snapshot', last.id);
      if (row && after.every((e) => bookkeeping.has(e.type))) return SessionSnapshot.parse(row.data);
    }
    const git = await this.svc.git.captureGitState(s.worktree, s.git_start?.commit ?? null);
    const out = await this.svc.runner.run(s.id, (d) => takeSnapshot(d, 'manual', reason, git));
    return out.result;
  }

  /**
   * The context to inject into an agent session: compiled from an up-to-date snapshot, fitted to `maxChars`
   * (the must-keep facts first), ending with where the rest is. The delivery and the agent's receipt (a hook's
   * injection is received with the session) are recorded in one commit.
   */
  async inject(workflowId: string, input: { maxChars: number; reason: string }): Promise<InjectedContext> {
    const s = await this.svc.runner.load(workflowId);
    const snap = await this.freshSnapshot(s, input.reason);
    const state = await this.svc.runner.load(workflowId);
    const fitted = fitToCharacters(
      (budget) => this.svc.compiler.compile(snap, Math.max(1, state.session_count), [], budget),
      snap,
      input.maxChars,
    );
    await this.svc.runner.run(
      workflowId,
      (d) => {
        deliverContext(d, {
          snapshot_id: snap.id,
          context_hash: fitted.hash,
          tokens: fitted.tokens,
          via: 'hook',
        });
        acknowledgeContext(d, fitted.hash, 'hook');
      },
      { retry: true },
    );
    return { workflow_id: workflowId, snapshot_id: snap.id, max_chars: input.maxChars, ...fitted };
  }

  /** The agent compacted its context (PostCompact): the summary kept, the next prompt or start injects. */
  async noteCompaction(
    workflowId: string,
    input: { agent: string; trigger: string | null; summary: string | null },
  ) {
    await this.svc.runner.run(workflowId, (d) => noteCompaction(d, input), { retry: true });
  }

  /** A checkpoint after real work, at most every `intervalMs`: what Stop and SessionEnd do after their import. */
  async checkpointIfDue(workflowId: string, input: { name: string; intervalMs: number }) {
    const s = await this.svc.runner.load(workflowId);
    if (isTerminal(s.status)) return { checkpoint: null, reason: `the workflow is ${s.status}` };
    const git = await this.svc.git.captureGitState(s.worktree, s.git_start?.commit ?? null);
    const last = s.checkpoints[s.checkpoints.length - 1];
    const row = last ? await this.svc.store.getRecord(s.id, 'snapshot', last.snapshot_id) : null;
    const lastGit = row ? SessionSnapshot.parse(row.data).git_state : null;
    const now = (this.svc.options.now?.() ?? new Date()).toISOString();
    const decision = checkpointDue(s, { now, intervalMs: input.intervalMs, git: git.state, lastGit });
    if (!decision.due) return { checkpoint: null, reason: decision.reason };
    const out = await this.svc.runner.run(workflowId, (d) => checkpoint(d, input.name, git));
    return { checkpoint: out.result.name, reason: decision.reason };
  }
}
