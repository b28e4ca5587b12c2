import {
  abandon,
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
  invalidInput,
  pause,
  resolveError,
  skipTask,
  snapshotNow,
  startTask,
  TaskSpec,
  unblockTask,
  unblockWorkflow,
  type AddTaskInput,
  type AgentSessionRef,
  type AgentTaskCall,
  type AgentTaskSource,
  type Draft,
  type ErrorRecord,
  type Issue,
  type SnapshotTrigger,
  type TaskSpecInput,
  type WorkflowState,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import { CommandRunner, randomId } from './command-runner.js';
import { ContextCompiler, DEFAULT_CONTEXT_BUDGET } from './context-compiler.js';
import { LiveStates } from './live-states.js';
import { recordOne, type ImportMarker, type RecordInput } from './record-input.js';
import type { GitPort, ServiceOptions } from './ports.js';
import { Queries } from './queries.js';
import { AgentSessions } from './agent-sessions.js';
import { Resumer } from './resumer.js';
import { resolveWorkflow, type WorkflowRef } from './resolve-workflow.js';

/** Thrown inside a decision to step out and force an overdue pause first. */
const overduePause = Symbol('overdue pause');

/** Without a tokenizer passed in (the edges always pass one), about four characters a token. */
const roughTokens = (text: string) => Math.ceil(text.length / 4);

export interface CreateWorkflowInput {
  title: string;
  tasks: TaskSpecInput[];
  issue?: Issue | null;
  plan?: string;
  cwd?: string;
  /** An explicit worktree path; by default the git worktree of `cwd`. */
  worktree?: string;
  /** Created by an agent's hook (auto_track): session 1 follows this agent session. */
  agent?: AgentSessionRef;
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
  private readonly resumer: Resumer;

  constructor(
    readonly store: Store,
    readonly git: GitPort,
    readonly options: ServiceOptions,
  ) {
    this.runner = new CommandRunner(store, options);
    this.live = new LiveStates(store, options);
    this.compiler = new ContextCompiler(
      options.countTokens ?? roughTokens,
      options.contextBudget ?? DEFAULT_CONTEXT_BUDGET,
    );
    this.queries = new Queries(store, options, this.compiler, git);
    this.resumer = new Resumer(this.runner, git, options, this.compiler);
    this.agentSessions = new AgentSessions(this);
    // Bursts of commits become one live-state save a second later (long-lived processes; see LiveStates).
    this.runner.listeners.add((_events, state) => this.live.debounce(state));
  }

  resolve(ref: WorkflowRef): Promise<WorkflowState> {
    return resolveWorkflow(this.store, this.git, ref);
  }

  private async id(ref: WorkflowRef): Promise<string> {
    return ref.workflowId ?? (await this.resolve(ref)).id;
  }

  private async gitOf(state: WorkflowState) {
    return this.git.captureGitState(state.worktree, state.git_start?.commit ?? null);
  }

  async create(input: CreateWorkflowInput): Promise<WorkflowState> {
    const tasks = input.tasks.map((t, i) => {
      const parsed = TaskSpec.safeParse(t);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalidInput(
          `task ${i + 1} (${t.id ?? '?'}): ${issue?.path.join('.') || 'task'}: ${issue?.message}`,
        );
      }
      return parsed.data;
    });
    const worktree = input.worktree ?? (await this.git.resolveWorktree(input.cwd ?? process.cwd()));
    const git_start = await this.git.gitStart(worktree);
    const id = (this.options.newId ?? randomId)('wf');
    const { state } = await this.runner.create(id, (d) =>
      createWorkflow(d, {
        title: input.title,
        issue: input.issue ?? null,
        worktree,
        plan: input.plan ?? '',
        tasks,
        git_start,
        ...(input.agent ? { agent: input.agent } : {}),
      }),
    );
    return state;
  }

  /** Runs a command on the referenced workflow (the live state is saved in the same commit). */
  private async act<T>(
    ref: WorkflowRef,
    decide: (d: Draft) => T,
    retry = false,
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
          { retry },
        );
        return { result: out.result, state: out.state };
      } catch (e) {
        if (e !== overduePause) throw e;
        // A requested pause outlived its timeout: it takes effect (its own commit), then the command is decided again.
        await this.enforcePauseTimeout(await this.runner.load(id));
      }
    }
  }

  private overdue(s: WorkflowState): boolean {
    if (!s.pause_requested) return false;
    const now = (this.options.now?.() ?? new Date()).getTime();
    return (
      s.pause_request !== null &&
      now - Date.parse(s.pause_request.requested_at) >= this.options.pauseTimeoutMs
    );
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

  /** Forces every overdue pause (long-lived processes call this on a timer); returns the workflows paused. */
  async enforcePauseTimeouts(): Promise<string[]> {
    const waiting = (await this.store.listWorkflows({ status: ['in_progress', 'blocked'] })).filter(
      (s) => s.pause_requested && this.overdue(s),
    );
    for (const s of waiting) await this.enforcePauseTimeout(s);
    return waiting.map((s) => s.id);
  }

  async startTask(ref: WorkflowRef, taskId: string) {
    return this.act(ref, (d) => startTask(d, taskId));
  }

  async completeTask(ref: WorkflowRef, taskId: string, summary: string | null = null) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => completeTask(d, taskId, summary, git));
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

  /** Follows the agent's own task list (TodoWrite, task tools, update_plan) in the task graph. */
  async syncAgentTasks(ref: WorkflowRef, source: AgentTaskSource, calls: readonly AgentTaskCall[]) {
    return this.act(ref, (d) => syncAgentTasks(d, source, calls), true);
  }

  /** Appends one record (decision, error, history entry, test run, usage reading, reviewer feedback). */
  async record(ref: WorkflowRef, input: RecordInput) {
    return this.act(ref, (d) => recordOne(d, input), true);
  }

  /** Appends several records in one commit (one transaction, one fsync): imports and bulk writers. */
  async recordBatch(ref: WorkflowRef, inputs: readonly RecordInput[], imported?: ImportMarker) {
    return this.act(
      ref,
      (d) => {
        const out = inputs.map((i) => recordOne(d, i));
        if (imported) markImported(d, { ...imported, records: inputs.length });
        return out;
      },
      true,
    );
  }

  async resolveError(
    ref: WorkflowRef,
    errorId: string,
    resolution: ErrorRecord['resolution'],
    notes: string | null,
  ) {
    return this.act(ref, (d) => resolveError(d, errorId, resolution, notes), true);
  }

  async addressFeedback(ref: WorkflowRef, reviewId: string) {
    return this.act(ref, (d) => addressFeedback(d, reviewId), true);
  }

  /** Pause at the next task boundary (or now with force); idempotent. A requested pause past its timeout pauses now. */
  async pause(
    ref: WorkflowRef,
    input: { reason?: string | null; force?: boolean; trigger?: SnapshotTrigger } = {},
  ) {
    const state = await this.resolve(ref);
    const git = await this.gitOf(state);
    const out = await this.runner.run(state.id, (d) =>
      pause(d, {
        reason: input.reason ?? null,
        trigger: input.trigger ?? 'pause',
        force: input.force ?? false,
        timeoutMs: this.options.pauseTimeoutMs,
        git,
      }),
    );
    return { result: out.result, state: out.state };
  }

  resume(ref: WorkflowRef) {
    return this.resumer.resume(ref);
  }

  recover(ref: WorkflowRef, option: 'checkpoint' | 'live_state' | 'fresh', checkpointName: string | null) {
    return this.resumer.recover(ref, option, checkpointName);
  }

  async checkpoint(ref: WorkflowRef, name: string) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => checkpoint(d, name, git));
  }

  async snapshot(ref: WorkflowRef, trigger: SnapshotTrigger, reason: string | null) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => snapshotNow(d, trigger, reason, git));
  }

  async interrupt(ref: WorkflowRef, reason: string) {
    const git = await this.gitOf(await this.resolve(ref));
    return this.act(ref, (d) => interrupt(d, reason, git));
  }

  async abandon(ref: WorkflowRef, reason: string | null = null) {
    return this.act(ref, (d) => abandon(d, reason));
  }

  /** The agent confirms the context it loaded (MCP `ack_context`, a hook's injection, `baton ack`). */
  async acknowledgeContext(ref: WorkflowRef, hash: string, via: 'hook' | 'mcp' | 'cli' | 'runner') {
    return this.act(ref, (d) => acknowledgeContext(d, hash, via), true);
  }

  /** Hands the current context to a running session without resuming (a hook after compaction, an MCP call). */
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
