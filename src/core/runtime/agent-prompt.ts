import { clip } from '../clip.js';
import { ownExitCode } from './run-driven.js';
import { apiErrorStop, apiFailureError, transientApiError } from '../turn-stop.js';
import type { Decision, ErrorRecord } from '../schemas/records.js';
import type { CutShort, SideEffect } from '../schemas/runtime.js';
import type { WorkflowState } from '../schemas/state.js';
import type { Task } from '../schemas/workflow.js';

/** One step of the structured history handed to a fallback driver session (tool calls and results kept). */
export interface HistoryStep {
  kind: 'tool_call' | 'tool_result' | 'message' | 'error';
  text: string;
}

export interface PromptInput {
  workflowTitle: string;
  plan: string;
  /** A task that failed before carries its status and the cause (`note`): the retry is told. */
  task: Pick<Task, 'id' | 'title' | 'description'> & Partial<Pick<Task, 'status' | 'note' | 'failures'>>;
  /** The compiled resume context (markdown), on a resumed workflow or a fallback session. */
  resumeContext: string | null;
  /** The ledger: effects already done, which the agent must not redo. */
  sideEffects: readonly SideEffect[];
  /** Commits git has that no agent's output reported (unreported-commits.ts), listed with the ledger. */
  unreported?: readonly { hash: string; subject: string }[];
  /** Structured history of the interrupted driver session (fallback only), already trimmed to the budget. */
  history: readonly HistoryStep[];
  /** Continuing the same driver session (`--resume`): the conversation already has the plan and context. */
  continuing: boolean;
  /**
   * The parts of the resume context a task needs when no compiled context is handed over (the first session):
   * the decisions already made, the errors still open, what is done.
   */
  known?: KnownState | null;
  /** How the agent reaches Baton: the workflow and the command that runs the CLI (`baton`, or a path). */
  baton?: { workflowId: string; command: string; taskId: string } | null;
  /** The agent's own session going on after its run was cut off (`cutOffOf`): why, and where. */
  cutOff?: CutOff | null;
}

/** Why and where an agent's run was cut off, for its own session going on from there. */
export interface CutOff {
  /** Why the run ended before its task did, with what that asks of the agent, in sentences. */
  why: string;
  /** Its last words with the calls that never returned (`cutOffWords`); null when its turn ended on them. */
  words: string | null;
}

const KILLED = 'Your last run stopped before it finished (it was killed, or the machine stopped).';
const MID_TURN =
  'Your last run was cut off in the middle of its turn, before it finished (killed, or it crashed). Go on from where it stopped.';
const TURN_LIMIT =
  'Your last run stopped at its turn limit before its task was done. Go on from where you stopped.';
const CHECK_CALLS =
  'Its last words, and any call that never returned: check whether such a call ran (`git status`, `git log`, the remote) before you do it again.';

/**
 * Why and where the agent's run was cut off, for its own session going on from it: stopped as hung (`hung`: what
 * Baton saw, said when it stopped it, and when that run began), its last turn ended on its API failing (overloaded, a
 * server error: no fault of the task, the request to retry), or else killed or the machine stopped, with its last
 * words when its turn did not end on them (`cutOffWords`). Null when nothing says it was cut off.
 */
export function cutOffOf(
  s: WorkflowState,
  hung: { what: string; since: string } | null = null,
): CutOff | null {
  if (hung) {
    // Baton stopped it in the middle of its turn: what it said last in that run is where it was, even words that read
    // as a turn's end (a stream cut before its result); words from before that run are not
    const last = s.summaries?.last_message;
    const said = last && Date.parse(last.timestamp) >= Date.parse(hung.since) ? clip(last.text, 1200) : null;
    return {
      why: `Your last run hung: ${hung.what}. A call it was inside may hang again (waiting for input, a server or a watcher that never exits): find out why before you run it again as it was.`,
      words: said,
    };
  }
  const words = cutOffWords(s);
  const error = s.summaries?.api_error;
  const api =
    error && transientApiError(error.text)
      ? apiErrorStop(s.summaries, (s.recent_requests ?? []).at(-1))
      : null;
  if (api) return { why: `${api[0]?.toUpperCase()}${api.slice(1)}. That was no fault of the task.`, words };
  return words ? { why: KILLED, words } : null;
}

/**
 * Why the agent's own session goes on after its last run ended short of its task (`cutShortSession`): cut off in the
 * middle of its turn, with its last words and the calls that never returned; or stopped at its turn limit, whose
 * conversation already ends where it stopped.
 */
export function cutShortOf(s: WorkflowState, how: CutShort): CutOff {
  if (how === 'turn_limit') return { why: TURN_LIMIT, words: null };
  // it ended itself on an error (its code says so): not a kill from outside, nor a machine that stopped
  const code = ownExitCode(s);
  const why =
    code === null
      ? MID_TURN
      : `Your last run exited with code ${code} in the middle of its turn, before it finished (an error it did not report). Go on from where it stopped.`;
  return { why, words: cutOffWords(s) };
}

/**
 * Where an agent's run was cut off (its driver killed, the machine stopped), for the session that goes on from it:
 * the last message its turn did not end on, with the calls that never returned; null when its last message ended
 * its turn (nothing was under way).
 */
export function cutOffWords(s: WorkflowState): string | null {
  const last = s.summaries?.last_message;
  return last && last.turn_ended === false ? clip(last.text, 1200) : null;
}

export interface KnownState {
  decisions: Pick<Decision, 'decision_type' | 'description' | 'rationale'>[];
  open_errors: Pick<ErrorRecord, 'id' | 'error_type' | 'error_message'>[];
  done: Pick<Task, 'id' | 'title'>[];
}

/** What a prompt carries of the workflow's own records (the recent ones the folded state keeps). */
export const knownState = (s: WorkflowState): KnownState => ({
  decisions: s.recent_decisions.map((d) => ({
    decision_type: d.decision_type,
    description: d.description,
    rationale: d.rationale,
  })),
  // the agent's API failing is no fault of the work: the prompt says to retry it (`cutOffOf`), not to fix it
  open_errors: s.open_errors
    .filter((e) => !apiFailureError(e))
    .slice(-10)
    .map((e) => ({
      id: e.id,
      error_type: e.error_type,
      error_message: clip(e.error_message, 300),
    })),
  done: s.tasks
    .filter((t) => t.status === 'done' || t.status === 'skipped')
    .map((t) => ({ id: t.id, title: t.title })),
});

/** How to use Baton from inside the task: its MCP tools, or the same through the `baton` CLI. */
export function batonHowTo(b: { workflowId: string; command: string; taskId: string }): string[] {
  const cmd = `${b.command} -w ${b.workflowId}`;
  return [
    '## Recording with Baton',
    '',
    `Baton keeps this workflow (${b.workflowId}) alive across sessions: what you record is handed to the next`,
    'session if this one ends. Record as you go, from this worktree:',
    `- a decision and why: \`${cmd} record decision --type approach --description "..." --rationale "..." --task ${b.taskId}\``,
    `  (types: approach, library, architecture, workaround, skip, clarification)`,
    `- an error you hit: \`${cmd} record error --type <kind> --message "..." --task ${b.taskId}\`; once fixed:`,
    `  \`${cmd} record resolve <error id> --resolution fixed\``,
    `- what the workflow holds: \`${cmd} status\`, \`${cmd} context\``,
    'With the `baton` MCP server configured, the tools record_decision, record_error and get_resume_context do the',
    'same. Do not start, finish or pause tasks yourself: Baton moves them when you stop.',
  ];
}

/** The prompt a driver session gets for one task. */
export function buildAgentPrompt(p: PromptInput): string {
  const out: string[] = [];
  if (!p.continuing) {
    out.push(`# Workflow: ${p.workflowTitle}`);
    if (p.plan.trim()) out.push('', '## Plan', '', p.plan.trim());
    if (p.resumeContext) out.push('', '## Resume context', '', p.resumeContext.trim());
    else if (p.known) {
      const k = p.known;
      if (k.done.length) out.push('', '## Done already', '', ...k.done.map((t) => `- ${t.id}: ${t.title}`));
      if (k.decisions.length)
        out.push(
          '',
          '## Decisions made (keep to them)',
          '',
          ...k.decisions.map(
            (d) => `- [${d.decision_type}] ${d.description}${d.rationale ? ` (because ${d.rationale})` : ''}`,
          ),
        );
      if (k.open_errors.length)
        out.push(
          '',
          '## Open errors',
          '',
          ...k.open_errors.map((e) => `- ${e.id} ${e.error_type}: ${e.error_message}`),
        );
    }
  }
  // A resume context carries the ledger itself ("Already Done (do not redo)"); without one the prompt lists it.
  const contextHasLedger = !p.continuing && !!p.resumeContext?.includes('### Already Done (do not redo)');
  const unreported = contextHasLedger ? [] : (p.unreported ?? []);
  if ((p.sideEffects.length || unreported.length) && !contextHasLedger) {
    out.push('', '## Already done, do not redo', '');
    for (const e of p.sideEffects)
      out.push(`- [${e.kind}]${e.task_id ? ` (${e.task_id})` : ''} ${e.summary}`);
    // work an agent did where Baton could not see it (its host lost, its output never read): git is the witness
    for (const c of unreported)
      out.push(
        `- [commit] ${c.hash} ${c.subject} (on the branch, though no agent's output reported it: see what it holds before you redo any of it)`,
      );
  }
  if (p.cutOff) {
    const { why, words } = p.cutOff;
    out.push('', '## Where your last run was cut off', '', words ? `${why} ${CHECK_CALLS}` : why);
    if (words) out.push('', words.trim());
  }
  if (p.history.length) {
    out.push('', '## The interrupted session so far (structured; tool calls and results)', '');
    for (const h of p.history) out.push(`- ${h.kind}: ${h.text}`);
  }
  out.push('', `## Task ${p.task.id}: ${p.task.title}`);
  if (p.task.description.trim()) out.push('', p.task.description.trim());
  if (p.task.status === 'failed' && p.task.note) {
    const cause = clip(p.task.note.replace(/\s+/g, ' ').trim(), 500);
    const n = p.task.failures ?? 1;
    out.push(
      '',
      n > 1
        ? `Earlier attempts at this task failed ${n} times in a row; the last one: ${cause}`
        : `An earlier attempt at this task failed: ${cause}`,
      'It may have left changes behind: check `git status` and `git log` before you start again.',
    );
  }
  if (p.baton && !p.continuing) out.push('', ...batonHowTo(p.baton));
  out.push('', 'Do this task only, then stop. Say what you did in your final message.');
  return out.join('\n');
}

/** Keeps the newest steps that fit `budget` tokens (counted by `count`), in order; older ones are dropped first. */
export function trimHistory(
  steps: readonly HistoryStep[],
  budget: number,
  count: (text: string) => number,
): HistoryStep[] {
  const kept: HistoryStep[] = [];
  let used = 0;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (!s) continue;
    const n = count(s.text) + 4;
    if (used + n > budget) break;
    used += n;
    kept.unshift(s);
  }
  return kept;
}
