import { invalidInput, nextTaskId, type TaskSpecInput } from '../core/index.js';

const depList = /^[A-Za-z0-9][A-Za-z0-9._-]*(,[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** A task as a person types it: its id may be left out. */
type TypedTask = Omit<TaskSpecInput, 'id'> & { id?: string };

/**
 * A task as typed: `ID:Title[:DEP,DEP]` (a title may itself hold colons when no dependency list follows), or a title
 * alone (no ":"), whose id is then chosen for it (`nextTaskId`).
 */
export function parseTaskSpec(text: string): TypedTask {
  const parts = text.split(':');
  if (parts.length === 1) {
    if (!text.trim())
      throw invalidInput('a task needs a title (e.g. "Write the docs", or "T4:Write the docs:T2,T3")');
    return { title: text.trim(), deps: [] };
  }
  const id = parts[0]?.trim() ?? '';
  if (!id)
    throw invalidInput(`--task "${text}" is not ID:Title[:DEP,DEP] (e.g. --task "T2:Implement API:T1")`);
  const last = parts[parts.length - 1]?.trim() ?? '';
  const hasDeps = parts.length >= 3 && depList.test(last);
  const title = (hasDeps ? parts.slice(1, -1) : parts.slice(1)).join(':').trim();
  if (!title) throw invalidInput(`--task "${text}" has no title`);
  return { id, title, deps: hasDeps ? last.split(',') : [] };
}

/** Tasks typed as a title alone take the next free `T<n>` ids, in the order given. */
export function withTaskIds(tasks: TypedTask[]): TaskSpecInput[] {
  const ids = tasks.flatMap((t) => (t.id ? [t.id] : []));
  return tasks.map((t) => {
    if (t.id) return { ...t, id: t.id };
    const id = nextTaskId(ids);
    ids.push(id);
    return { ...t, id };
  });
}

/**
 * What a command was given as its argument or as the same option (`baton create "Add login"` or `--title "Add
 * login"`): one of them, or both the same; neither, or two different, is refused with an example.
 */
export function argumentOrOption(
  named: string | undefined,
  flag: string | undefined,
  o: { option: string; noun: string; need: string; example: [command: string, value: string] },
): string {
  if (named !== undefined && flag !== undefined && named !== flag)
    throw invalidInput(`two ${o.noun}s given ("${named}" and ${o.option} "${flag}"): give one`);
  const given = named ?? flag;
  if (given === undefined || given.trim() === '') {
    const [command, value] = o.example;
    throw invalidInput(`${o.need}: ${command} "${value}" (or ${o.option} "${value}")`);
  }
  return given;
}

export function parseNumber(
  text: string,
  flag: string,
  opts: { int?: boolean; min?: number; max?: number } = {},
): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || (opts.int && !Number.isInteger(n))) {
    throw invalidInput(`${flag} "${text}" is not ${opts.int ? 'an integer' : 'a number'}`);
  }
  if (opts.min !== undefined && n < opts.min)
    throw invalidInput(`${flag} must be at least ${opts.min} (got ${text})`);
  if (opts.max !== undefined && n > opts.max)
    throw invalidInput(`${flag} must be at most ${opts.max} (got ${text})`);
  return n;
}

export function oneOf<T extends string>(text: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(text))
    throw invalidInput(`${flag} "${text}" is not one of ${allowed.join(', ')}`);
  return text as T;
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];
