import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { invalidInput } from '../../core/index.js';
import {
  agentFiles,
  claudeVersion,
  homesOf,
  unknownVersionNote,
  type InitAgent,
  type InitScope,
} from './agent-files.js';
import { commandLine, type BatonCommand } from './hook-command.js';
import { hookSpecs, mergeBatonHooks, removeBatonHooks } from './hooks-file.js';
import { addBlock, instructionsBlock, removeBlock } from './instructions-block.js';
import { readJsonObject, writeJsonObject, writeOrRemove } from './json-file.js';
import { addMcp, hasProjectEntry, removeMcp } from './mcp-entry.js';
import { addExclude, gitStandingOf, removeExclude } from './git-exclude.js';
import { agentLabel } from '../../core/agent-label.js';

export interface InitChange {
  agent: InitAgent | null;
  what: 'hooks' | 'mcp' | 'instructions' | 'git-exclude';
  path: string;
  change: string;
}

/** What `baton init` created (so `--undo` deletes only those files, and only when nothing else is in them). */
interface Manifest {
  version: 1;
  root: string;
  scope: InitScope;
  agents: InitAgent[];
  created: string[];
  excluded: string[];
}

export interface InitInput {
  root: string;
  scope: InitScope;
  agents: InitAgent[];
  command: BatonCommand;
  env: NodeJS.ProcessEnv;
  /** Baton's home (the manifest of what init created lives there). */
  home: string;
}

/** The manifest's note that init created the project's entry in ~/.claude.json (not a file: never deleted as one). */
const projectKey = (claudeJson: string, root: string) => `${claudeJson}#projects/${root}`;

export function manifestPath(home: string, root: string, scope: InitScope): string {
  const key = scope === 'user' ? 'user' : createHash('sha256').update(root).digest('hex').slice(0, 16);
  return join(home, 'init', `${key}-${scope}.json`);
}

function readManifest(path: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    return m.version === 1 ? m : null;
  } catch {
    return null;
  }
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
};

/**
 * Sets up the repository (or the user, with `user`) for the agents: Baton's hooks merged into their settings, the
 * MCP server registered, the short block in CLAUDE.md / AGENTS.md. Idempotent. With the default (local) scope, a
 * file init creates inside the repository is listed in `.git/info/exclude`, so `git status` stays as it was.
 */
export function init(input: InitInput): InitChange[] {
  const { root, scope } = input;
  const homes = homesOf(input.env);
  const mPath = manifestPath(input.home, root, scope);
  const previous = readManifest(mPath);
  const created = new Set(previous?.created ?? []);
  const excluded = new Set(previous?.excluded ?? []);
  const changes: InitChange[] = [];
  const note = (path: string) => {
    if (existsSync(path)) return;
    for (let d = dirname(path); !existsSync(d); d = dirname(d)) created.add(d);
    created.add(path);
  };
  for (const agent of input.agents) {
    const files = agentFiles(agent, scope, root, homes);
    note(files.hooks);
    // an older Claude Code rejects a settings file naming an event it does not know (and loses every hook in it)
    const { version, unread } =
      agent === 'claude-code' ? claudeVersion(input.env) : { version: null, unread: null };
    const specs = hookSpecs(agent, input.command, version);
    const left = hookSpecs(agent, input.command).filter((h) => !specs.some((s) => s.event === h.event));
    let unchanged;
    try {
      const settings = readJsonObject(files.hooks);
      const merged = mergeBatonHooks(settings, specs);
      unchanged = existsSync(files.hooks) && JSON.stringify(merged) === JSON.stringify(settings);
      if (!unchanged) writeJsonObject(files.hooks, merged);
    } catch (e) {
      throw invalidInput(`${files.hooks}: ${(e as Error).message}`);
    }
    const without = left.length
      ? ` (without ${left.map((h) => h.event).join(', ')}: Claude Code ${version} does not know them; update it, then run \`baton init\` again)`
      : unread
        ? ` (${unknownVersionNote(unread)})`
        : '';
    changes.push({
      agent,
      what: 'hooks',
      path: files.hooks,
      change: `${unchanged ? 'unchanged' : 'merged'}${without}`,
    });
    note(files.mcp.path);
    if (!hasProjectEntry(files.mcp)) created.add(projectKey(files.mcp.path, root));
    changes.push({ agent, what: 'mcp', path: files.mcp.path, change: addMcp(files.mcp, input.command) });
    note(files.instructions);
    changes.push({
      agent,
      what: 'instructions',
      path: files.instructions,
      change: addBlock(
        files.instructions,
        instructionsBlock(agentLabel(agent), commandLine(input.command, [])),
      ),
    });
  }
  if (scope === 'local') {
    // the exclude file itself is asked, not the manifest: a repository deleted and made again at the same path (or
    // an exclude file edited by hand) lost the lines the manifest says were added
    for (const path of ownFiles(root, created))
      if (gitStandingOf(root, path) !== 'tracked' && addExclude(root, path)) {
        changes.push({
          agent: null,
          what: 'git-exclude',
          path,
          change: excluded.has(path) ? 'excluded again (.git/info/exclude no longer listed it)' : 'excluded',
        });
        excluded.add(path);
      }
    // a file the repository already commits (Codex's AGENTS.md, .codex/hooks.json) cannot be kept out of it: said
    for (const c of changes)
      if (c.what !== 'git-exclude' && !c.change.startsWith('unchanged') && inside(root, c.path))
        if (gitStandingOf(root, c.path) === 'tracked')
          c.change += ` (git tracks this file: the change shows in \`git status\`; commit it, or undo with \`baton init --undo\` and use --user)`;
  }
  const agents = [...new Set([...(previous?.agents ?? []), ...input.agents])];
  writeJsonObject(mPath, {
    version: 1,
    root,
    scope,
    agents,
    created: [...created],
    excluded: [...excluded],
  } satisfies Manifest as unknown as Record<string, unknown>);
  return changes;
}

/** The files a set-up created inside the repository (not its folders, not an entry of a user file). */
const ownFiles = (root: string, created: Iterable<string>) =>
  [...created].filter((p) => inside(root, p) && existsSync(p) && !isDir(p));

/**
 * The files `baton init` created in this repository (its default, local scope) that git would commit: neither
 * tracked nor ignored, so an agent's `git add -A` takes this machine's settings into the repository.
 */
export function unexcludedFiles(home: string, root: string): string[] {
  const m = readManifest(manifestPath(home, root, 'local'));
  return ownFiles(root, m?.created ?? []).filter((p) => gitStandingOf(root, p) === 'untracked');
}

const isDir = (p: string) => {
  try {
    return readdirSync(p) !== null;
  } catch {
    return false;
  }
};

/** Removes exactly what init added: Baton's hooks, MCP entry and block; files and folders it created, once empty. */
export function undo(input: Omit<InitInput, 'command' | 'agents'> & { agents?: InitAgent[] }): InitChange[] {
  const { root, scope } = input;
  const homes = homesOf(input.env);
  const mPath = manifestPath(input.home, root, scope);
  const m = readManifest(mPath);
  const created = new Set(m?.created ?? []);
  const agents = input.agents ?? m?.agents ?? (['claude-code', 'codex'] as InitAgent[]);
  const changes: InitChange[] = [];
  let others: Manifest[] | null = null;
  for (const agent of agents) {
    const files = agentFiles(agent, scope, root, homes);
    if (existsSync(files.hooks)) {
      const r = removeBatonHooks(readJsonObject(files.hooks));
      if (r.removed) {
        const done = writeOrRemove(files.hooks, r.value, created.has(files.hooks));
        changes.push({
          agent,
          what: 'hooks',
          path: files.hooks,
          change: done === 'deleted' ? 'deleted' : 'removed',
        });
      }
    }
    // Codex's MCP entry of a repository lives in the user's config.toml: another repository set up for Codex needs it
    const sharedBy =
      files.mcp.kind === 'codex-toml'
        ? othersUsing((others ??= liveOtherSetUps(input.home, mPath)), files.mcp.path, homes)
        : [];
    if (sharedBy.length) {
      changes.push({
        agent,
        what: 'mcp',
        path: files.mcp.path,
        change: `kept: ${sharedBy.length === 1 ? 'another repository uses it' : `${sharedBy.length} other repositories use it`} (${sharedBy.join(', ')})`,
      });
    } else if (removeMcp(files.mcp, created.has(projectKey(files.mcp.path, root))) === 'removed') {
      changes.push({ agent, what: 'mcp', path: files.mcp.path, change: 'removed' });
      if (created.has(files.mcp.path)) deleteIfEmpty(files.mcp.path);
    }
    if (removeBlock(files.instructions) === 'removed') {
      changes.push({ agent, what: 'instructions', path: files.instructions, change: 'removed' });
      if (created.has(files.instructions)) deleteIfEmpty(files.instructions);
    }
  }
  for (const path of m?.excluded ?? [])
    if (removeExclude(root, path))
      changes.push({ agent: null, what: 'git-exclude', path, change: 'removed' });
  // Folders init made, deepest first, when nothing is left in them.
  for (const dir of [...created]
    .filter((p) => !p.includes('#') && isDir(p))
    .sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty: something else lives there now
    }
  }
  rmSync(mPath, { force: true });
  return changes;
}

/**
 * The other set-ups (their manifests in Baton's home, `own` left out) whose repository still exists. The manifests of
 * repositories deleted since are forgotten here, so a stale one never keeps a shared entry for ever.
 */
function liveOtherSetUps(home: string, own: string): Manifest[] {
  const dir = join(home, 'init');
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
  const live: Manifest[] = [];
  for (const p of names.map((n) => join(dir, n)).filter((p) => p !== own)) {
    const m = readManifest(p);
    if (m && existsSync(m.root)) live.push(m);
    else if (m && m.scope !== 'user') rmSync(p, { force: true });
  }
  return live;
}

/** The roots of the set-ups among `others` whose Codex MCP entry is the file `path`. */
function othersUsing(others: readonly Manifest[], path: string, homes: ReturnType<typeof homesOf>): string[] {
  return others
    .filter((m) => m.agents.includes('codex'))
    .filter((m) => agentFiles('codex', m.scope, m.root, homes).mcp.path === path)
    .map((m) => m.root);
}

/** `{}`, or an object whose every value is such an object (`{"projects": {}}`, `{"mcpServers": {}}`). */
const emptyJson = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(emptyJson);

function deleteIfEmpty(path: string) {
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8').trim();
  let empty = text === '';
  if (!empty && text.startsWith('{'))
    try {
      empty = emptyJson(JSON.parse(text));
    } catch {
      // not JSON: the user's own text, kept
    }
  if (empty) rmSync(path);
}
