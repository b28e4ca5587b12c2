import {
  inputObject,
  isAgentTaskTool,
  isWholeListTool,
  type AgentTaskCall,
} from '../agent-tasks/agent-task-calls.js';
import { applyAgentTaskCalls, bestMatch, sameWords, updatedKey } from '../agent-tasks/reduce-agent-tasks.js';
import type { Draft } from '../draft.js';
import { invalidTransition } from '../errors.js';
import type { AgentTaskItem, AgentTaskSource } from '../schemas/agent-tasks.js';
import type { Task } from '../schemas/workflow.js';
import { isTerminal } from '../workflow-machine.js';
import { addTask, nextTaskId } from './add-task.js';
import { honourRequestedPause } from './pause.js';
import { validateTaskGraph } from '../task-graph.js';
import { holdsWords } from '../similarity.js';
import type { GitCapture } from '../schemas/git-state.js';

export interface AgentTaskSync {
  added: string[];
  started: string[];
  completed: string[];
  skipped: string[];
  /** Tasks whose title followed the agent's rewording of their item. */
  retitled: string[];
  /** Tasks that now wait for others, linked after they were added (TaskUpdate's addBlockedBy): each with those. */
  linked: { task_id: string; deps: string[] }[];
  /** Links the agent made that Baton refused, because the task graph would have a cycle (said once, when made). */
  not_linked?: { task_id: string; deps: string[] }[];
  /** The pause snapshot, when a requested pause took effect at the boundary the agent's list reached. */
  paused_snapshot_id?: string;
  /**
   * The boundary the list reached finished every task: a requested pause waits for the agent's turn to end instead
   * (whatever the agent's list does after), so the agent says what it did (its last message) rather than being
   * stopped before it.
   */
  pause_at_turn_end?: true;
  /**
   * The session's first list (a new session's starts empty) left open tasks that no item of the agent's lists holds:
   * an earlier session's, or tasks added outside the list. Each is marked left out (`task.left_out`); the agent is
   * told them, so it takes them into its list in their words, by the caller's answer when it `tells` (a hook that
   * saw the call), else at its next prompt (`tellLeftOut`). Told and never taken up, they no longer hold the work
   * once nothing else is open (`leftBehind`).
   */
  untied?: { id: string; title: string; status: string }[];
}

/** A sync that moved nothing: what the calls of a batch, applied one by one, add to. */
export const noTaskSync = (): AgentTaskSync => ({
  added: [],
  started: [],
  completed: [],
  skipped: [],
  retitled: [],
  linked: [],
});

/** How a link made is said. */
export const linkedPhrase = (x: { task_id: string; deps: string[] }): string =>
  `${x.task_id} now waits for ${x.deps.join(', ')}`;

/** How a refused link is said, by the hook and the import alike. */
export const notLinkedPhrase = (x: { task_id: string; deps: string[] }): string =>
  `${x.task_id} not linked to ${x.deps.join(', ')}: the agent's list makes them wait for each other (a cycle)`;

const TITLE_MAX = 500;

/** A task an item may stand for: a finished one only when the item says it is finished too. */
function eligible(t: Task, it: AgentTaskItem): boolean {
  if (t.status === 'done') return it.status === 'completed';
  if (t.status === 'skipped') return it.status === 'completed' || it.status === 'in_progress';
  return true;
}

/** A task done or skipped: nothing is left of it to do. */
const finished = (t: Task) => t.status === 'done' || t.status === 'skipped';

const same = (a: readonly AgentTaskItem[], b: readonly AgentTaskItem[]) =>
  JSON.stringify(a) === JSON.stringify(b);

/** When the agent made a call (a transcript's time, or the hook's that saw it), when it says one. */
const timeOf = (call: AgentTaskCall): string | null =>
  call.at && !Number.isNaN(Date.parse(call.at)) ? new Date(call.at).toISOString() : null;

/**
 * A TaskUpdate the agent made before the newest change of its task (its hook never came, and the import replays it
 * after a later call's hook): what it set is taken as seen, not applied; only its links, which add up in any order,
 * still apply.
 */
function unlessOvertaken(items: readonly AgentTaskItem[], call: AgentTaskCall, made: string | null) {
  const key = updatedKey(call);
  const changed = key ? items.find((it) => it.key === key)?.changed_at : undefined;
  if (!key || made === null || !changed || Date.parse(made) >= Date.parse(changed)) return call;
  const links = inputObject(call.input)?.addBlockedBy;
  return { ...call, input: { taskId: key.slice('task:'.length), ...(links ? { addBlockedBy: links } : {}) } };
}

/** The items a call changed (status, words, form), stamped with when the agent made it. */
const stamped = (before: readonly AgentTaskItem[], after: AgentTaskItem[], made: string | null) =>
  made === null
    ? after
    : after.map((it) => {
        const was = before.find((b) => b.key === it.key);
        const changed =
          !was ||
          was.status !== it.status ||
          was.content !== it.content ||
          was.active_form !== it.active_form;
        return changed ? { ...it, changed_at: made } : it;
      });

/** Applies one call: maps new items to tasks (adding them), lets statuses follow, skips removed items' tasks. */
function step(
  d: Draft,
  source: AgentTaskSource,
  before: readonly AgentTaskItem[],
  call: AgentTaskCall,
  out: AgentTaskSync,
  git: GitCapture | null,
): AgentTaskItem[] {
  const reduced = applyAgentTaskCalls(before, [call]);
  // the time the agent made the call (a transcript's, read later), when it is one
  const made = timeOf(call);
  const at = made ? { at: made } : {};
  const taken = new Set<string>();
  for (const [name, list] of Object.entries(d.state.agent_tasks ?? {}))
    if (name !== source) for (const it of list.items) if (it.task_id) taken.add(it.task_id);
  for (const it of reduced) if (it.task_id) taken.add(it.task_id);
  // an item that took the task of the item it rewords, in the very words of another open task no item holds, is that
  // task: the agent put a task it was handed (an earlier session's) in its list as asked, in the task's words
  const named = (it: AgentTaskItem) =>
    d.state.tasks.find(
      (t) => !taken.has(t.id) && !finished(t) && sameWords(t.title, it.content.slice(0, TITLE_MAX)),
    );
  for (const [i, it] of reduced.entries()) {
    const own = d.state.tasks.find((t) => t.id === it.task_id);
    const other = own && !sameWords(own.title, it.content.slice(0, TITLE_MAX)) ? named(it) : undefined;
    if (!other) continue;
    taken.add(other.id);
    reduced[i] = { ...it, task_id: other.id };
  }

  const items: AgentTaskItem[] = [];
  for (const it of reduced) {
    if (it.task_id && d.state.tasks.some((t) => t.id === it.task_id)) {
      items.push(it);
      continue;
    }
    const candidates = d.state.tasks.filter((t) => !taken.has(t.id) && eligible(t, it));
    const i = bestMatch(
      it.content,
      candidates.map((t) => ({ content: t.title })),
    );
    let taskId = candidates[i]?.id;
    if (!taskId) {
      const deps = it.blocked_by
        .map((b) => [...items, ...reduced].find((x) => x.key === `task:${b}`)?.task_id)
        .filter((x): x is string => !!x && d.state.tasks.some((t) => t.id === x));
      taskId = addTask(
        d,
        {
          id: nextTaskId(d.state.tasks.map((t) => t.id)),
          title: it.content.slice(0, TITLE_MAX),
          deps: [...new Set(deps)],
        },
        source,
        made,
      ).id;
      out.added.push(taskId);
    }
    taken.add(taskId);
    items.push({ ...it, task_id: taskId });
  }

  const task = (id: string | null) => d.state.tasks.find((t) => t.id === id);
  // an item the agent reworded gives its words to the task that bore its old ones (a title given otherwise stays)
  for (const it of items) {
    const t = task(it.task_id);
    const was = before.find((b) => b.key === it.key);
    const title = it.content.slice(0, TITLE_MAX);
    if (
      t &&
      was &&
      was.content !== it.content &&
      t.title === was.content.slice(0, TITLE_MAX) &&
      t.title !== title
    ) {
      d.emit({ type: 'task.retitled', task_id: t.id, data: { title, origin: source } });
      out.retitled.push(t.id);
    }
  }
  // links made after the items were added: the task waits for its blockers' tasks, unless that closes a cycle
  for (const it of items) {
    const t = task(it.task_id);
    if (!t || t.status === 'done' || t.status === 'skipped') continue;
    const deps = it.blocked_by
      .map((b) => items.find((x) => x.key === `task:${b}`)?.task_id)
      .filter((x): x is string => !!x && x !== t.id && !t.deps.includes(x) && !!task(x));
    const fresh = [...new Set(deps)];
    if (fresh.length === 0) continue;
    const specs = d.state.tasks.map((x) => (x.id === t.id ? { ...x, deps: [...x.deps, ...fresh] } : x));
    try {
      validateTaskGraph(specs);
    } catch {
      // refused again at every later call: said only by the call that made the link
      const said = before.find((b) => b.key === it.key)?.blocked_by ?? [];
      if (it.blocked_by.some((b) => !said.includes(b)))
        (out.not_linked ??= []).push({ task_id: t.id, deps: fresh });
      continue;
    }
    d.emit({ type: 'task.deps_added', task_id: t.id, data: { deps: fresh, origin: source } });
    out.linked.push({ task_id: t.id, deps: fresh });
  }
  const start = () => {
    if (d.state.status === 'pending') d.emit({ type: 'workflow.started', data: {} });
  };
  // the task of an item removed that no item holds now, merged into an item that holds all its words ("Implement
  // subtract" into "Implement subtract, multiply and divide"): it follows that item's task
  const gone = before.flatMap((b) => {
    const t = task(b.task_id);
    if (!t || finished(t) || items.some((it) => it.task_id === t.id)) return [];
    const into = items.find((it) => task(it.task_id) && holdsWords(it.content, b.content));
    return [{ t, into: into && { item: into, task: task(into.task_id) as Task } }];
  });
  // completions first: the list that finishes one task and starts the next passes a task boundary between them
  const done = [
    ...items.flatMap((it) => (it.status === 'completed' ? [{ t: task(it.task_id), merged: null }] : [])),
    ...gone.flatMap((g) => (g.into?.item.status === 'completed' ? [{ t: g.t, merged: g.into.task }] : [])),
  ];
  for (const { t, merged } of done) {
    if (!t || t.status === 'done') continue;
    start();
    const summary = merged ? `merged into ${merged.id} ("${merged.title}"), done` : null;
    d.emit({ type: 'task.completed', task_id: t.id, data: { summary, ...at } });
    out.completed.push(t.id);
  }
  // a pause the user asked for takes effect at that boundary (unless it waits for the agent's turn to end: the list
  // then goes on as the agent made it); the tasks the agent went on with start with its first change to the list
  // after the resume
  const honoured = git ? honourRequestedPause(d, git) : null;
  if (honoured?.outcome === 'paused') out.paused_snapshot_id = honoured.snapshot.id;
  if (honoured?.outcome === 'waits_for_turn_end') out.pause_at_turn_end = true;
  for (const it of items) {
    const t = task(it.task_id);
    if (!t || d.state.status === 'paused') continue;
    if (it.status === 'in_progress' && ['pending', 'failed', 'blocked', 'skipped'].includes(t.status)) {
      start();
      d.emit({ type: 'task.started', task_id: t.id, data: { ...at } });
      out.started.push(t.id);
    }
  }
  // the task of an item removed (or of one that took another task's words, above) that no item holds now
  const list = source === 'codex' ? "Codex's plan" : "Claude Code's task list";
  for (const { t, into } of gone) {
    if (task(t.id)?.status === 'done') continue;
    const reason = into
      ? `merged into ${into.task.id} ("${into.task.title}") in ${list}`
      : `removed from ${list}`;
    d.emit({ type: 'task.skipped', task_id: t.id, data: { reason, ...at } });
    out.skipped.push(t.id);
  }
  return items;
}

/**
 * Follows the agent's own task list in the task graph: applies the new task-tool calls to the list kept in the
 * state, makes each new item a task (or the existing task it rewords), lets statuses follow (in progress,
 * completed), and skips the task of an item the agent removed (never deletes it). Calls already applied (same id)
 * and calls that change nothing write no event. The newest list wins, whatever order the hook and the transcript
 * import bring the calls in: a whole list (TodoWrite, update_plan) the agent made before the newest call applied (its
 * hook never reached Baton, and the import replays it after a later call's hook) is taken as seen, not applied, and so
 * is what a TaskUpdate made before the newest change of its task set (its links still apply).
 */
export function syncAgentTasks(
  d: Draft,
  source: AgentTaskSource,
  calls: readonly AgentTaskCall[],
  /** The git state, given when a pause is requested: the boundary the list reaches then pauses the workflow. */
  git: GitCapture | null = null,
  /** The caller tells the agent the tasks its list left out (`untied`) in its answer: they are marked told. */
  tells = false,
): AgentTaskSync {
  const out = noTaskSync();
  const before = d.state.agent_tasks?.[source] ?? { items: [], applied_calls: [] };
  const seen = new Set(before.applied_calls);
  const fresh: AgentTaskCall[] = [];
  const newIds: string[] = [];
  for (const c of calls) {
    if (!isAgentTaskTool(c.tool)) continue;
    if (c.id) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      newIds.push(c.id);
    }
    fresh.push(c);
  }
  if (fresh.length === 0) return out;
  if (isTerminal(d.state.status)) {
    throw invalidTransition(
      `cannot follow the agent's task list: the workflow is ${d.state.status}; a new session starts a new workflow`,
      { current_status: d.state.status },
    );
  }

  // One call at a time, as the agent made them: an item that came and went within a batch still becomes a task
  // with its history (a list cleared at the end keeps its finished tasks done).
  let items = before.items;
  let syncedAt = before.synced_at ?? null;
  for (const call of fresh) {
    const made = timeOf(call);
    const older = made !== null && syncedAt !== null && Date.parse(made) < Date.parse(syncedAt);
    if (older && isWholeListTool(call.tool)) continue;
    items = stamped(items, step(d, source, items, unlessOvertaken(items, call, made), out, git), made);
    if (made !== null && (syncedAt === null || !older)) syncedAt = made;
  }
  if (newIds.length || !same(items, before.items))
    d.emit({
      type: 'agent_tasks.synced',
      data: { source, items, applied_calls: newIds, ...(syncedAt ? { synced_at: syncedAt } : {}) },
    });
  if (before.items.length === 0 && items.length > 0) {
    const held = new Set(
      Object.values(d.state.agent_tasks ?? {}).flatMap((l) => l.items.map((it) => it.task_id)),
    );
    const untied = d.state.tasks.filter((t) => !finished(t) && !held.has(t.id));
    if (untied.length) out.untied = untied.map((t) => ({ id: t.id, title: t.title, status: t.status }));
    // the session this list is of: a task an earlier session's list made that this one leaves out is an earlier
    // plan's (`leftBehind`), marked again by each later session's list that leaves it out
    const session = d.state.session_count || null;
    for (const t of untied) {
      const told = tells ? [source] : [];
      const was = t.left_out;
      if (was?.by === source && was.session === session && told.every((x) => was.told.includes(x))) continue;
      d.emit({ type: 'task.left_out', task_id: t.id, data: { by: source, told } });
    }
  }
  return out;
}

/**
 * The tasks an agent's list left out that the agent was not told of yet (its list was read from its transcript, as
 * Codex's always is: no hook answered the call), told now: marked told, for the caller to say at the agent's prompt.
 */
export function tellLeftOut(d: Draft, source: AgentTaskSource): AgentTaskSync['untied'] {
  const untold = d.state.tasks.filter(
    (t) => !finished(t) && t.left_out?.by === source && !t.left_out.told.includes(source),
  );
  for (const t of untold)
    d.emit({ type: 'task.left_out', task_id: t.id, data: { by: source, told: [source] } });
  return untold.map((t) => ({ id: t.id, title: t.title, status: t.status }));
}
