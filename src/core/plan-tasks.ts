import { clip } from './clip.js';
import type { TaskSpec } from './schemas/workflow.js';

/**
 * One item of a markdown list: its words, what was written indented under it, whether its box was checked, which list
 * of the text it is in (0 for the first), and whether that list was said to be in any order (`saysAnyOrder`).
 */
export interface ListedTask {
  title: string;
  description: string;
  done: boolean;
  list: number;
  anyOrder: boolean;
}

/** A list item: `1.`/`1)`, `-`, `*` or `+`, then an optional `[ ]`/`[x]` box, then its words. */
const item = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[([ xX])\]\s+)?(\S.*)$/;
const fence = /^\s*(?:```|~~~)/;
/** A thematic break (`* * *`, `- - -`) reads as an item of dashes or stars, and is none. */
const rule = /^[-*_\s]+$/;

const width = (indent: string) => indent.replace(/\t/g, '    ').length;
const heading = /^ {0,3}#{1,6}(?:\s|$)/;
/**
 * Words that free a list from its order: "in any order", "in no particular order", "in parallel", "independent"
 * ("independent of the lexer" is about something else, so not that).
 */
const anyOrderWords = /\b(?:any order|no particular order|in parallel|independent(?:ly)?\b(?!\s+of\b))/i;

/** The heading a list is under, or the line just above it, says its items need no order. */
export const saysAnyOrder = (intro: string) => anyOrderWords.test(intro);

/**
 * The items of a markdown text's lists, in order: the outermost items are the tasks (numbered, `-`/`*`/`+`, or a
 * `- [ ]`/`- [x]` checklist, whose checked items are done); what is indented under one (sub-items, its details) is
 * its description. Code blocks are passed over. None when the text has no list.
 */
export function listedTasks(markdown: string): ListedTask[] {
  const out: ListedTask[] = [];
  /** The indentation of the outermost items: the first item's. */
  let top: number | null = null;
  let open: { task: ListedTask; lines: string[]; indent: number } | null = null;
  let inCode = false;
  /** The heading of the section, and the last line of prose: what introduces the next list. */
  let section = '';
  let above = '';
  let lists = 0;
  const close = () => {
    if (open) {
      // said as written under the item, less the indentation its lines share
      const lines = open.lines;
      const shared = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)?.[0].length ?? 0));
      const text = lines.map((l) => l.slice(Number.isFinite(shared) ? shared : 0)).join('\n');
      open.task.description = clip(text.trim(), 20_000);
    }
    open = null;
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (fence.test(line)) inCode = !inCode;
    const m = inCode || fence.test(line) ? null : item.exec(line);
    const indent = width(/^\s*/.exec(line)?.[0] ?? '');
    if (m && !rule.test(m[3] ?? '') && (top === null || width(m[1] ?? '') <= top + 1)) {
      // an item after prose (or a heading) begins another list; one after an item or a blank line goes on with it
      const before: ListedTask | null = open?.task ?? null;
      close();
      top ??= width(m[1] ?? '');
      const list = before ? before.list : lists++;
      const anyOrder = before ? before.anyOrder : saysAnyOrder(`${section}\n${above}`);
      above = '';
      const task: ListedTask = {
        title: clip((m[3] ?? '').trim(), 500),
        description: '',
        done: /x/i.test(m[2] ?? ''),
        list,
        anyOrder,
      };
      out.push(task);
      open = { task, lines: [], indent: width(m[1] ?? '') };
      continue;
    }
    if (open && (!line.trim() || inCode || indent > open.indent)) {
      // under the item (indented past it, or a blank line between its parts)
      open.lines.push(line.replace(/\t/g, '    ').trimEnd());
      continue;
    }
    // the list ended, if one was open: the line is prose, which may introduce the next list
    close();
    if (inCode || fence.test(line) || !line.trim()) continue;
    if (heading.test(line)) section = line;
    above = line;
  }
  close();
  return out;
}

/** Tasks read from a plan's list, with the ids of those already checked done; null when the text has no list. */
export interface TasksRead {
  tasks: TaskSpec[];
  done: string[];
}

/**
 * The listed items as tasks T1, T2, ... in their order. A list is an order: each item is a step, after the step
 * before it; a list said to be in any order (`saysAnyOrder`) is one step, its items side by side. A step's open tasks
 * wait for the open tasks of the nearest step before it that has any (a checked item waits for nothing, and nothing
 * waits for it), so `baton run`, the workers and `baton task start` take them in the plan's order.
 */
export function tasksOfList(markdown: string): TasksRead | null {
  const listed = listedTasks(markdown);
  if (!listed.length) return null;
  const id = (i: number) => `T${i + 1}`;
  const tasks: TaskSpec[] = [];
  /** The open tasks of the nearest step with any, and those of the step being read. */
  let waitFor: string[] = [];
  let step: string[] = [];
  listed.forEach((t, i) => {
    const prev = listed[i - 1];
    const sameStep = t.anyOrder && prev !== undefined && prev.list === t.list;
    if (!sameStep && step.length) [waitFor, step] = [step, []];
    tasks.push({
      id: id(i),
      title: t.title,
      description: t.description,
      deps: t.done ? [] : [...waitFor],
      lane: 0,
    });
    if (!t.done) step.push(id(i));
  });
  return { tasks, done: tasks.filter((_, i) => listed[i]?.done).map((t) => t.id) };
}
