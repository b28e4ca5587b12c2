import type { AgentTaskItem } from '../schemas/agent-tasks.js';
import { holdsWords, similarity, words } from '../similarity.js';
import {
  createdTaskId,
  inputObject,
  normalizeAgentStatus,
  text,
  type AgentTaskCall,
} from './agent-task-calls.js';

/** How alike two wordings must be (word-set Jaccard) to be the same item reworded. */
export const REWORD_THRESHOLD = 0.5;

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The same words, however spaced or cased. */
export const sameWords = (a: string, b: string) => norm(a) === norm(b);

interface Entry {
  content: string;
  status: string;
  active_form: string | null;
}

/**
 * The index of the unused item that `content` names: the same words, else the most similar one above the threshold
 * among those `rewordable` allows.
 */
export function bestMatch<C extends { content: string }>(
  content: string,
  candidates: readonly C[],
  used: ReadonlySet<number> = new Set(),
  threshold = REWORD_THRESHOLD,
  rewordable: (c: C) => boolean = () => true,
): number {
  const n = norm(content);
  const exact = candidates.findIndex((c, i) => !used.has(i) && norm(c.content) === n);
  if (exact >= 0) return exact;
  let best = -1;
  let score = threshold;
  candidates.forEach((c, i) => {
    if (used.has(i) || !rewordable(c)) return;
    const s = similarity(c.content, content);
    if (s >= score) {
      best = i;
      score = s;
    }
  });
  return best;
}

function nextItemKey(items: readonly AgentTaskItem[]): string {
  let max = 0;
  for (const it of items) {
    const m = /^item:(\d+)$/.exec(it.key);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `item:${max + 1}`;
}

/** A finished step is not the one now under way ("Run tests and commit" done, then "Commit and push"). */
const reopens = (item: AgentTaskItem, e: Entry) => item.status === 'completed' && e.status !== 'completed';

/**
 * A whole new list (TodoWrite, update_plan): each entry keeps the key and task of the item it rewords: the item of the
 * same or most similar words, else the first whose words the entry holds all of, or which holds all of the entry's
 * ("Write tests" then "Write tests for all four operations"), else, for a short wording changed in place ("Write README" then "Finish README": too
 * few words to be alike), the item at its position in a list of the same length, when no other entry took it and they
 * share half the words of the longer, or when it is the one entry of the list left unmatched, at the place of the one
 * item left, sharing a word with it (a plan that refines one step: "Add logging" then "Add debug logging behind
 * DEBUG env var", "Run tests" then "Run node --test"). Only its own words reopen a finished step: an entry still to do
 * that is merely like it ("Add mul()" done, then "Add div()") is new work.
 */
function replaceList(items: readonly AgentTaskItem[], entries: readonly Entry[]): AgentTaskItem[] {
  const used = new Set<number>();
  const match = entries.map((e) => {
    const i = bestMatch(e.content, items, used, REWORD_THRESHOLD, (item) => !reopens(item, e));
    if (i >= 0) used.add(i);
    return i;
  });
  // a step said in more or fewer words, all of them its own ("Write tests" then "Write tests for all four operations")
  entries.forEach((e, j) => {
    if (match[j] !== -1) return;
    const i = items.findIndex(
      (item, k) =>
        !used.has(k) &&
        !reopens(item, e) &&
        (holdsWords(e.content, item.content) || holdsWords(item.content, e.content)),
    );
    if (i < 0) return;
    match[j] = i;
    used.add(i);
  });
  // only in a list of the same length (a list rebuilt with other steps rewords nothing in place)
  if (entries.length === items.length)
    entries.forEach((e, j) => {
      const inPlace = items[j];
      if (match[j] !== -1 || !inPlace || used.has(j) || reopens(inPlace, e)) return;
      const said = words(inPlace.content);
      const now = words(e.content);
      const shared = [...now].filter((w) => said.has(w)).length;
      const alone = match.filter((m) => m === -1).length === 1 && used.size === items.length - 1;
      if (shared === 0 || (shared * 2 < Math.max(said.size, now.size) && !alone)) return;
      match[j] = j;
      used.add(j);
    });
  const out: AgentTaskItem[] = [];
  entries.forEach((e, j) => {
    const prev = items[match[j] ?? -1];
    if (prev) out.push({ ...prev, content: e.content, status: e.status, active_form: e.active_form });
    else out.push({ key: nextItemKey([...items, ...out]), blocked_by: [], task_id: null, ...e });
  });
  return out;
}

function entriesOf(list: unknown, contentKey: 'content' | 'step'): Entry[] | null {
  if (!Array.isArray(list)) return null;
  const out: Entry[] = [];
  for (const raw of list) {
    const o = inputObject(raw);
    const content = text(o?.[contentKey]) ?? text(o?.content) ?? text(o?.subject);
    if (!o || !content) continue;
    out.push({
      content,
      status: normalizeAgentStatus(o.status),
      active_form: text(o.activeForm) ?? text(o.active_form),
    });
  }
  return out;
}

/** The agent's task ids are counted per session; without a result, the next free number is the one it gave. */
function nextTaskNumber(items: readonly AgentTaskItem[]): string {
  let max = 0;
  for (const it of items) {
    const m = /^task:(\d+)$/.exec(it.key);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return String(max + 1);
}

/** The item a TaskUpdate changes (`task:<id>`), from its input; null for other calls or an update naming none. */
export function updatedKey(call: AgentTaskCall): string | null {
  if (call.tool !== 'TaskUpdate') return null;
  const input = inputObject(call.input);
  const id = text(input?.taskId) ?? text(input?.id);
  return id ? `task:${id}` : null;
}

function applyOne(items: AgentTaskItem[], call: AgentTaskCall): AgentTaskItem[] {
  const input = inputObject(call.input);
  if (!input) return items;
  switch (call.tool) {
    case 'TodoWrite': {
      const entries = entriesOf(input.todos, 'content');
      return entries ? replaceList(items, entries) : items;
    }
    case 'update_plan': {
      const entries = entriesOf(input.plan, 'step');
      return entries ? replaceList(items, entries) : items;
    }
    case 'TaskCreate': {
      const subject = text(input.subject) ?? text(input.content);
      if (!subject) return items;
      const id = createdTaskId(call.result);
      if (id === null && items.some((it) => it.key.startsWith('task:') && norm(it.content) === norm(subject)))
        return items;
      const key = `task:${id ?? nextTaskNumber(items)}`;
      if (items.some((it) => it.key === key)) return items;
      return [
        ...items,
        {
          key,
          content: subject,
          status: normalizeAgentStatus(input.status),
          active_form: text(input.activeForm),
          blocked_by: [],
          task_id: null,
        },
      ];
    }
    case 'TaskUpdate': {
      const key = updatedKey(call);
      if (!key) return items;
      const status = input.status === undefined ? null : normalizeAgentStatus(input.status);
      if (status === 'deleted') return items.filter((it) => it.key !== key);
      const found = items.find((it) => it.key === key);
      const subject = text(input.subject);
      if (!found) {
        // A task created before Baton was following: known only once the update names it.
        if (!subject) return items;
        return [
          ...items,
          {
            key,
            content: subject,
            status: status ?? 'pending',
            active_form: text(input.activeForm),
            blocked_by: [],
            task_id: null,
          },
        ];
      }
      const blockers = Array.isArray(input.addBlockedBy)
        ? input.addBlockedBy.map(text).filter((b): b is string => b !== null)
        : [];
      return items.map((it) =>
        it.key === key
          ? {
              ...it,
              content: subject ?? it.content,
              status: status ?? it.status,
              active_form: text(input.activeForm) ?? it.active_form,
              blocked_by: [...new Set([...it.blocked_by, ...blockers])],
            }
          : it,
      );
    }
    default:
      return items;
  }
}

/**
 * Applies an agent's task-tool calls, in order, to its current list: TodoWrite and update_plan send the whole
 * list, TaskCreate adds one task, TaskUpdate changes or deletes one. Pure; calls of other tools or of a shape it
 * does not know change nothing (never an error: the agent's formats move).
 */
export function applyAgentTaskCalls(
  items: readonly AgentTaskItem[],
  calls: readonly AgentTaskCall[],
): AgentTaskItem[] {
  let out = [...items];
  for (const call of calls) out = applyOne(out, call);
  return out;
}
