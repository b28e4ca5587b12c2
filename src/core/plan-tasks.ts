import { clip } from './clip.js';
import type { TaskSpec } from './schemas/workflow.js';

/** One item of a markdown list: its words, what was written indented under it, and whether its box was checked. */
export interface ListedTask {
  title: string;
  description: string;
  done: boolean;
}

/** A list item: `1.`/`1)`, `-`, `*` or `+`, then an optional `[ ]`/`[x]` box, then its words. */
const item = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[([ xX])\]\s+)?(\S.*)$/;
const fence = /^\s*(?:```|~~~)/;
/** A thematic break (`* * *`, `- - -`) reads as an item of dashes or stars, and is none. */
const rule = /^[-*_\s]+$/;

const width = (indent: string) => indent.replace(/\t/g, '    ').length;

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
      close();
      top ??= width(m[1] ?? '');
      const task = { title: clip((m[3] ?? '').trim(), 500), description: '', done: /x/i.test(m[2] ?? '') };
      out.push(task);
      open = { task, lines: [], indent: width(m[1] ?? '') };
      continue;
    }
    if (!open) continue;
    // under the item (indented past it, or a blank line between its parts), else the list ended
    if (!line.trim() || inCode || indent > open.indent)
      open.lines.push(line.replace(/\t/g, '    ').trimEnd());
    else close();
  }
  close();
  return out;
}

/** Tasks read from a plan's list, with the ids of those already checked done; null when the text has no list. */
export interface TasksRead {
  tasks: TaskSpec[];
  done: string[];
}

/** The listed items as tasks T1, T2, ... in their order; each after none (`baton run` takes them in order). */
export function tasksOfList(markdown: string): TasksRead | null {
  const listed = listedTasks(markdown);
  if (!listed.length) return null;
  const tasks = listed.map((t, i) => ({
    id: `T${i + 1}`,
    title: t.title,
    description: t.description,
    deps: [],
    lane: 0,
  }));
  return { tasks, done: tasks.filter((_, i) => listed[i]?.done).map((t) => t.id) };
}
