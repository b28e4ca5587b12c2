import type { BatonEvent } from '../schemas/events.js';
import { emptyUsage } from '../schemas/records.js';
import type { ImportMark, RecordedIn, WorkflowState } from '../schemas/state.js';
import type { SessionInfo, Task } from '../schemas/workflow.js';
import { AgentTaskSource } from '../schemas/agent-tasks.js';
import { evolveRuntime } from '../runtime-fold.js';
import { foldUsage } from './usage.js';
import { beforeCompaction } from '../compaction.js';
import { snapshotPlace } from '../branch-change.js';
import { asksForNoWork, issueFromRequest, requestTitle } from '../requests/request-text.js';
import { inRequestOrder, listTotals, recent, recentImports, recentOpen } from './bounds.js';
import { standingAfter } from './standing-requests.js';
import { nextTeammateAct } from '../teammate-act.js';

/**
 * How many request keys the state remembers: the same words within the last 500 requests (a hook saw the prompt,
 * then a transcript import sees it again) are recorded once; the same words long after are a new request.
 */
export const REQUEST_KEYS_KEPT = 500;

/** How many applied task-tool call ids an agent's list remembers (a hook and a later import see the same calls). */
export const AGENT_CALLS_KEPT = 500;

const setTask = (s: WorkflowState, id: string | null, patch: Partial<Task>): WorkflowState => ({
  ...s,
  tasks: s.tasks.map((t) => (t.id === id ? { ...t, ...patch } : t)),
});

/** A task done or skipped: its failures before are no longer failures in a row. */
const succeeded = (s: WorkflowState, id: string | null): WorkflowState =>
  s.tasks.some((t) => t.id === id && t.failures)
    ? { ...s, tasks: s.tasks.map((t) => (t.id === id ? withoutFailures(t) : t)) }
    : s;
const withoutFailures = ({ failures: _, ...t }: Task): Task => t;

/** A task left out of an agent's list that a list holds again. */
const takenUp = ({ left_out: _, ...t }: Task): Task => t;

/** A task started, done or skipped is no longer left out: a list leaving it out no longer says anything of it. */
const settled = (s: WorkflowState, id: string | null): WorkflowState =>
  s.tasks.some((t) => t.id === id && t.left_out)
    ? { ...s, tasks: s.tasks.map((t) => (t.id === id ? takenUp(t) : t)) }
    : s;

/** The state without `pause_asked_by` (left out, not undefined: a state folded again compares equal). */
const notAgentPaused = ({ pause_asked_by: _, ...s }: WorkflowState): WorkflowState => s;

const leavePause = (s: WorkflowState): WorkflowState => ({
  ...notAgentPaused(s),
  pause_requested: false,
  pause_request: null,
  paused_at: null,
  pause_reason: null,
  pause_trigger: null,
  interrupted_at: null,
  interrupt_reason: null,
  interruption: null,
});

/** No compaction under way any more: its note came, or another agent session began. */
const noCompacting = ({ handed_since_compacting: _, ...s }: WorkflowState): WorkflowState => s;
/** A compaction at `at`: the context fill known now is the one it made stale. */
const compactedAt = (s: WorkflowState, at: string) => ({
  at,
  context_tokens: s.usage.context_tokens ?? null,
});

/**
 * A new session's agent starts a list of its own: the lists kept are emptied, so what its first list leaves out of
 * an earlier session's (work it was never given as its own) is not taken as removed; their tasks stay as they are, and
 * an item of the new list takes the task of its words. The calls applied and their time are kept: an earlier
 * session's call read late is still applied once, and an older whole list is not applied over the newer one.
 */
const newAgentLists = (lists: WorkflowState['agent_tasks']): WorkflowState['agent_tasks'] =>
  lists &&
  Object.fromEntries(Object.entries(lists).map(([source, list]) => [source, { ...list, items: [] }]));

export const currentSession = (s: WorkflowState): SessionInfo | undefined =>
  s.sessions[s.sessions.length - 1];

function updateSession(s: WorkflowState, patch: Partial<SessionInfo>): WorkflowState {
  const cur = currentSession(s);
  if (!cur) return s;
  return { ...s, sessions: [...s.sessions.slice(0, -1), { ...cur, ...patch }] };
}

export const findError = (s: WorkflowState, id: string) =>
  s.open_errors.find((x) => x.id === id) ?? s.recent_resolved_errors.find((x) => x.id === id);

/**
 * The mark a `transcript.imported` event (recorded at `at`) leaves: in the state's recent imports and as the
 * transcript's record.
 */
export const importMark = (
  d: {
    format: string;
    path: string | null;
    through_line: number;
    through_byte?: number | undefined;
    parser_state?: unknown;
    recorded_in?: RecordedIn | undefined;
  },
  at: string,
): ImportMark => ({
  format: d.format,
  path: d.path,
  through_line: d.through_line,
  ...(d.through_byte !== undefined ? { through_byte: d.through_byte } : {}),
  ...(d.parser_state !== undefined ? { parser_state: d.parser_state } : {}),
  ...(d.recorded_in ? { recorded_in: d.recorded_in } : {}),
  read_at: at,
});

/** The next state after one event; total over every event type, pure and deterministic. */
/**
 * The state after `baton recover` went back to a checkpoint (`name`; null: another way back, which undoes no work):
 * the commits recorded after it are off the branch (its restore kept them on a backup ref), so they leave the ledger
 * of what is done, and the agent's summaries said after it are marked undone (`undone_by`): what they tell of is not
 * there any more. A push or a pull request stays: a restore does not take back what others saw.
 */
function backToCheckpoint(s: WorkflowState, name: string | null): WorkflowState {
  const cp = name ? s.checkpoints.find((c) => c.name === name) : undefined;
  if (!cp) return s;
  const after = (at: string) => Date.parse(at) > Date.parse(cp.created_at);
  const undo = <T extends { timestamp: string } | null | undefined>(x: T): T =>
    x && after(x.timestamp) ? { ...x, undone_by: cp.name } : x;
  const summaries = s.summaries;
  return {
    ...s,
    ...(s.side_effects
      ? { side_effects: s.side_effects.filter((x) => !(x.kind === 'commit' && after(x.timestamp))) }
      : {}),
    ...(summaries
      ? {
          summaries: {
            ...summaries,
            compaction: undo(summaries.compaction),
            last_message: undo(summaries.last_message),
          },
        }
      : {}),
  };
}

export function evolve(s: WorkflowState, e: BatonEvent): WorkflowState {
  switch (e.type) {
    case 'workflow.created':
      return s;
    case 'workflow.started':
      return { ...s, status: 'in_progress', started_at: s.started_at ?? e.at };
    case 'workflow.pause_requested':
      return {
        ...s,
        pause_requested: true,
        pause_request: {
          requested_at: e.at,
          reason: e.data.reason,
          trigger: e.data.trigger,
          ...(e.data.timeout_ms ? { timeout_ms: e.data.timeout_ms } : {}),
          ...(e.data.until ? { until: e.data.until } : {}),
          ...(e.data.by ? { by: e.data.by } : {}),
          ...(e.data.by_owner === undefined ? {} : { by_owner: e.data.by_owner }),
          ...(e.data.asked_by ? { asked_by: e.data.asked_by } : {}),
        },
        teammate_act: nextTeammateAct(s, 'asked to pause', e.data, e.at, e.data.reason),
      };
    case 'workflow.pause_deferred':
      return s.pause_request ? { ...s, pause_request: { ...s.pause_request, until: e.data.until } } : s;
    case 'workflow.pause_withdrawn':
      return {
        ...s,
        pause_requested: false,
        pause_request: null,
        teammate_act: nextTeammateAct(s, 'resumed (its pause withdrawn)', e.data, e.at, null),
      };
    case 'workflow.paused':
      return {
        ...notAgentPaused(s),
        ...(e.data.asked_by ? { pause_asked_by: e.data.asked_by } : {}),
        status: 'paused',
        pause_requested: false,
        pause_request: null,
        paused_at: e.at,
        pause_reason: e.data.reason,
        pause_trigger: e.data.trigger,
        teammate_act: nextTeammateAct(s, 'paused', e.data, e.at, e.data.reason),
        warnings: e.data.warning ? recent(s.warnings, e.data.warning, 10) : s.warnings,
      };
    case 'workflow.resumed':
      return {
        ...leavePause(s),
        status: 'in_progress',
        teammate_act: nextTeammateAct(s, 'resumed', e.data, e.at, null),
        // what stood while paused (a pause forced mid-task) stays in the pause snapshot the session resumes from;
        // the workflow now shows what the resume found
        warnings: e.data.warnings.slice(-10),
      };
    case 'workflow.interrupted':
      return {
        ...s,
        status: 'interrupted',
        pause_requested: false,
        pause_request: null,
        interrupted_at: e.at,
        interrupt_reason: e.data.reason,
        interruption: e.data.recovery ?? null,
      };
    case 'workflow.blocked':
      return { ...s, status: 'blocked' };
    case 'workflow.unblocked':
      return { ...s, status: 'in_progress' };
    case 'workflow.completed':
      return { ...leavePause(s), status: 'completed', ended_at: e.at };
    case 'workflow.failed':
      return { ...leavePause(s), status: 'failed', ended_at: e.at };
    case 'workflow.cancelled':
      return {
        ...leavePause(s),
        status: 'cancelled',
        ended_at: e.at,
        teammate_act: nextTeammateAct(s, 'abandoned', e.data, e.at, e.data.reason),
      };
    case 'workflow.recovered':
      return backToCheckpoint(
        {
          ...s,
          tasks: s.tasks.map((t) => {
            const status = e.data.task_statuses[t.id] ?? t.status;
            return status === t.status
              ? t
              : { ...t, status, ended_at: status === 'pending' ? null : t.ended_at };
          }),
        },
        e.data.option === 'checkpoint' ? e.data.checkpoint : null,
      );
    case 'workflow.moved':
      return { ...s, worktree: e.data.to };
    case 'workflow.restored':
      return {
        ...e.data.state,
        recovered_with_gaps: {
          source: e.data.source,
          lost: [...(e.data.state.recovered_with_gaps?.lost ?? []), ...e.data.lost],
          seq: e.seq,
          restored_at: e.at,
        },
      };
    case 'session.started':
      return {
        ...noCompacting(s),
        session_count: e.session_number ?? s.session_count + 1,
        sessions: recent(s.sessions, {
          number: e.session_number ?? s.session_count + 1,
          started_at: e.at,
          ended_at: null,
          origin: e.data.origin,
          end_reason: null,
          snapshot_id: null,
          tasks_done: 0,
          ...(e.data.agent ? { agent: e.data.agent } : {}),
        }),
        usage: emptyUsage(),
        ...(s.agent_tasks ? { agent_tasks: newAgentLists(s.agent_tasks) } : {}),
      };
    case 'session.linked':
      return updateSession(s, { agent: e.data.agent });
    case 'context.compacted':
      return {
        ...noCompacting(s),
        reinject: e.data.injected !== true,
        context_compacted: compactedAt(s, e.at),
      };
    case 'session.ended':
      return updateSession(s, { ended_at: e.at, end_reason: e.data.reason, snapshot_id: e.data.snapshot_id });
    case 'turn.ended':
      return {
        ...s,
        turn_ended: {
          at: e.at,
          session_number: e.session_number,
          requests: listTotals(s).requests,
          seq: e.seq,
          ...(e.data.git ? { git: e.data.git } : {}),
        },
      };
    case 'task.added': {
      // made by an agent's list: that session's plan (a task the user added never is one)
      const planned =
        AgentTaskSource.safeParse(e.data.origin).success && e.session_number !== null
          ? { planned_in: e.session_number }
          : {};
      const task: Task = {
        ...e.data.task,
        status: 'pending',
        started_at: null,
        ended_at: null,
        session_number: null,
        note: null,
        added_at: e.data.at ?? e.at,
        ...planned,
      };
      const at = e.data.after === null ? -1 : s.tasks.findIndex((t) => t.id === e.data.after);
      const tasks =
        at < 0 ? [...s.tasks, task] : [...s.tasks.slice(0, at + 1), task, ...s.tasks.slice(at + 1)];
      return { ...s, tasks };
    }
    case 'agent_tasks.synced': {
      const before = s.agent_tasks?.[e.data.source];
      const syncedAt = e.data.synced_at ?? before?.synced_at;
      const list = {
        items: e.data.items,
        applied_calls: [...(before?.applied_calls ?? []), ...e.data.applied_calls].slice(-AGENT_CALLS_KEPT),
        ...(syncedAt ? { synced_at: syncedAt } : {}),
      };
      // a task a list holds again was taken up: no longer left out
      const held = new Set(e.data.items.map((it) => it.task_id));
      const tasks = s.tasks.some((t) => t.left_out && held.has(t.id))
        ? s.tasks.map((t) => (t.left_out && held.has(t.id) ? takenUp(t) : t))
        : s.tasks;
      return { ...s, tasks, agent_tasks: { ...s.agent_tasks, [e.data.source]: list } };
    }
    case 'task.left_out': {
      const was = s.tasks.find((t) => t.id === e.task_id)?.left_out?.told ?? [];
      return setTask(s, e.task_id, {
        left_out: { by: e.data.by, told: [...new Set([...was, ...e.data.told])], session: e.session_number },
      });
    }
    case 'task.retitled':
      return setTask(s, e.task_id, { title: e.data.title });
    case 'task.deps_added': {
      const deps = s.tasks.find((t) => t.id === e.task_id)?.deps ?? [];
      return setTask(s, e.task_id, { deps: [...new Set([...deps, ...e.data.deps])] });
    }
    case 'task.started':
      // a note of how it ended before (skipped, removed from the agent's list, failed) is stale once it runs again;
      // a task someone starts is work again, whatever list left it out
      return setTask(settled(s, e.task_id), e.task_id, {
        note: null,
        status: 'in_progress',
        started_at: e.data.at ?? e.at,
        ended_at: null,
        session_number: e.session_number,
      });
    case 'task.completed': {
      const next = setTask(succeeded(settled(s, e.task_id), e.task_id), e.task_id, {
        status: 'done',
        ended_at: e.data.at ?? e.at,
        note: e.data.summary,
      });
      return updateSession(next, { tasks_done: (currentSession(s)?.tasks_done ?? 0) + 1 });
    }
    case 'task.failed': {
      const failures = (s.tasks.find((t) => t.id === e.task_id)?.failures ?? 0) + 1;
      return setTask(s, e.task_id, { status: 'failed', ended_at: e.at, note: e.data.reason, failures });
    }
    case 'task.blocked':
      return setTask(s, e.task_id, { status: 'blocked', note: e.data.reason });
    case 'task.unblocked':
      return setTask(s, e.task_id, { status: 'pending', note: null });
    case 'task.skipped':
      return setTask(succeeded(settled(s, e.task_id), e.task_id), e.task_id, {
        status: 'skipped',
        ended_at: e.data.at ?? e.at,
        note: e.data.reason,
      });
    case 'decision.recorded':
      return {
        ...s,
        counts: { ...s.counts, decisions: s.counts.decisions + 1 },
        recent_decisions: recent(s.recent_decisions, e.data.decision),
      };
    case 'error.recorded': {
      const err = e.data.error;
      const open = listTotals(s).open_errors;
      return err.resolution === 'unresolved'
        ? {
            ...s,
            counts: { ...s.counts, errors: s.counts.errors + 1, open_errors: open + 1 },
            open_errors: recentOpen(s.open_errors, err),
          }
        : {
            ...s,
            counts: { ...s.counts, errors: s.counts.errors + 1, open_errors: open },
            recent_resolved_errors: recent(s.recent_resolved_errors, err),
          };
    }
    case 'error.resolved': {
      // An open error older than the state's newest ones is carried by the event (the record as it was).
      const err = findError(s, e.data.error_id) ?? e.data.error;
      if (!err) return s;
      const updated = { ...err, resolution: e.data.resolution, resolution_notes: e.data.resolution_notes };
      const open = s.open_errors.filter((x) => x.id !== err.id);
      const resolved = s.recent_resolved_errors.filter((x) => x.id !== err.id);
      const total =
        listTotals(s).open_errors -
        (err.resolution === 'unresolved' ? 1 : 0) +
        (updated.resolution === 'unresolved' ? 1 : 0);
      const counts = { ...s.counts, open_errors: Math.max(0, total) };
      return updated.resolution === 'unresolved'
        ? { ...s, counts, open_errors: recentOpen(open, updated), recent_resolved_errors: resolved }
        : { ...s, counts, open_errors: open, recent_resolved_errors: recent(resolved, updated) };
    }
    case 'history.recorded':
      return {
        ...s,
        counts: { ...s.counts, history: s.counts.history + 1 },
        recent_history: recent(s.recent_history, e.data.entry),
      };
    case 'request.recorded': {
      const r = e.data.request;
      const held = s.recent_requests ?? [];
      // the request the issue was made from, when it was; one said before it (hooks set up mid-session, whose
      // transcript import then reads the turns before them) is the user's first request, and becomes the issue
      const asked = s.issue ? held.find((x) => x.id === s.issue?.id) : undefined;
      // an issue made of a go-ahead ("yep, let's do it"), a greeting or a look at the agent ("show tools") gives way
      // to the first request that says what to do
      const idle = asksForNoWork(r.text, r.refers_to);
      const kept = inRequestOrder(held, r);
      const first =
        !s.issue ||
        (!idle && asked !== undefined && asksForNoWork(asked.text, asked.refers_to)) ||
        (!idle && r.at !== null && asked?.at != null && r.at < asked.at);
      return {
        ...s,
        issue: first ? issueFromRequest(r) : s.issue,
        // A workflow a hook or an import created is named after what the user first asked.
        title:
          s.auto_tracked && first
            ? requestTitle(r.refers_to ? `${r.text} (${r.refers_to.item})` : r.text)
            : s.title,
        recent_requests: kept,
        ...standingAfter(s, held, kept),
        counts: { ...s.counts, requests: listTotals(s).requests + 1 },
        request_keys: recent(s.request_keys ?? [], e.data.key, REQUEST_KEYS_KEPT),
      };
    }
    case 'feedback.recorded':
      return {
        ...s,
        counts: { ...s.counts, feedback: s.counts.feedback + 1 },
        open_feedback: e.data.feedback.addressed ? s.open_feedback : [...s.open_feedback, e.data.feedback],
      };
    case 'feedback.addressed':
      return { ...s, open_feedback: s.open_feedback.filter((f) => f.review_id !== e.data.review_id) };
    case 'test_run.recorded': {
      // the newest run is the test state: one read after a newer one (a sub-agent's file read after the session's
      // transcript, an older session imported late) is a run of the history, not where the tests stand
      const run = e.data.test_state;
      const was = Date.parse(s.test_state?.last_test_run_at ?? '');
      const older = !Number.isNaN(was) && Date.parse(run.last_test_run_at ?? '') < was;
      return {
        ...s,
        counts: { ...s.counts, test_runs: s.counts.test_runs + 1 },
        test_state: older ? s.test_state : run,
      };
    }
    case 'ci.reported': {
      // the newest report is where CI stands: one read late (a sub-agent's file, an older session) is history
      const was = Date.parse(s.ci_state?.at ?? '');
      const older = !Number.isNaN(was) && Date.parse(e.data.ci.at) < was;
      return older ? s : { ...s, ci_state: e.data.ci };
    }
    case 'summary.recorded': {
      const sum = e.data.summary;
      // a sub-agent's answer is a record to read back, not where the agent stands
      if (sum.kind === 'sub_agent') return s;
      const summaries = s.summaries ?? { compaction: null, last_message: null };
      return { ...s, summaries: { ...summaries, [sum.kind]: sum } };
    }
    case 'usage.recorded':
      return foldUsage(s, e);
    case 'snapshot.taken': {
      const snap = e.data.snapshot;
      return {
        ...s,
        counts: { ...s.counts, snapshots: s.counts.snapshots + 1 },
        last_snapshot: {
          id: snap.id,
          trigger: snap.trigger,
          seq: e.seq,
          created_at: snap.created_at,
          session_number: snap.session_number,
          ...snapshotPlace(s, snap),
        },
        // the snapshot before a compaction: the context handed over from here on is in the compacted session
        ...(snap.trigger === 'exhaustion' ? { handed_since_compacting: false } : {}),
        // a hook's before a compaction (a `baton run` session paused on a full context compacted nothing)
        ...(beforeCompaction(snap) ? { context_compacted: compactedAt(s, e.at) } : {}),
      };
    }
    case 'checkpoint.created':
      return {
        ...s,
        counts: { ...s.counts, checkpoints: listTotals(s).checkpoints + 1 },
        checkpoints: recent(s.checkpoints, e.data.checkpoint),
      };
    case 'context.delivered':
      return {
        ...s,
        reinject: e.data.via === 'hook' || e.data.via === 'resume' ? false : s.reinject,
        ...(e.data.via === 'hook' && s.handed_since_compacting === false
          ? { handed_since_compacting: true }
          : {}),
        handoff: {
          snapshot_id: e.data.snapshot_id,
          context_hash: e.data.context_hash,
          tokens: e.data.tokens,
          session_number: e.session_number ?? s.session_count,
          delivered_at: e.at,
          delivered_via: e.data.via,
          acknowledged_at: null,
          acknowledged_hash: null,
          acknowledged_via: null,
        },
      };
    case 'transcript.imported': {
      // the session it was read into: one no agent follows is then an imported one (commands/pause.ts)
      const read = s.sessions.at(-1)?.imported ? s : updateSession(s, { imported: true });
      return {
        ...read,
        imports: recentImports(s.imports, e.data.transcript_session_id, importMark(e.data, e.at)),
      };
    }
    case 'context.acknowledged':
      return s.handoff
        ? {
            ...s,
            handoff: {
              ...s.handoff,
              acknowledged_at: e.at,
              acknowledged_hash: e.data.context_hash,
              acknowledged_via: e.data.via,
            },
          }
        : s;
    case 'agent.launched':
    case 'agent.token_saved':
    case 'agent.exited':
    case 'capacity.warned':
    case 'usage_limit.reached':
    case 'side_effect.recorded':
    case 'executor.changed':
      return evolveRuntime(s, e);
  }
}
