import { isAbsolute } from 'node:path';
import { PACKAGE_NAME } from '../../config/package-info.js';
import { codexHookEvents, hookEventsFor, hookTimeoutFor } from '../hooks/hook-payload.js';
import type { InitAgent } from './agent-files.js';
import { commandLine, guardedLine, notFoundNote, type BatonCommand } from './hook-command.js';
import type { KeyPath } from './created-keys.js';
import { isObject, type JsonObject } from './json-file.js';
import { invalidInput } from '../../core/index.js';

/** One hook entry as both agents write it: `{"hooks": {"<Event>": [{"matcher", "hooks": [{type, command, timeout}]}]}}`. */
export interface HookSpec {
  event: string;
  matcher: string | null;
  command: string;
  /** Seconds (both agents); 5 s above the hook's own budget, so Baton answers first. */
  timeout: number;
}

/**
 * Where the hooks are written, for what their commands say when their program is not found (`notFoundNote`): the
 * file's name, the `baton init --undo` that takes them out, and whether it is committed with the repository or, this
 * machine's own, the `baton init` that names Baton by its path.
 */
export type HooksFileOf = { file: string; undo: string } & (
  { committed: true } | { committed: false; rewrite: string }
);

/**
 * Baton's hooks for an agent. Session starts match every source (a new one is never a reason to skip); tool hooks
 * match only the task-list tools. A command that runs Baton by its name (`baton`, from the PATH) is guarded: where
 * the name is not found, a session start says why and what to do (`guardedLine`), instead of "command not found" at
 * every event (a teammate without Baton) or nothing at all (an agent started with another PATH). Without `where`, the
 * bare commands.
 */
export function hookSpecs(
  agent: InitAgent,
  cmd: BatonCommand,
  version: string | null = null,
  where: HooksFileOf | null = null,
): HookSpec[] {
  const bare = !isAbsolute(cmd.program) && !cmd.program.includes('${');
  const note =
    where && (where.committed || bare)
      ? notFoundNote(cmd.program, where.file, where.committed ? null : where.rewrite, where.undo)
      : null;
  return hookEventsFor(agent, version).map((event) => {
    const rest = ['hook', event, ...(agent === 'codex' ? ['--agent', 'codex'] : [])];
    return {
      event,
      matcher:
        event === 'PostToolUse'
          ? agent === 'codex'
            ? 'update_plan'
            : 'TodoWrite|TaskCreate|TaskUpdate'
          : null,
      command: note ? guardedLine(cmd, rest, event, note) : commandLine(cmd, rest),
      timeout: hookTimeoutFor(agent, event),
    };
  });
}

const events = codexHookEvents.join('|');
const hookWord = new RegExp(`(^|\\s)hook\\s+["']?(${events})\\b`);

/** Baton's own entries run `… baton … hook <Event>`; everything else belongs to the user and is never touched. */
export function isBatonHook(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const names = new Set(['baton', PACKAGE_NAME]);
  return [...names].some((n) => command.includes(n)) && hookWord.test(command);
}

type Matcher = JsonObject & { hooks?: unknown };

const matchersOf = (hooks: JsonObject, event: string): Matcher[] =>
  Array.isArray(hooks[event]) ? (hooks[event] as unknown[]).filter(isObject) : [];

/** The objects and lists Baton's hooks of these events are in: `hooks`, and each event's list. */
export const hookKeys = (events: readonly string[]): KeyPath[] => [
  ['hooks'],
  ...events.map((e) => ['hooks', e]),
];

/**
 * The settings without Baton's hook entries, how many were removed, and the events whose list they left empty. A
 * matcher group goes when only Baton's hooks were in it; the user's own groups, event lists and `hooks` stay as they
 * are, even empty (whether an emptied list or `hooks` goes is the caller's: `pruneEmpty`).
 */
export function removeBatonHooks(settings: JsonObject): {
  value: JsonObject;
  removed: number;
  emptied: string[];
} {
  if (!isObject(settings.hooks)) return { value: settings, removed: 0, emptied: [] };
  let removed = 0;
  const emptied: string[] = [];
  const hooks: JsonObject = {};
  for (const event of Object.keys(settings.hooks)) {
    const raw = settings.hooks[event];
    if (!Array.isArray(raw)) {
      hooks[event] = raw;
      continue;
    }
    const kept: unknown[] = [];
    let own = 0;
    for (const m of raw) {
      const all: unknown[] = isObject(m) && Array.isArray(m.hooks) ? m.hooks : [];
      const rest = all.filter((h) => !(isObject(h) && isBatonHook(h.command)));
      if (rest.length === all.length) {
        kept.push(m);
        continue;
      }
      own += all.length - rest.length;
      if (rest.length) kept.push({ ...(m as Matcher), hooks: rest });
    }
    removed += own;
    hooks[event] = kept;
    if (own && !kept.length) emptied.push(event);
  }
  return { value: { ...settings, hooks }, removed, emptied };
}

/** Baton's hooks merged in: its previous entries replaced, the user's own hooks and settings kept as they were. */
export function mergeBatonHooks(settings: JsonObject, specs: readonly HookSpec[]): JsonObject {
  if (settings.hooks !== undefined && !isObject(settings.hooks))
    throw invalidInput('"hooks" must be an object of event names');
  const { value: base, emptied } = removeBatonHooks(settings);
  const hooks: JsonObject = isObject(base.hooks) ? { ...base.hooks } : {};
  // an event Baton names no more (an older Claude Code) whose list held only Baton's hooks goes with them
  for (const event of emptied) if (!specs.some((s) => s.event === event)) delete hooks[event];
  for (const s of specs) {
    const entry = {
      ...(s.matcher ? { matcher: s.matcher } : {}),
      hooks: [{ type: 'command', command: s.command, timeout: s.timeout }],
    };
    hooks[s.event] = [...matchersOf(hooks, s.event), entry];
  }
  return { ...base, hooks };
}

/** The hooks in an event's list, as the undo names them: their commands. */
export const commandsIn = (groups: unknown): string[] =>
  (Array.isArray(groups) ? groups : []).flatMap((m: unknown) =>
    (isObject(m) && Array.isArray(m.hooks) ? m.hooks : []).map((h: unknown) =>
      isObject(h) && typeof h.command === 'string' ? `\`${h.command}\`` : 'a hook',
    ),
  );

/** Baton's hook commands in a settings object, by event. */
export function batonHooksIn(settings: JsonObject): Map<string, { command: string; matcher: string | null }> {
  const out = new Map<string, { command: string; matcher: string | null }>();
  if (!isObject(settings.hooks)) return out;
  for (const event of Object.keys(settings.hooks))
    for (const m of matchersOf(settings.hooks, event))
      for (const h of Array.isArray(m.hooks) ? m.hooks : [])
        if (isObject(h) && isBatonHook(h.command))
          out.set(event, {
            command: h.command as string,
            matcher: typeof m.matcher === 'string' ? m.matcher : null,
          });
  return out;
}

/**
 * Where Baton's hook of each event sits in a settings object: the index of its matcher group in the event's list and
 * its own in the group's `hooks`, counted over every entry as written (Codex keys a hook's trust by them).
 */
export function batonHookPlaces(settings: JsonObject): Map<string, { group: number; handler: number }> {
  const out = new Map<string, { group: number; handler: number }>();
  if (!isObject(settings.hooks)) return out;
  for (const [event, groups] of Object.entries(settings.hooks))
    (Array.isArray(groups) ? groups : []).forEach((m: unknown, group) => {
      const hooks: unknown[] = isObject(m) && Array.isArray(m.hooks) ? m.hooks : [];
      hooks.forEach((h, handler) => {
        if (isObject(h) && isBatonHook(h.command)) out.set(event, { group, handler });
      });
    });
  return out;
}
