import { findCheckpoint } from './checkpoint-lookup.js';
import {
  buildResumeReport,
  buildSnapshot,
  deliverContext,
  nextStep,
  notFound,
  recover,
  resume,
  SessionSnapshot,
  type Draft,
  type GitCapture,
  type RecoveryChoice,
  type ResumeReport,
  type NextStep,
  type WorkCommits,
  type WorkflowState,
} from '../core/index.js';
import type { CommandRunner } from './command-runner.js';
import type { CompiledContext, ContextCompiler } from './context-compiler.js';
import type { GitPort, ServiceOptions } from './ports.js';
import { resolveWorkflow, type WorkflowRef } from './resolve-workflow.js';
import { askerFor, workflowGit } from './their-checkout.js';

export interface ResumeResult {
  workflow_id: string;
  status: WorkflowState['status'];
  session_number: number;
  snapshot_id: string;
  warnings: string[];
  next_task: { id: string; title: string } | null;
  context: string;
  context_json: CompiledContext['json'];
  context_hash: string;
  context_tokens: number;
  /** The Resume Protocol's report: run, phase, mode, tasks per lane, last activity, next action. */
  report: ResumeReport;
  /** The workflow was queued again: a worker ran it before it was paused, and goes on with it. */
  requeued?: boolean;
  /** What runs the resumed workflow when nothing does by itself (`baton run -w ...`); null when something does. */
  next_step?: NextStep | null;
  /**
   * What the next `baton run` does with it, in one line (`nextRunWords`): a fresh agent session with the briefing, not
   * the agent's own conversation; null when a worker goes on with it instead.
   */
  next_run?: string | null;
  /**
   * The agent whose hooks follow the resumed workflow (`followingAgent`), null when none: its next prompt (or session)
   * goes on with the session the resume started, which no agent runs yet.
   */
  following_agent?: string | null;
  /** Whether that agent's conversation is still open (`ServiceOptions.conversationOpen`); null: not known. */
  conversation_open?: boolean | null;
}

/**
 * A person's resume (the CLI, the API and the dashboard, the MCP tool): the session it started, or, for a workflow still
 * in progress with a pause requested, the request it withdrew (the workflow goes on).
 */
export type PersonResumeResult =
  | (ResumeResult & { outcome: 'resumed' })
  | {
      outcome: 'pause_withdrawn';
      workflow_id: string;
      status: WorkflowState['status'];
      /** The request withdrawn: its reason and when it was made. */
      pause_request: { reason: string | null; requested_at: string };
    };

/** The latest stored snapshot, or one built now from the state when none was ever taken. */
export async function latestSnapshot(
  runner: CommandRunner,
  s: WorkflowState,
  git: GitCapture,
): Promise<SessionSnapshot> {
  if (s.last_snapshot) {
    const row = await runner.store.getRecord(s.id, 'snapshot', s.last_snapshot.id);
    if (row) return SessionSnapshot.parse(row.data);
  }
  return buildSnapshot(s, {
    id: `${s.id}-live`,
    trigger: s.pause_trigger ?? 'pause',
    reason: s.pause_reason,
    git,
    now: runner.context().now,
  });
}

/** The commits HEAD's history gained since the snapshot, read from git only when HEAD moved (a resume lists them). */
async function commitsSinceSnapshot(
  git: GitPort,
  worktree: string,
  snap: SessionSnapshot,
  now: GitCapture,
): Promise<WorkCommits | null> {
  const was = snap.git_state?.commit_at_snapshot;
  const is = now.state?.commit_at_snapshot;
  if (!was || !is || was === is) return null;
  return git.commitsSince(worktree, { commit: was, at: snap.created_at });
}

/** Resume and recover: start the next session and hand it the compiled context. */
export class Resumer {
  constructor(
    private readonly runner: CommandRunner,
    private readonly git: GitPort,
    private readonly options: ServiceOptions,
    private readonly compiler: ContextCompiler,
  ) {}

  private result(
    s: WorkflowState,
    snap: SessionSnapshot,
    r: { session_number: number; warnings: string[]; compiled: CompiledContext },
  ): ResumeResult {
    const next = s.tasks.find((t) => t.id === snap.next_task_id) ?? null;
    return {
      workflow_id: s.id,
      status: s.status,
      session_number: r.session_number,
      snapshot_id: snap.id,
      warnings: r.warnings,
      next_task: next ? { id: next.id, title: next.title } : null,
      context: r.compiled.markdown,
      context_json: r.compiled.json,
      context_hash: r.compiled.hash,
      context_tokens: r.compiled.tokens,
      report: buildResumeReport(s, {
        before: snap.tasks,
        warnings: r.warnings,
        briefing: nextStep(r.compiled.json),
      }),
    };
  }

  /** Compiles the context for the session a command just started and records its delivery in the same commit. */
  private deliver(d: Draft, snap: SessionSnapshot, r: { session_number: number; warnings: string[] }) {
    const compiled = this.compiler.compile(snap, r.session_number, {
      workflow: d.state,
      warnings: r.warnings,
    });
    deliverContext(d, {
      snapshot_id: snap.id,
      context_hash: compiled.hash,
      tokens: compiled.tokens,
      via: 'resume',
    });
    return { ...r, compiled };
  }

  /** `asker`: the git identity of the person asking, whose a teammate's is told by (`theirCheckout`). */
  async resume(ref: WorkflowRef, asker?: string | null): Promise<ResumeResult> {
    const base = await resolveWorkflow(this.runner.store, this.git, ref);
    // a teammate's worktree is not read from another person's clone: its warnings say so instead
    const git = await workflowGit(this.git, base, asker);
    const by = await askerFor(this.git, base, asker);
    const snapshot = await latestSnapshot(this.runner, base, git);
    const commitsSince = await commitsSinceSnapshot(this.git, base.worktree, snapshot, git);
    const { result, state } = await this.runner.run(base.id, (d) =>
      this.deliver(
        d,
        snapshot,
        resume(d, {
          snapshot,
          git,
          staleAfterMs: this.options.staleAfterMs,
          commitsSinceSnapshot: commitsSince,
          // the person who asked (a CLI's, the API's), recorded on the event: a teammate's resume is told the owner
          ...(by ? { by } : {}),
        }),
      ),
    );
    return this.result(state, snapshot, result);
  }

  async recover(
    ref: WorkflowRef,
    option: RecoveryChoice,
    checkpointName: string | null,
    asker?: string | null,
  ): Promise<ResumeResult> {
    const base = await resolveWorkflow(this.runner.store, this.git, ref);
    // a teammate's worktree is not read from another person's clone: its warnings say so instead
    const git = await workflowGit(this.git, base, asker);
    const by = await askerFor(this.git, base, asker);
    const snapshot = await latestSnapshot(this.runner, base, git);
    let checkpointSnapshot: SessionSnapshot | null = null;
    let name = checkpointName;
    if (option === 'checkpoint') {
      const cp = await findCheckpoint(this.runner.store, base, checkpointName);
      name = cp.name;
      const row = await this.runner.store.getRecord(base.id, 'snapshot', cp.snapshot_id);
      if (!row)
        throw notFound(
          `the snapshot ${cp.snapshot_id} of checkpoint ${cp.name} is missing; run \`baton rebuild\``,
        );
      checkpointSnapshot = SessionSnapshot.parse(row.data);
    }
    // what changed in git is measured from the state returned to: the checkpoint's snapshot, else the latest one (a
    // restore that put the worktree back at the checkpoint has nothing to warn of)
    const from = checkpointSnapshot ?? snapshot;
    const commitsSince = await commitsSinceSnapshot(this.git, base.worktree, from, git);
    const { result, state } = await this.runner.run(base.id, (d) => {
      const r = recover(d, option, {
        snapshot: from,
        git,
        staleAfterMs: this.options.staleAfterMs,
        commitsSinceSnapshot: commitsSince,
        checkpoint: name,
        checkpointSnapshot,
        // the person who asked, recorded on its resume as a resume's: a teammate's recovery is told the owner
        ...(by ? { by } : {}),
      });
      // The context describes the restored state: the latest snapshot's view with the recovered task statuses.
      const restored = buildSnapshot(d.state, {
        id: snapshot.id,
        trigger: snapshot.trigger,
        reason: snapshot.pause_reason,
        git,
        now: d.ctx.now,
      });
      return { ...this.deliver(d, restored, r), restored };
    });
    return this.result(state, result.restored, result);
  }
}
