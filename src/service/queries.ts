import { workflowsHere } from './workflows-here.js';
import { turnUnderWay } from '../core/agent-turn.js';
import { followedBy } from './followed-by.js';
import { theirCheckout, workflowGit } from './their-checkout.js';
import {
  briefingSession,
  type AlsoOpen,
  leftBehind,
  leftOpen,
  probablyDoneTasks,
  nextTaskOf,
  cliWord,
  invalidInput,
  notFound,
  buildSnapshot,
  recoveryOptions,
  runnableTasks,
  SessionSnapshot,
  summarizeSnapshot,
  withTasks,
  taskCounts,
  resumability,
  isTerminal,
  isEmptyWorkflow,
  contextUsage,
  workflowUsage,
  listTotals,
  inRequestOrder,
  type ErrorRecord,
  type RecordKind,
  type UserRequest,
  type WorkflowState,
  type WorkflowStatus,
  pauseOverdue,
  pauseWaitsFor,
  limitHolding,
  apiErrorStop,
  turnStoppedBy,
  doneWhileOpen,
  finishedWork,
  workflowBranch,
  heldByErrors,
  type GitCapture,
  sameGit,
  workSpanOf,
  gitDivergence,
  progressLabel,
  progressPercent,
  type NextStep,
  type WorktreeAgreement,
  agentSessionsOf,
  needsYouOfState,
  errorsShown,
  openErrorsOfState,
  type GoneAgentNamed,
  type WatchedWorkflow,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import { findCheckpoint, listCheckpoints } from './checkpoint-lookup.js';
import { importSummaries, importsOf } from './record-lists.js';
import { nextStep } from './next-step.js';
import { pageOf, type DetailsPage, type DetailsPaging } from './details-page.js';
import { queueStandingOf } from './queue-standing.js';
import type { CompiledContext, ContextCompiler } from './context-compiler.js';
import type { GitPort, ServiceOptions } from './ports.js';

export const detailCategories = [
  'decisions',
  'errors',
  'reviewer-feedback',
  'git-changes',
  'test-state',
  'history',
  'requests',
  'summaries',
  'tasks',
] as const;
export type DetailCategory = (typeof detailCategories)[number];

/** Everything of one category as of a snapshot: the records' JSON, the git changes, or the test state and runs. */
export type DetailsResult =
  | unknown[]
  | DetailsPage
  | { git_state: SessionSnapshot['git_state']; note: string | null }
  | { test_state: SessionSnapshot['test_state']; runs: unknown[] };

/** The categories that are lists of records, which `limit` and `before` page; the others are one state each. */
export const pagedCategories = detailCategories.filter((c) => c !== 'git-changes' && c !== 'test-state');

const recordKindOf: Partial<Record<DetailCategory, RecordKind>> = {
  decisions: 'decision',
  errors: 'error',
  'reviewer-feedback': 'feedback',
  history: 'history',
  requests: 'request',
  summaries: 'summary',
};

/**
 * Events after a snapshot that change what a compiled context shows (besides every task.* event). A recovery sets
 * task statuses back (fresh, a checkpoint) and says what it undid: the snapshot before it no longer stands.
 */
const contextEvents = new Set<string>([
  'workflow.recovered',
  'agent_tasks.synced',
  'decision.recorded',
  'error.recorded',
  'error.resolved',
  'request.recorded',
  'feedback.recorded',
  'feedback.addressed',
  'test_run.recorded',
  'summary.recorded',
  'side_effect.recorded',
]);

/** Whether a session later than the latest snapshot's has ended: the snapshot does not say why that one ended. */
function sessionEndedSinceSnapshot(s: WorkflowState): boolean {
  const last = s.sessions.at(-1);
  return !!last?.ended_at && s.last_snapshot !== null && last.number > s.last_snapshot.session_number;
}

/**
 * Whether the stop the latest snapshot recorded is over: a later session ended since (the snapshot does not say why
 * that one ended), the user asked again since (a usage limit lifted, a pause resumed in the same conversation), or
 * the agent's turn ended since (a compaction in the middle of a turn that went on).
 */
function stopOverSinceSnapshot(s: WorkflowState): boolean {
  const snap = s.last_snapshot;
  if (snap === null) return false;
  const after = (at: string | undefined) => at !== undefined && Date.parse(at) > Date.parse(snap.created_at);
  const answer = s.summaries?.last_message;
  return (
    sessionEndedSinceSnapshot(s) ||
    after((s.recent_requests ?? []).at(-1)?.timestamp) ||
    (answer?.turn_ended === true && after(answer.timestamp))
  );
}

/**
 * The id of a context compiled from the workflow as it stood (no stored snapshot): `live-<seq>`, the seq of its last
 * event that was not a context handed over or acknowledged (`content_seq`), so two reads in a row name the same
 * briefing, with the same hash (a read that named a new one would make the hash an agent acknowledges stale at once).
 */
export const liveSnapshotId = (s: Pick<WorkflowState, 'version' | 'content_seq'>) =>
  `live-${s.content_seq ?? s.version}`;
export const isLiveSnapshotId = (id: string) => /^live-\d+$/.test(id);

/** Read-only views over the store: what status, snapshots, details and the sessions table show. */
export class Queries {
  constructor(
    private readonly store: Store,
    private readonly options: ServiceOptions,
    private readonly compiler: ContextCompiler,
    private readonly git?: GitPort,
  ) {}

  private now() {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  /** The workflows (of a worktree: those of whoever works there now, `workflowsHere`), newest first. */
  list(filter: { status?: WorkflowStatus[]; worktree?: string } = {}) {
    const { worktree, ...rest } = filter;
    return worktree !== undefined && this.git
      ? workflowsHere(this.store, this.git, worktree, rest)
      : this.store.listWorkflows(filter);
  }

  /** The workflow's snapshots, each a checkpoint was made of named by that checkpoint. */
  async snapshots(workflowId: string) {
    const rows = await this.store.listRecords(workflowId, 'snapshot');
    const named = new Map(
      (await listCheckpoints(this.store, { id: workflowId })).map((c) => [c.snapshot_id, c.name]),
    );
    return rows.map((r) => {
      const summary = summarizeSnapshot(r.data as SessionSnapshot);
      const checkpoint = named.get(summary.id);
      return checkpoint ? { ...summary, checkpoint } : summary;
    });
  }

  async snapshot(workflowId: string, snapshotId: string): Promise<SessionSnapshot> {
    const live = await this.liveSnapshotById(workflowId, snapshotId);
    if (live) return live;
    const row = await this.store.getRecord(workflowId, 'snapshot', snapshotId);
    if (!row)
      throw notFound(`no snapshot ${snapshotId} in workflow ${workflowId}; ${cliWord('snapshots')}`, {
        snapshot_id: snapshotId,
      });
    return SessionSnapshot.parse(row.data);
  }

  /** A snapshot by id alone (ids are unique across workflows). */
  async findSnapshot(snapshotId: string): Promise<SessionSnapshot> {
    if (isLiveSnapshotId(snapshotId))
      throw invalidInput(
        `${snapshotId} is the workflow as it stood: name the workflow (${cliWord('workflow')}) to read it`,
        { snapshot_id: snapshotId },
      );
    const row = await this.store.findSnapshot(snapshotId);
    if (!row)
      throw notFound(`no snapshot ${snapshotId}; ${cliWord('snapshots')}`, {
        snapshot_id: snapshotId,
      });
    return SessionSnapshot.parse(row.data);
  }

  /**
   * Everything of one category as of a snapshot: the complete lists behind the snapshot's recent ones; with `paging`,
   * the page of a list it asks for (the git changes and the test state are no list to page).
   */
  async details(
    snapshot: SessionSnapshot,
    category: DetailCategory,
    paging?: DetailsPaging,
  ): Promise<DetailsResult> {
    const d = await this.detailsWhole(snapshot, category);
    if (!paging) return d;
    if (!Array.isArray(d))
      throw invalidInput(
        `${category} is not a list of records to page: leave out limit and before (the lists: ${pagedCategories.join(', ')})`,
      );
    return pageOf(d, paging);
  }

  private async detailsWhole(snapshot: SessionSnapshot, category: DetailCategory): Promise<DetailsResult> {
    if (!detailCategories.includes(category)) {
      throw invalidInput(`unknown category ${category}; use one of ${detailCategories.join(', ')}`);
    }
    const kind = recordKindOf[category];
    if (kind) {
      const rows = await this.store.listRecords(snapshot.workflow_id, kind, {
        createdThrough: snapshot.created_at,
      });
      const data = rows.map((r) => r.data);
      // an API failure named for what it is as of the snapshot: the stop of its last turn, or over
      if (kind === 'error')
        return errorsShown(data as ErrorRecord[], {
          summaries: snapshot.summaries,
          asked: snapshot.requests.at(-1),
        });
      // the requests in the order they were asked, as the state keeps them: one a hook missed, read from the
      // transcript later, goes where it was asked
      if (kind !== 'request') return data;
      return (data as UserRequest[]).reduce<UserRequest[]>((l, r) => inRequestOrder(l, r, Infinity), []);
    }
    // the task graph as it stood: each task with its status, what it waits for and the note it was left with
    if (category === 'tasks') return snapshot.tasks;
    if (category === 'git-changes') {
      // a live snapshot is the workflow as it stands: its git state is the worktree's now, while it is open; a
      // finished one's is what it ended at (its last snapshot's): what the worktree gained since is a later one's work
      const s =
        isLiveSnapshotId(snapshot.id) && this.git ? await this.store.loadState(snapshot.workflow_id) : null;
      if (s && isTerminal(s.status) && s.last_snapshot) {
        const last = await this.latestSnapshot(s);
        const ended = `the workflow is ${s.status}: its git state as it ended (snapshot ${last.id}); what the worktree holds since is not its work`;
        return { git_state: last.git_state, note: [last.git_note, ended].filter(Boolean).join('; ') };
      }
      if (s && this.git) {
        const now = await this.git.captureGitState(s.worktree, workSpanOf(s));
        return { git_state: now.state, note: now.note };
      }
      return { git_state: snapshot.git_state, note: snapshot.git_note };
    }
    const runs = await this.store.listRecords(snapshot.workflow_id, 'test_run', {
      createdThrough: snapshot.created_at,
    });
    return { test_state: snapshot.test_state, runs: runs.map((r) => r.data) };
  }

  async status(s: WorkflowState) {
    const snaps = await this.snapshots(s.id);
    const live = await this.store.loadLiveState(s.id);
    // a finished workflow (completed, failed, cancelled) goes on with nothing: no next task, none runnable
    const over = isTerminal(s.status);
    const next = nextTaskOf(s);
    const overdue = pauseOverdue(s, this.now(), this.options.pauseTimeoutMs).overdue;
    const lastAgent = s.sessions.at(-1)?.agent;
    // each API failure among the open errors named for what it is (the importer still reads them all, to resolve)
    const open = openErrorsOfState(s);
    const asked = s.recent_requests?.at(-1);
    const stoppedBy = turnStoppedBy(s.summaries, asked);
    return {
      workflow: {
        id: s.id,
        title: s.title,
        issue: s.issue,
        worktree: s.worktree,
        /** Whose it is on a database a team shares (the git identity it was made under); null: anyone's. */
        owner: s.owner ?? null,
        status: s.status,
        version: s.version,
        pause_requested: s.pause_requested,
        pause_request: s.pause_request,
        pause_overdue: overdue,
        paused_at: s.paused_at,
        pause_reason: s.pause_reason,
        // the latest pause, resume or abandon asked by someone other than its owner: told to the owner
        teammate_act: s.teammate_act ?? null,
        interrupted_at: s.interrupted_at,
        interrupt_reason: s.interrupt_reason,
        session_count: s.session_count,
        created_at: s.created_at,
        updated_at: s.updated_at,
        // the workflow it went on from (its conversation's, or the worktree's last), when it did
        ...(s.earlier ? { earlier: s.earlier } : {}),
      },
      counts: { tasks: taskCounts(s.tasks), ...s.counts, ...listTotals(s), ...open.counts },
      tasks: s.tasks,
      /** A finished workflow's tasks not done: none of them is under way any more (`baton complete --force`). */
      left_open: leftOpen(s).map(({ id, title, status }) => ({ id, title, status })),
      /**
       * Tasks left in progress that the agent's last message says are over, with the line that says it: probably done,
       * as the briefing says them, for the next session to check (none of a finished workflow: those are left open).
       */
      probably_done: over
        ? []
        : probablyDoneTasks({ summaries: s.summaries, asked: s.recent_requests?.at(-1) }, s.tasks),
      /** The agent session each recent Baton session follows, when a hook tied them (a gone agent is named by it). */
      agent_sessions: agentSessionsOf(s),
      /** The open tasks left from an earlier plan, when nothing else is open: to check whether still needed. */
      left_behind: leftBehind(s.tasks).map(({ id, title, status }) => ({ id, title, status })),
      next_task: next ? { id: next.id, title: next.title, status: next.status } : null,
      // tasks left from an earlier plan are to check, not to start
      runnable_tasks:
        over || leftBehind(s.tasks).length
          ? []
          : runnableTasks(s.tasks).map((t) => ({ id: t.id, title: t.title })),
      snapshots: snaps,
      checkpoints: s.checkpoints,
      /** Summed over every session; the context fields are the current session's gauge. */
      usage: workflowUsage(s),
      session_usage: s.usage,
      context: contextUsage(s),
      capacity_policy: s.agent?.capacity ?? null,
      usage_by_session: s.sessions.map((x) => ({ session_number: x.number, usage: x.usage ?? null })),
      driver: await this.driver(s.id),
      /** An in-progress workflow nothing runs now: what goes on with it (`baton run -w ...`, or the workers' queue). */
      next_step: await nextStep(this.store, s, this.options.watch?.ports),
      /** Queued for the workers: a worker runs it, waits for one that can take it, or nothing can (and what would). */
      queue: await queueStandingOf(this.store, s.id, this.options.watch?.ports),
      test_state: s.test_state,
      open_errors: open.open_errors,
      recent_decisions: s.recent_decisions,
      recent_resolved_errors: s.recent_resolved_errors,
      // how far each recent transcript was read; the parsers' carry-over stays out (the importer reads `imports`)
      imports: importSummaries(s.imports),
      side_effects: s.side_effects ?? [],
      summaries: s.summaries ?? { compaction: null, last_message: null },
      live_state: live ? { saved_at: live.saved_at, trigger: live.trigger } : null,
      handoff: s.handoff
        ? {
            ...s.handoff,
            latest_snapshot_id: s.last_snapshot?.id ?? null,
            acknowledged: s.handoff.acknowledged_hash !== null,
            // The running session loaded the latest context: it acknowledged the hash delivered from the newest snapshot.
            loaded_latest:
              s.handoff.acknowledged_hash === s.handoff.context_hash &&
              s.handoff.snapshot_id === s.last_snapshot?.id,
          }
        : null,
      recovered_with_gaps: s.recovered_with_gaps ?? null,
      /** A usage limit that holds (`limitHolding`: its agent has not gone on past it), whose, and when it lifts. */
      usage_limit: limitHolding(s.summaries, s.recent_requests, new Date(this.now())),
      /**
       * The agent's last turn ended on an API error it has not spoken since, newer than any usage limit: what to do, in
       * words (no open error of the work).
       */
      api_error: stoppedBy && stoppedBy !== 'usage_limit' ? apiErrorStop(s.summaries, asked) : null,
      /** When the agent compacted its context, while no reading since has told the compacted context's fill. */
      context_compacted_at:
        s.context_compacted && s.context_compacted.context_tokens === (s.usage.context_tokens ?? null)
          ? s.context_compacted.at
          : null,
      /**
       * Why a new conversation would complete it, were the agent of its last session gone with no SessionEnd (a crash,
       * a closed terminal: `finishedWork`); null when the next session goes on with it.
       */
      work_over: lastAgent
        ? finishedWork(s, this.now(), { [lastAgent.session_id]: 'its process exited' })
        : null,
      /** The agent's turn on the user's last request has not ended, as far as the hooks saw (its agent gone: cut off). */
      turn_under_way: turnUnderWay(s) !== null,
      /**
       * What a pause waits for (the pending request's, else one asked now): null when it takes effect at once, as it
       * does when the agent its hooks follow is gone in the middle of its turn (that turn never ends).
       */
      pause_waits_for: pauseWaitsFor(s, this.options.agentGone?.(s) ?? false),
      // the agent whose hooks follow it (null: none; a resume starts none then), and whether its conversation is open
      ...followedBy(s, this.options),
      /** Why the next new agent conversation here completes it as it stands (its session ended, or idle); null: not. */
      completes_at_next_start: finishedWork(s, this.now()),
      /** What is done when only its open conversation keeps the work from being over (quit or /clear ends it). */
      done_while_open: doneWhileOpen(s, this.now()),
      /**
       * What alone keeps the next new conversation from completing it: its open errors (it would, were they resolved),
       * with how to resolve one that no longer applies; null when none holds it, or something else does too.
       */
      not_over: heldByErrors(s, this.now()),
      warnings: s.recovered_with_gaps
        ? [
            `recovered with gaps: rebuilt from ${s.recovered_with_gaps.source} at seq ${s.recovered_with_gaps.seq}; event(s) ${s.recovered_with_gaps.lost.map((r) => (r.from === r.to ? r.from : `${r.from}..${r.to}`)).join(', ')} are lost`,
            ...s.warnings,
          ]
        : s.warnings,
    };
  }

  /** Who drives the workflow now (its lease), and whether that driver is alive as far as this host can tell. */
  async driver(workflowId: string) {
    const lease = (await this.store.leases?.get(workflowId)) ?? null;
    if (!lease) return null;
    const ports = this.options.watch?.ports;
    const liveness =
      ports?.liveness({ host: lease.host, pid: lease.pid, start: lease.pid_start_time }) ?? 'unknown';
    return {
      command: lease.command,
      kind: lease.kind,
      host: lease.host,
      pid: lease.pid,
      acquired_at: lease.acquired_at,
      heartbeat_at: lease.heartbeat_at,
      expires_at: lease.expires_at,
      expired: lease.expired,
      liveness,
    };
  }

  /**
   * The recovery options, each with the size of the context it would hand over and what that costs; the one
   * recommended depends on whether the worktree is still as the latest snapshot saw it. `next`: what goes on with
   * an in-progress workflow nothing runs now; `asker`: the git identity of the person asking (`theirCheckout`).
   */
  async recoveryOptions(s: WorkflowState, next: NextStep | null = null, asker?: string | null) {
    const live = await this.store.loadLiveState(s.id);
    if (!s.last_snapshot) return recoveryOptions(s, live?.saved_at ?? null, { next });
    const latest = await this.latestSnapshot(s);
    const plan = recoveryOptions(s, live?.saved_at ?? null, {
      next,
      worktree: await this.worktreeAgreement(s, latest, asker),
    });
    const price = this.options.inputPricePerMTok ?? 3;
    const options = [];
    for (const o of plan.options) {
      let tasks = latest.tasks;
      if (o.type === 'fresh') tasks = latest.tasks.map((t) => ({ ...t, status: 'pending' as const }));
      if (o.type === 'checkpoint') {
        const cp = await findCheckpoint(this.store, s, o.target);
        tasks = (await this.snapshot(s.id, cp.snapshot_id)).tasks;
      }
      const compiled = this.compiler.compile(withTasks(latest, tasks), briefingSession(s), { workflow: s });
      options.push({
        ...o,
        context_tokens: compiled.tokens,
        estimated_cost_usd: Number(((compiled.tokens * price) / 1e6).toFixed(6)),
      });
    }
    return { ...plan, options };
  }

  /** Whether the worktree is as the snapshot saw it: a resume from it would warn about nothing in git. */
  private async worktreeAgreement(
    s: WorkflowState,
    snap: SessionSnapshot,
    asker?: string | null,
  ): Promise<WorktreeAgreement> {
    if (!this.git || !snap.git_state) return 'unknown';
    const now = await workflowGit(this.git, s, asker);
    if (!now.state) return 'unknown';
    return gitDivergence(snap.git_state, now).length === 0 ? 'agrees' : 'differs';
  }

  async latestSnapshot(s: WorkflowState): Promise<SessionSnapshot> {
    if (!s.last_snapshot) {
      throw notFound(
        `workflow ${s.id} has no snapshot yet; pause it, complete a task or make a checkpoint first`,
        {
          workflow_id: s.id,
        },
      );
    }
    return this.snapshot(s.id, s.last_snapshot.id);
  }

  /**
   * A snapshot of the workflow as it stands, not stored: `live-<version>` (details can name it), with the git state
   * captured now (null: not captured).
   */
  liveSnapshot(s: WorkflowState, captured: GitCapture | null): SessionSnapshot {
    const git = captured ?? { state: null, note: 'git state not captured' };
    // The snapshot a task's completion takes marks a task boundary, not the end of a session: the live state does
    // not give it as the reason the last session ended (a failed task after it would read "ended because:
    // task_complete"). Nor does a stop that is over (a later session ended, or the user asked again since: a pause
    // lifted or a usage limit reset, then more work, did not end the session).
    const snap = s.last_snapshot;
    const ended = snap?.trigger === 'task_complete' || stopOverSinceSnapshot(s) ? null : snap?.trigger;
    return buildSnapshot(s, {
      id: liveSnapshotId(s),
      trigger: s.pause_trigger ?? ended ?? 'manual',
      reason: s.pause_reason,
      git,
      now: this.now(),
    });
  }

  /** Whether something the context shows was recorded after the latest snapshot (a pause or a delivery is not). */
  private async changedSinceSnapshot(s: WorkflowState): Promise<boolean> {
    if (s.last_snapshot === null) return true;
    if (s.last_snapshot.seq >= s.version) return false;
    const after = await this.store.readEvents(s.id, s.last_snapshot.seq);
    return after.some((e) => e.type.startsWith('task.') || contextEvents.has(e.type));
  }

  /** A live id names the workflow as it stands now (records after it are included; the version says when). */
  private async liveSnapshotById(workflowId: string, snapshotId: string): Promise<SessionSnapshot | null> {
    if (!isLiveSnapshotId(snapshotId)) return null;
    const s = await this.store.loadState(workflowId);
    if (!s) throw notFound(`no workflow ${workflowId}`, { workflow_id: workflowId });
    // a live id newer than the workflow is another workflow's (a finished one shown in a new conversation's briefing)
    const version = Number(snapshotId.slice('live-'.length));
    if (version > s.version)
      throw notFound(
        `${snapshotId} is not of workflow ${workflowId}, which is at version ${s.version}: name the workflow the context came from with ${cliWord('workflow')}`,
        { snapshot_id: snapshotId },
      );
    return this.liveSnapshot(s, null);
  }

  /**
   * The compiled context a new session would get now, without starting one: from the latest snapshot when nothing
   * happened since, else from the workflow as it stands (records imported or recorded after the snapshot count),
   * with the git state captured now. Addressed to the session that goes on with the work (`briefingSession`): the
   * same for every surface that asks, delivered or previewed.
   */
  async context(s: WorkflowState, budget?: number): Promise<CompiledContext> {
    // the latest snapshot stands for the workflow while nothing it shows changed, and no later session ended since
    const stale = (await this.changedSinceSnapshot(s)) || sessionEndedSinceSnapshot(s);
    const latest = stale ? null : await this.latestSnapshot(s);
    // nor while HEAD stayed (a commit since, by hand or by a call whose result a crash lost, is in the done list), for
    // a workflow still open: a finished one's last snapshot is its last word, what came after is another's work
    // read away from its checkout (a teammate's workflow): git here is not its git, so what it recorded stands
    const away = await this.checkoutElsewhere(s);
    const git =
      this.git && !away && !(latest && isTerminal(s.status))
        ? await this.git.captureGitState(s.worktree, workSpanOf(s))
        : null;
    const snap = latest && sameGit(latest, git) ? latest : this.liveSnapshot(s, git);
    return this.compiler.compile(snap, briefingSession(s), {
      workflow: away ? { ...s, checkout_elsewhere: away } : s,
      ...(budget !== undefined ? { budget } : {}),
    });
  }

  /**
   * Where the workflow's checkout is, in words, when this machine does not hold it: its folder is not here, or the
   * clone at its path is another person's (another git identity's). Null when the checkout here is its own.
   */
  private async checkoutElsewhere(s: WorkflowState): Promise<string | null> {
    if (!this.git || !s.worktree) return null;
    if (await this.git.worktreeGone(s.worktree))
      return `in ${s.worktree}${s.owner ? ` (${s.owner}'s)` : ''}, a folder this machine does not have`;
    const theirs = await theirCheckout(this.git, s);
    if (theirs) return `on ${theirs}'s machine`;
    return null;
  }

  /** Every checkpoint of the workflow, oldest first (from the records: the state keeps the recent ones). */
  async checkpoints(s: WorkflowState) {
    return { workflow_id: s.id, checkpoints: await listCheckpoints(this.store, s) };
  }

  /** Every transcript imported and how far it was read, with the parsers' carry-over (record-lists.ts). */
  imports(s: WorkflowState, path?: string, opts: { recent?: boolean } = {}) {
    return importsOf(this.store, s, path, opts);
  }

  /**
   * The Go Team sessions table: every workflow with its step, status and whether it can be resumed, and how: by a
   * resume, or by the next session of the agent whose hooks follow it (`resumability`); and what each waits for its
   * user to look at (`needs_you`), from the same states (`goneAgents`: those the hooks of this machine saw go).
   */
  async sessions(
    agentGone?: (s: WorkflowState) => boolean,
    goneAgents?: (w: WatchedWorkflow) => readonly GoneAgentNamed[],
  ) {
    const all = await this.store.listWorkflows();
    const now = this.now();
    const steps = await Promise.all(all.map((s) => nextStep(this.store, s, this.options.watch?.ports)));
    return all.map((s, i) => {
      const c = taskCounts(s.tasks);
      const gone = agentGone?.(s) ?? false;
      return {
        id: s.id,
        topic: s.title,
        status: s.status,
        step: progressLabel(c, ''),
        progress: progressPercent(c),
        sessions: s.session_count,
        ...resumability(s, now, gone),
        /** What goes on with one Baton's driver runs while nothing runs it (`baton run -w <id>`, a worker's queue). */
        next_step: steps[i] ?? null,
        /** Why the next new agent conversation in its worktree completes it (`finishedWork`, as `status` says); null: not. */
        completes_at_next_start: finishedWork(s, now),
        worktree: s.worktree,
        /** The branch its work was last seen on (null: not known, or a detached HEAD), as `baton list` gives it. */
        branch: workflowBranch(s),
        /** Whose it is on a database a team shares (the git identity it was made under); null: anyone's. */
        owner: s.owner ?? null,
        updated_at: s.updated_at,
        /** Nothing in it: no issue, task, request or record (a conversation opened and left). */
        empty: isEmptyWorkflow(s),
        /** What it waits for its user to look at, in `baton status`'s words; empty when nothing does, or it is over. */
        needs_you: needsYouOfState(s, {
          now,
          pauseTimeoutMs: this.options.pauseTimeoutMs,
          agentGone: gone,
          goneAgents,
        }),
      };
    });
  }
}

/**
 * What `status` shows of a workflow (the route's `WorkflowStatus` schema); `also_open`: the worktree's other incomplete
 * workflows, when a command without an id took this one among them for its conversation being at work last
 * (resolve-workflow.ts), absent otherwise.
 */
export type StatusView = Awaited<ReturnType<Queries['status']>> & { also_open?: AlsoOpen[] };
/** One row of the sessions table. */
export type SessionRow = Awaited<ReturnType<Queries['sessions']>>[number];
