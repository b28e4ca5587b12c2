import { roughTokens } from '../core/rough-tokens.js';
import { EventFeed } from './event-feed.js';
import {
  isResumable,
  isTerminal,
  abandon,
  complete,
  addTask,
  syncAgentTasks,
  acknowledgeContext,
  deliverContext,
  addressFeedback,
  blockTask,
  blockWorkflow,
  checkpoint,
  completeTask,
  createWorkflow,
  failTask,
  interrupt,
  markImported,
  assertImportContinues,
  BatonError,
  notFound,
  summarizeSnapshot,
  type SessionSnapshot,
  pause,
  honourRequestedPause,
  withdrawPause,
  retakePauseSnapshot,
  resolveError,
  skipTask,
  snapshotNow,
  startTask,
  readNewTasks,
  unblockTask,
  unblockWorkflow,
  type AddTaskInput,
  type InterruptTrigger,
  type PauseAfter,
  type AgentRef,
  type AgentTaskCall,
  type AgentTaskSource,
  type Draft,
  type EarlierWorkflow,
  type ErrorRecord,
  type Issue,
  type SnapshotTrigger,
  type TaskSpecInput,
  type WorkflowState,
  pauseOverdue,
  assertRecoverable,
  checkpointDescription,
  recommendedOption,
  invalidTransition,
  nothingRunsIt,
  nextRunWords,
  type NextStep,
  readFromActor,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import { CommandRunner, randomId } from './command-runner.js';
import { ContextCompiler, DEFAULT_CONTEXT_BUDGET } from './context-compiler.js';
import { LiveStates } from './live-states.js';
import { recordOne, type ImportMarker, type RecordInput } from './record-input.js';
import type { GitPort, ServiceOptions } from './ports.js';
import { Queries } from './queries.js';
import { AgentSessions } from './agent-sessions.js';
import { Resumer, type PersonResumeResult, type ResumeResult } from './resumer.js';
import { nextStep } from './next-step.js';
import { followedBy } from './followed-by.js';
import { askerFor, refuseTheirs, theirCheckout, workflowGit, type PersonAsk } from './their-checkout.js';
import { AskedBy } from './asked-by.js';
import { closeEnded, requeuePaused } from './work-submit.js';
import {
  askWhichRun,
  resolveWorkflowAmong,
  type Resolved,
  type ResolveOptions,
  type WorkflowRef,
} from './resolve-workflow.js';
import { branchStanding } from './other-branch.js';
import { teammateWork } from './teammate-work.js';
import { CrashWatch } from './runtime/crash-watch.js';
import { sessionStatus, sessionTimeline } from './session-status.js';
import { findCheckpoint } from './checkpoint-lookup.js';
import { resolvedIds, storedErrors } from './stored-errors.js';
import { olderSession, olderSessions } from './record-lists.js';
import { checkpointChanges, restoreCheckpoint, type RestoreOptions } from './checkpoint-restore.js';
import type { ExecutorRow } from '../storage/executor-registry.js';

export type { ExecutorRow };

/** Thrown inside a decision to step out and force an overdue pause first. */
const overduePause = Symbol('overdue pause');

export interface CreateWorkflowInput {
  title: string;
  tasks: TaskSpecInput[];
  issue?: Issue | null;
  plan?: string;
  cwd?: string;
  /** An explicit worktree path; by default the git worktree of `cwd`. */
  worktree?: string;
  /** Created by an agent's hook (auto_track): session 1 follows this agent session (a null id: none known yet). */
  agent?: AgentRef;
  /** The title is a stand-in until the first request is recorded, which names the workflow (an import's). */
  title_from_request?: boolean;
  /** The completed workflow of the same agent conversation this one goes on from (the hooks', in process). */
  earlier?: EarlierWorkflow;
}

/**
 * The use cases of Baton. Every interface (CLI, server, MCP, hooks) calls this and nothing below it:
 * load with the store, decide with core, append with the store.
 */
export class BatonService {
  readonly runner: CommandRunner;
  readonly queries: Queries;
  readonly live: LiveStates;
  readonly compiler: ContextCompiler;
  /** Agent sessions Baton does not run (hooks): tracking, injection, compactions, checkpoints after real work. */
  readonly agentSessions: AgentSessions;
  /** The event log as live followers read it (the server's tail and WebSocket replays, `/readyz`). */
  readonly events: EventFeed;
  private readonly resumer: Resumer;
  /** Checks a workflow's driver whenever the workflow is read (set by the one recipe the edges build with). */
  readonly watch: CrashWatch | null;
  /**
   * Git as the service reads it: whose a worktree is (`owner`) is the identity of the person a request is for
   * (`askedBy`), else git's answer where this process runs.
   */
  readonly git: GitPort;
  /** Who the work of one request is for, on a server a team shares (AskedBy): `askedBy.run(identity, work)`. */
  readonly askedBy = new AskedBy();

  constructor(
    readonly store: Store,
    git: GitPort,
    readonly options: ServiceOptions,
  ) {
    this.git = this.askedBy.gitPort(git);
    this.runner = new CommandRunner(store, options);
    this.live = new LiveStates(store, options);
    this.compiler = new ContextCompiler(
      // without a tokenizer passed in (the edges always pass one), about four characters a token
      options.countTokens ?? roughTokens,
      options.contextBudget ?? DEFAULT_CONTEXT_BUDGET,
      () => options.now?.() ?? new Date(),
    );
    this.queries = new Queries(store, options, this.compiler, this.git);
    this.resumer = new Resumer(this.runner, this.git, options, this.compiler);
    this.watch = options.watch ? new CrashWatch(this, options.watch) : null;
    this.agentSessions = new AgentSessions(this);
    this.events = new EventFeed(store);
    // Bursts of commits become one live-state save a second later (long-lived processes; see LiveStates).
    this.runner.listeners.add((_events, state) => this.live.debounce(state));
    // The one place a workflow's end reaches its queued row (every command commits through the runner).
    this.runner.listeners.add((_events, state) => closeEnded(store, state));
  }

  /** Closes the service: the live-state saves still waiting are dropped and those under way finish, then the store. */
  async close(): Promise<void> {
    await this.live.stop();
    await this.store.close();
  }

  /**
   * The workflow a reference names, as any command sees it first: a driver that is gone is noticed (crash watch),
   * and a requested pause that is due (past its timeout, or its agent cut off mid-turn) is taken, before the command
   * decides anything.
   */
  async resolve(ref: WorkflowRef, opts: ResolveOptions = {}): Promise<WorkflowState> {
    return (await this.read(ref, true, opts)).state;
  }

  /**
   * `resolve`, with the worktree's other incomplete workflows when the one taken was told apart from them by its
   * conversation being at work last: what reads the workflow for a person (`baton status`) says them beside it.
   */
  resolveAmong(ref: WorkflowRef, opts: ResolveOptions = {}): Promise<Resolved> {
    return this.read(ref, true, opts);
  }

  private async read(ref: WorkflowRef, forceOverdue: boolean, opts: ResolveOptions = {}): Promise<Resolved> {
    const found = await resolveWorkflowAmong(this.store, this.git, ref, opts).catch(async (e: unknown) => {
      // several incomplete workflows here, so the command names none: a driver of one that is gone is noticed all the
      // same (its agent left running is stopped, the user told), and the choice is offered as it stands then
      if (!(e instanceof BatonError && e.code === 'ambiguous') || !this.watch) throw e;
      if ((await this.watch.sweep()).length === 0) throw e;
      return resolveWorkflowAmong(this.store, this.git, ref, opts);
    });
    let s = found.state;
    if (this.watch && (await this.watch.check(s))) s = await this.runner.load(s.id);
    if (forceOverdue && s.pause_requested && (await this.settlePendingPause(s)))
      s = await this.runner.load(s.id);
    return { state: s, also_open: found.also_open };
  }

  /** The workflows, as `baton list` shows them: every driver found gone is noticed first (one read of the leases). */
  async list(filter: Parameters<Queries['list']>[0] = {}): Promise<WorkflowState[]> {
    await this.watch?.sweep();
    return this.queries.list(filter);
  }

  /**
   * The sessions table (`baton sessions`, the dashboard), after the same check as `list`; `goneAgents` names the agents
   * the hooks of the caller's machine saw go, for each row's `needs_you`.
   */
  async sessions(o: { goneAgents?: Parameters<Queries['sessions']>[1] } = {}) {
    await this.watch?.sweep();
    return this.queries.sessions(this.options.agentGone, o.goneAgents);
  }

  /** Every executor row (`executors_running`): where each session's agent runs and in what state; none without a registry. */
  async executors(): Promise<ExecutorRow[]> {
    return (await this.store.executors?.list()) ?? [];
  }

  private async id(ref: WorkflowRef): Promise<string> {
    return ref.workflowId && !this.watch ? ref.workflowId : (await this.resolve(ref)).id;
  }

  /**
   * The git state a command records of the workflow (a snapshot's, a checkpoint's commit): its worktree's, or none for
   * a teammate's (`workflowGit`): whose it is told by the person a server is asked by (`askedBy`), else by the
   * identity of the clone at its path here. A pause or a checkpoint made from another person's clone does not record
   * that clone's branch, commit and files as the workflow's. The agents' hooks read it the same way (AgentSessions).
   */
  async gitOf(state: WorkflowState) {
    return workflowGit(this.git, state, this.askedBy.identity());
  }

  async create(input: CreateWorkflowInput): Promise<WorkflowState> {
    const tasks = readNewTasks(input.tasks);
    const worktree = input.worktree ?? (await this.git.resolveWorktree(input.cwd ?? process.cwd()));
    // an import's workflow (its title from the request, no agent session) is made after the session worked: what is
    // changed now is that session's work, not the user's from before it
    const afterTheWork = input.title_from_request === true && !input.agent;
    const [git_start, owner] = await Promise.all([
      this.git.gitStart(worktree, { dirty: !afterTheWork }),
      this.git.owner(worktree),
    ]);
    const id = (this.options.newId ?? randomId)('wf');
    const { state } = await this.runner.create(id, (d) =>
      createWorkflow(d, {
        title: input.title,
        issue: input.issue ?? null,
        worktree,
        plan: input.plan ?? '',
        tasks,
        git_start,
        owner,
        ...(input.agent ? { agent: input.agent } : {}),
        ...(input.title_from_request ? { titleFromRequest: true } : {}),
        ...(input.earlier ? { earlier: input.earlier } : {}),
      }),
    );
    return state;
  }

  /**
   * Runs a command on the referenced workflow (the live state is saved in the same commit). `actor`: who acts in
   * this one, when not whoever runs it (records read from an agent's words).
   */
  private async act<T>(
    ref: WorkflowRef,
    decide: (d: Draft) => T,
    retry = false,
    actor?: string,
  ): Promise<{ result: T; state: WorkflowState }> {
    const id = await this.id(ref);
    for (;;) {
      try {
        const out = await this.runner.run(
          id,
          (d) => {
            if (this.overdue(d.state)) throw overduePause;
            return decide(d);
          },
          { retry, ...(actor ? { actor } : {}) },
        );
        return { result: out.result, state: out.state };
      } catch (e) {
        if (e !== overduePause) throw e;
        // A requested pause outlived its timeout: it takes effect (its own commit), then the command is decided again.
        await this.enforcePauseTimeout(await this.runner.load(id));
      }
    }
  }

  /** The service's clock (the options' in tests). */
  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  private overdue(s: WorkflowState): boolean {
    if (!s.pause_requested) return false;
    return pauseOverdue(s, this.now(), this.options.pauseTimeoutMs).overdue;
  }

  /**
   * The agent its hooks follow is gone (its process exited with no SessionEnd: `ServiceOptions.agentGone`): what the
   * session status, the status and the pause are told of its liveness, which the core cannot read.
   */
  private hookedAgentGone(s: WorkflowState): boolean {
    return this.options.agentGone?.(s) ?? false;
  }

  /**
   * A requested pause that is due with no command to take it: past its timeout (forced, with a warning), or waiting
   * on an agent since cut off in the middle of its turn, which will never end it (`honourRequestedPause`, told so).
   * Whether it took effect.
   */
  private async settlePendingPause(s: WorkflowState): Promise<boolean> {
    if (!s.pause_requested) return false;
    if (this.overdue(s)) {
      await this.enforcePauseTimeout(s);
      return true;
    }
    if (s.status !== 'in_progress' || !this.hookedAgentGone(s)) return false;
    const git = await this.gitOf(s);
    // asked again of the state the decision sees: a new conversation may have taken the workflow up meanwhile
    const out = await this.runner.run(s.id, (d) =>
      honourRequestedPause(d, git, this.hookedAgentGone(d.state)),
    );
    return out.result?.outcome === 'paused';
  }

  /** A requested pause that waited longer than the pause timeout for its task boundary is forced, with a warning. */
  private async enforcePauseTimeout(s: WorkflowState): Promise<void> {
    if (!s.pause_requested || !this.overdue(s)) return;
    const git = await this.gitOf(s);
    const timeoutMs = this.options.pauseTimeoutMs;
    await this.runner.run(s.id, (d) =>
      pause(d, { reason: null, trigger: 'pause', force: false, timeoutMs, git }),
    );
  }

  /**
   * A requested pause that outlived its timeout takes effect now (the user's next prompt then resumes it, rather than
   * its own commit forcing the pause after the prompt was read); the state after, the same object when none did.
   */
  async settleOverduePause(s: WorkflowState): Promise<WorkflowState> {
    if (!s.pause_requested || !this.overdue(s)) return s;
    await this.enforcePauseTimeout(s);
    return this.runner.load(s.id);
  }

  /**
   * Takes every requested pause that is due (`settlePendingPause`: past its timeout, or its agent cut off mid-turn);
   * long-lived processes call this on a timer, so a pause takes effect with no command to notice it. Returns the
   * workflows paused.
   */
  async settlePendingPauses(): Promise<string[]> {
    const waiting = (await this.store.listWorkflows({ status: ['in_progress', 'blocked'] })).filter(
      (s) => s.pause_requested,
    );
    const paused: string[] = [];
    for (const s of waiting) if (await this.settlePendingPause(s)) paused.push(s.id);
    return paused;
  }

  /**
   * The workflow's event history, oldest first from `after` (a seq), `limit` at a time; a snapshot event carries
   * its summary rather than the whole snapshot.
   */
  async history(ref: WorkflowRef, after = 0, limit = 200) {
    const s = await this.resolve(ref);
    const events = await this.store.readEvents(s.id, after, Math.max(1, Math.min(limit, 1000)));
    return {
      workflow_id: s.id,
      version: s.version,
      events: events.map((e) =>
        e.type === 'snapshot.taken'
          ? { ...e, data: { snapshot: summarizeSnapshot(e.data.snapshot as SessionSnapshot) } }
          : e,
      ),
    };
  }

  /**
   * Where a workflow stands against the branch its worktree has checked out: left for the branch its work is on
   * (`away`: that branch still exists and the one checked out does not hold the work), which an agent session started
   * in the worktree now would not go on with (other-branch.ts: it starts a new workflow), or not (null); and other
   * people's unfinished workflows at its folder's path or on that branch (`teammates`: theirs, never its own).
   */
  async standing(ref: WorkflowRef) {
    const s = await this.resolve(ref);
    const open = s.worktree !== null && !isTerminal(s.status);
    const away = open
      ? ((await branchStanding(this.store, this.git, s.worktree as string, [s])).away[0] ?? null)
      : null;
    // other people's unfinished work at its folder's path or on its branch: theirs, said beside it
    const now = this.options.now?.() ?? new Date();
    const teammates = s.worktree
      ? await teammateWork(this.store, this.git, s.worktree, s.owner ?? null, now)
      : [];
    return { workflow_id: s.id, away, teammates };
  }

  /** The run folder's task logs of a workflow (each agent run of each task), oldest first. */
  async taskLogs(ref: WorkflowRef) {
    const s = await this.resolve(ref);
    return { workflow_id: s.id, logs: (await this.options.logs?.list(s)) ?? [] };
  }

  /** A slice of one task log from a byte offset: follow a running task by asking again from `next_offset`. */
  async taskLog(ref: WorkflowRef, name: string, offset = 0, limit = 256 * 1024) {
    const s = await this.resolve(ref);
    if (!this.options.logs) throw notFound(`no task logs are kept for workflow ${s.id}`);
    return { workflow_id: s.id, ...(await this.options.logs.read(s, name, offset, limit)) };
  }

  /** The session status (default: the latest session); a local agent verifiably gone is not running. */
  async sessionStatus(ref: WorkflowRef, sessionNumber?: number) {
    const s = await this.resolve(ref);
    const n = sessionNumber ?? s.session_count;
    const older = s.sessions.some((x) => x.number === n) ? null : await olderSession(this.store, s, n);
    const { rows, rowGone, next, hookedGone } = await this.liveness(s);
    return sessionStatus(s, this.now(), sessionNumber, rows, rowGone, older, next, hookedGone);
  }

  /** Every session, oldest first: the state's recent ones and the older ones from their records. */
  async sessionTimeline(ref: WorkflowRef) {
    const s = await this.resolve(ref);
    const older = s.session_count > s.sessions.length ? await olderSessions(this.store, s) : [];
    const { rows, rowGone, next, hookedGone } = await this.liveness(s);
    return {
      workflow_id: s.id,
      sessions: sessionTimeline(s, this.now(), rows, rowGone, older, next, hookedGone),
    };
  }

  /**
   * What the session status judges whether a session's agent runs from, gathered in one place so that the session
   * status and the timeline agree: the executor rows Baton's own agents run in (and which of them are gone), what
   * goes on with a workflow no driver holds, and whether the agent its hooks follow is gone.
   */
  private async liveness(s: WorkflowState) {
    return {
      rows: (await this.store.executors?.list({ workflowId: s.id })) ?? [],
      rowGone: (r: ExecutorRow) => this.agentGone(r),
      next: await nextStep(this.store, s, this.options.watch?.ports),
      hookedGone: this.hookedAgentGone(s),
    };
  }

  /** A local agent's process is verifiably gone (pid plus start time, on the host of the driver that ran it). */
  private agentGone(row: ExecutorRow): boolean {
    const ports = this.options.watch?.ports;
    if (!ports || row.runtime !== 'local' || !row.pid) return false;
    const host = row.owner?.split(':')[0] ?? ports.hostname;
    return ports.liveness({ host, pid: row.pid, start: row.pid_start_time }) === 'dead';
  }

  async startTask(ref: WorkflowRef, taskId: string) {
    return this.act(ref, (d) => startTask(d, taskId));
  }

  /** `pauseAfter`: pause at this task's boundary, with the completion's one snapshot (`baton run --max-tasks`). */
  async completeTask(
    ref: WorkflowRef,
    taskId: string,
    summary: string | null = null,
    pauseAfter: PauseAfter | null = null,
  ) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => completeTask(d, taskId, summary, git, pauseAfter));
  }

  async failTask(ref: WorkflowRef, taskId: string, reason: string | null = null) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => failTask(d, taskId, reason, git));
  }

  async blockTask(ref: WorkflowRef, taskId: string, reason: string | null = null) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => blockTask(d, taskId, reason, git));
  }

  async unblockTask(ref: WorkflowRef, taskId: string) {
    return this.act(ref, (d) => unblockTask(d, taskId));
  }

  async skipTask(ref: WorkflowRef, taskId: string, reason: string | null = null) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => skipTask(d, taskId, reason, git));
  }

  /** Adds a task to the plan (`baton task add`, REST, the MCP tool `add_task`). */
  async addTask(ref: WorkflowRef, input: AddTaskInput) {
    return this.act(ref, (d) => addTask(d, input));
  }

  /**
   * Follows the agent's own task list (TodoWrite, task tools, update_plan) in the task graph; a requested pause takes
   * effect at the task boundary the list reaches. `read`: the calls were read from the agent's transcript (an
   * import), so the agent acts in the log (readFromActor), as in the records the import reads beside them.
   */
  async syncAgentTasks(
    ref: WorkflowRef,
    source: AgentTaskSource,
    calls: readonly AgentTaskCall[],
    tells = false,
    read = false,
  ) {
    const state = (await this.read(ref, false)).state;
    const git = state.pause_requested ? await this.gitOf(state) : null;
    const actor = read ? (readFromActor({ writer: source }) ?? undefined) : undefined;
    return this.act(ref, (d) => syncAgentTasks(d, source, calls, git, tells), true, actor);
  }

  /** Appends one record (decision, error, history entry, test run, usage reading, reviewer feedback). */
  async record(ref: WorkflowRef, input: RecordInput) {
    const stored = await this.storedErrors(ref, resolvedIds([input]));
    return this.act(ref, (d) => recordOne(d, input, this.options.capacity, stored), true);
  }

  /** The records of the errors a resolution names that the state no longer holds (see stored-errors.ts). */
  private async storedErrors(ref: WorkflowRef, ids: readonly string[]) {
    return ids.length ? storedErrors(this.store, await this.resolve(ref), ids) : new Map<string, never>();
  }

  /**
   * Appends several records in one commit (one transaction, one fsync): imports and bulk writers. What was read from
   * an agent's words is the agent's in the event log (readFromActor), whoever reads it: the agent whose format the
   * imported transcript is in, or `writer`, the agent of a run whose output this is.
   */
  async recordBatch(
    ref: WorkflowRef,
    inputs: readonly RecordInput[],
    imported?: ImportMarker,
    writer?: string,
  ) {
    const stored = await this.storedErrors(ref, resolvedIds(inputs));
    const actor = readFromActor({ format: imported?.format, writer }) ?? undefined;
    return this.act(
      ref,
      (d) => {
        if (imported) assertImportContinues(d.state, imported);
        // An imported transcript's usage readings are that transcript's totals so far.
        const source = imported ? `transcript:${imported.transcript_session_id}` : undefined;
        const out = inputs.map((i) =>
          recordOne(
            d,
            i.kind === 'usage' && source && !i.source ? { ...i, source } : i,
            this.options.capacity,
            stored,
          ),
        );
        if (imported) {
          const { from_line: _from, ...mark } = imported;
          markImported(d, { ...mark, records: inputs.length });
        }
        return out;
      },
      true,
      actor,
    );
  }

  async resolveError(
    ref: WorkflowRef,
    errorId: string,
    resolution: ErrorRecord['resolution'],
    notes: string | null,
  ) {
    const stored = (await this.storedErrors(ref, [errorId])).get(errorId) ?? null;
    return this.act(ref, (d) => resolveError(d, errorId, resolution, notes, stored), true);
  }

  async addressFeedback(ref: WorkflowRef, reviewId: string) {
    return this.act(ref, (d) => addressFeedback(d, reviewId), true);
  }

  /** Pause at the next task boundary (or now with force); idempotent. A requested pause past its timeout pauses now. */
  async pause(
    ref: WorkflowRef,
    input: {
      reason?: string | null;
      force?: boolean;
      trigger?: SnapshotTrigger;
      timeoutMs?: number;
      /** `agent`: the agent asks it itself (`request_pause`), not its user. */
      askedBy?: 'agent';
    } & Partial<PersonAsk> = {},
  ) {
    // The pause command forces an overdue request itself (with the request's reason and its warning).
    const state = (await this.read(ref, false)).state;
    // a person's pause (the CLI, the API, the dashboard: `asker` given) of a teammate's workflow needs `theirs`
    if (input.asker !== undefined)
      await refuseTheirs(this.git, state, 'pause', { ...input, asker: input.asker });
    const git = await this.gitOf(state);
    const by = await askerFor(this.git, state, input.asker);
    // a pause that lost a race (to a worker recording its work, or another pause) is decided again on the new state:
    // the pause still stands, or it reports the pause already made
    const out = await this.runner.run(
      state.id,
      (d) =>
        pause(d, {
          reason: input.reason ?? null,
          trigger: input.trigger ?? 'pause',
          force: input.force ?? false,
          timeoutMs: input.timeoutMs ?? this.options.pauseTimeoutMs,
          git,
          agentGone: this.hookedAgentGone(d.state),
          ...(by ? { by } : {}),
          ...(input.askedBy ? { askedBy: input.askedBy } : {}),
        }),
      { retry: true },
    );
    return { result: out.result, state: out.state };
  }

  /**
   * A paused workflow's latest snapshot taken again with what was recorded since (`retakePauseSnapshot`): by
   * `baton run` once the agent a forced pause stopped has been read to its end. Null when it is not paused.
   */
  async retakePauseSnapshot(ref: WorkflowRef): Promise<SessionSnapshot | null> {
    const s = await this.resolve(ref);
    if (s.status !== 'paused' || !s.last_snapshot) return null;
    const taken = await this.queries.latestSnapshot(s);
    const git = await this.gitOf(s);
    return (await this.act(ref, (d) => retakePauseSnapshot(d, taken, git), true)).result;
  }

  /**
   * A new session. `requeue`, for a person's resume (the CLI, the API, the dashboard; not a hook's nor a driver's, which
   * drive the work themselves): work a worker ran before a person paused it is queued again for the workers. A
   * driver found gone is noticed first (the workflow is then interrupted, and resumed); an in-progress workflow that
   * nothing runs is refused with what goes on with it. `next_step`: what runs the resumed workflow, when nothing
   * does by itself (`baton run -w ...` for one `baton run` drives).
   */
  async resume(
    ref: WorkflowRef,
    opts: { requeue?: boolean; asker?: string | null } = {},
  ): Promise<ResumeResult> {
    const s = await this.resolve(ref, askWhichRun);
    const next = await nextStep(this.store, s, this.options.watch?.ports);
    if (next)
      throw invalidTransition(`cannot resume: the workflow is ${s.status}, but ${nothingRunsIt(next)}`, {
        current_status: s.status,
        command: next.command,
      });
    const r = await this.resumer.resume({ workflowId: s.id }, opts.asker);
    const requeued = opts.requeue ? await requeuePaused(this, r.workflow_id) : null;
    return {
      ...r,
      ...(requeued ? { requeued: true } : {}),
      next_step: await this.nextStepOf(r.workflow_id),
      next_run: requeued ? null : nextRunWords(await this.runner.load(r.workflow_id)),
    };
  }

  /**
   * A person's resume (the CLI, the API and the dashboard, the MCP tool): a pause requested and still waiting is
   * withdrawn, and the workflow goes on; otherwise `resume`, with the work a worker ran queued again, and the agent
   * whose hooks follow it (`followedBy`). A pause past its timeout has taken effect first (as for any command): that
   * one is resumed. `asker`: the git identity of the person asking (`theirCheckout`).
   */
  async resumeOrWithdraw(
    ref: WorkflowRef,
    asker?: string | null,
    theirs = false,
  ): Promise<PersonResumeResult> {
    const s = await this.resolve(ref, askWhichRun);
    // a person's resume of a teammate's workflow needs `theirs` (`refuseTheirs`); asked by no one known, it is the
    // clone at the workflow's path that tells. One that cannot be resumed anyway is refused by `resume`, saying what
    // goes on with it instead.
    if (s.pause_requested || isResumable(s.status))
      await refuseTheirs(this.git, s, 'resume', { asker: asker ?? null, theirs });
    const id = { workflowId: s.id };
    if (s.pause_requested) {
      // the person's, recorded as a resume is (`by`): the owner is told a teammate let their workflow go on
      const by = await askerFor(this.git, s, asker);
      const { result, state } = await this.act(id, (d) => withdrawPause(d, by), true);
      if (result) {
        const { reason, requested_at } = result;
        return {
          outcome: 'pause_withdrawn',
          workflow_id: state.id,
          status: state.status,
          pause_request: { reason, requested_at },
        };
      }
    }
    const r = await this.resume(id, { requeue: true, asker });
    return { outcome: 'resumed', ...r, ...followedBy(await this.runner.load(r.workflow_id), this.options) };
  }

  /**
   * Recovery, then a new session (a person's: work a worker ran before it was paused is queued again, as after a
   * resume); `next_step` and the agent whose hooks follow it (`followedBy`) as for a resume: how it goes on is said
   * the same way. `asker`: the git identity of the person asking (`theirCheckout`); a person's recovery of a
   * teammate's workflow needs `theirs`, as a resume does (`refuseTheirs`): a recovery is a resume, and `fresh` sets
   * every task back to pending.
   */
  async recover(
    ref: WorkflowRef,
    option: 'checkpoint' | 'live_state' | 'fresh',
    checkpointName: string | null,
    asker?: string | null,
    theirs = false,
  ): Promise<ResumeResult> {
    const s = await this.resolve(ref, askWhichRun);
    assertRecoverable(s, await nextStep(this.store, s, this.options.watch?.ports));
    if (asker !== undefined) {
      const named = option === 'checkpoint' ? ` --checkpoint ${checkpointName ?? '<name>'} --state-only` : '';
      await refuseTheirs(this.git, s, 'recover', { asker, theirs }, named || ` --option ${option}`);
    }
    const r = await this.resumer.recover({ workflowId: s.id }, option, checkpointName, asker);
    const requeued = await requeuePaused(this, r.workflow_id);
    const state = await this.runner.load(r.workflow_id);
    return {
      ...r,
      ...(requeued ? { requeued: true } : {}),
      next_step: await this.nextStepOf(r.workflow_id),
      // a worker queued again goes on with it, not a `baton run`
      next_run: requeued ? null : nextRunWords(state),
      ...followedBy(state, this.options),
    };
  }

  /** What goes on with the workflow when nothing runs it now; null when something does (see next-step.ts). */
  private async nextStepOf(id: string): Promise<NextStep | null> {
    return nextStep(this.store, await this.runner.load(id), this.options.watch?.ports);
  }

  /** Back to a checkpoint: workflow state and worktree (see checkpoint-restore.ts); moving the branch needs `confirm`. */
  restoreCheckpoint(ref: WorkflowRef, name: string | null, opts: RestoreOptions = {}) {
    return restoreCheckpoint(this, ref, name, opts);
  }

  /**
   * The recovery options, each priced and with what choosing it would change: the task statuses, and for a
   * checkpoint the commits that would leave the branch (kept on a backup ref) and the files that would change. `asker`:
   * the git identity of the person asking, whose a teammate's is told by (`theirCheckout`).
   */
  async recoveryOptions(ref: WorkflowRef, asker?: string | null) {
    return this.recoveryPlan(await this.resolve(ref), asker);
  }

  /** The recovery options of `s` as `recoveryOptions` gives them, for a state already read (the run folder's mirror). */
  async recoveryPlan(s: WorkflowState, asker?: string | null) {
    const plan = await this.queries.recoveryOptions(
      s,
      await nextStep(this.store, s, this.options.watch?.ports),
      asker,
    );
    const options = [];
    let recommended = plan.recommended;
    for (const o of plan.options) {
      if (o.type === 'checkpoint') {
        const cp = await findCheckpoint(this.store, s, o.target);
        // a teammate's: planned from no clone here (the one at their path is not theirs), where it is done said instead
        const theirs = await theirCheckout(this.git, s, asker);
        const changes = await checkpointChanges(this, s, cp, theirs).catch((e: Error) => ({
          tasks: [],
          git: null,
          note: `cannot plan the git restore: ${e.message}`,
        }));
        recommended = recommendedOption(recommended, changes.git);
        options.push({ ...o, description: checkpointDescription(o, changes.git), changes });
      } else if (o.type === 'fresh') {
        const tasks = s.tasks
          .filter((t) => t.status !== 'pending')
          .map((t) => ({ task_id: t.id, from: t.status, to: 'pending' }));
        options.push({
          ...o,
          changes: { tasks, git: null, note: 'the worktree and its branch are left as they are' },
        });
      } else
        options.push({
          ...o,
          changes: { tasks: [], git: null, note: 'the worktree and its branch are left as they are' },
        });
    }
    return { ...plan, options, recommended };
  }

  async checkpoint(ref: WorkflowRef, name: string) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => checkpoint(d, name, git));
  }

  async snapshot(ref: WorkflowRef, trigger: SnapshotTrigger, reason: string | null) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => snapshotNow(d, trigger, reason, git));
  }

  /** `trigger`: `stopped` when the driver was stopped by a signal (a person's stop), else a `crash`. */
  async interrupt(ref: WorkflowRef, reason: string, trigger: InterruptTrigger = 'crash') {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => interrupt(d, reason, git, undefined, trigger));
  }

  async abandon(ref: WorkflowRef, reason: string | null = null, ask?: PersonAsk) {
    // a person's abandon (`ask` given) of a teammate's workflow needs `theirs` (`refuseTheirs`)
    const s = ask ? await this.resolve(ref) : null;
    if (s && ask) await refuseTheirs(this.git, s, 'abandon', ask);
    const by = s ? await askerFor(this.git, s, ask?.asker) : undefined;
    return this.act(ref, (d) => abandon(d, reason, by));
  }

  async complete(ref: WorkflowRef, input: { reason?: string | null; force?: boolean } = {}) {
    return this.act(ref, (d) => complete(d, input.reason ?? null, input.force === true));
  }

  /** The agent confirms the context it loaded (MCP `ack_context`, a hook's injection, `baton ack`). */
  async acknowledgeContext(ref: WorkflowRef, hash: string, via: 'hook' | 'mcp' | 'cli' | 'runner') {
    return this.act(ref, (d) => acknowledgeContext(d, hash, via), true);
  }

  /**
   * Hands the current context to a session without resuming (a hook after compaction, an MCP call): the briefing
   * `baton context` and the dashboard show for the same state (`briefingSession`), so its hash is theirs.
   */
  async deliverContext(ref: WorkflowRef, via: 'hook' | 'mcp' | 'cli' | 'runner', budget?: number) {
    const state = await this.resolve(ref);
    const compiled = await this.queries.context(state, budget);
    await this.act(
      ref,
      (d) =>
        deliverContext(d, {
          snapshot_id: compiled.snapshot_id,
          context_hash: compiled.hash,
          tokens: compiled.tokens,
          via,
        }),
      true,
    );
    return compiled;
  }

  async blockWorkflow(ref: WorkflowRef, reason: string | null = null) {
    return this.act(ref, (d) => blockWorkflow(d, reason));
  }

  async unblockWorkflow(ref: WorkflowRef) {
    return this.act(ref, (d) => unblockWorkflow(d));
  }
}
