import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { invalidInput } from '../../core/index.js';
import { hookEvents } from './hook-input.js';

interface HookCommand {
  type: string;
  command: string;
  timeout?: number;
}
interface HookMatcher {
  matcher?: string;
  hooks: HookCommand[];
}
type Settings = Record<string, unknown> & { hooks?: Record<string, HookMatcher[]> };

/** Baton's own entries are the ones whose command runs `baton hook`; everything else belongs to the user. */
const isBaton = (h: HookCommand) => /(^|[\s/])baton(\.js)? hook /.test(h.command);

export const settingsPath = (project: string) => join(project, '.claude', 'settings.json');

function read(path: string): Settings {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw invalidInput(
      `${path} is not valid JSON (${(e as Error).message}); fix it by hand, Baton will not overwrite it`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidInput(`${path} must hold a JSON object`);
  const hooks = (parsed as Settings).hooks;
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) {
    throw invalidInput(`${path}: "hooks" must be an object of event names`);
  }
  return parsed as Settings;
}

function write(path: string, settings: Settings) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.baton-tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(tmp, path);
}

function withoutBaton(settings: Settings): Settings {
  const hooks: Record<string, HookMatcher[]> = {};
  for (const [event, matchers] of Object.entries(settings.hooks ?? {})) {
    const kept = (Array.isArray(matchers) ? matchers : [])
      .map((m) => ({ ...m, hooks: (m.hooks ?? []).filter((h) => !isBaton(h)) }))
      .filter((m) => m.hooks.length > 0);
    if (kept.length) hooks[event] = kept;
  }
  const { hooks: _, ...rest } = settings;
  return Object.keys(hooks).length ? { ...rest, hooks } : rest;
}

/** Merges Baton's hooks into the project's settings: idempotent, the user's own hooks untouched. */
export function installHooks(project: string, command = 'baton') {
  const path = settingsPath(project);
  const settings = withoutBaton(read(path));
  const hooks = { ...(settings.hooks ?? {}) };
  for (const event of hookEvents) {
    hooks[event] = [
      ...(hooks[event] ?? []),
      { hooks: [{ type: 'command', command: `${command} hook ${event}`, timeout: 60 }] },
    ];
  }
  write(path, { ...settings, hooks });
  return { path, events: [...hookEvents] };
}

/** Takes only Baton's entries out again. */
export function uninstallHooks(project: string) {
  const path = settingsPath(project);
  if (!existsSync(path)) return { path, removed: false };
  const before = read(path);
  write(path, withoutBaton(before));
  return { path, removed: true };
}
