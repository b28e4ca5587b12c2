import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { invalidInput } from '../../core/index.js';
import {
  agentFiles,
  claudeVersion,
  homesOf,
  initCommand,
  mcpScopeOf,
  unknownVersionNote,
  type Homes,
  type InitAgent,
  type InitScope,
} from './agent-files.js';
import { commandLine, type BatonCommand } from './hook-command.js';
import { commandsIn, hookKeys, hookSpecs, mergeBatonHooks, removeBatonHooks } from './hooks-file.js';
import { addBlock, instructionsBlock, removeBlock } from './instructions-block.js';
import { isObject, readJsonObject, writeJsonObject, writeOrRemove, type JsonObject } from './json-file.js';
import { absentKeys, keptNote, pruneEmpty, valueAt, type KeyPath } from './created-keys.js';
import { addMcp, mcpKeys, mcpRefusal, removeMcp } from './mcp-entry.js';
import { addExclude, hasExclude, removeExclude, standingLookup, type GitStanding } from './git-exclude.js';
import {
  joinKeys,
  keyRecord,
  manifestPath,
  projectKey,
  readManifest,
  type MadeKey,
  type Manifest,
} from './manifest.js';
import { otherWorktrees, repositoryWorktrees } from './worktrees.js';
import { putBackCommitted, teamHolds, teamKept, type TeamFile } from './team-files.js';
import { noteUndone } from '../hooks/hook-log.js';

export interface InitChange {
  agent: InitAgent | null;
  what: 'hooks' | 'mcp' | 'instructions' | 'git-exclude';
  path: string;
  change: string;
  /** What the change means that takes more than its line: said under the list (the hooks of an unknown version). */
  note?: string;
  /** The worktree it was made for: the one init ran in, or another worktree of its repository. */
  worktree: string;
  /** How the file runs Baton (`… hook <Event>`, `… mcp`, the block's commands): set up, not undone. */
  command?: string;
  /** The file is committed with the repository (`--shared`, or one git tracks): it names the committed command. */
  committed?: boolean;
  /**
   * Whose the change is, in `baton doctor`'s words: `local` (personal to this repository, not committed), `shared`
   * (a file committed with the repository), `user` (the user's own, for every repository).
   */
  scope: InitScope;
}

export interface InitInput {
  root: string;
  scope: InitScope;
  agents: InitAgent[];
  /** How an agent on this machine runs Baton: what files of this machine alone (personal, the user's) name. */
  command: BatonCommand;
  /** What files committed with the repository name: `baton` from each machine's PATH, unless `--command` chose. */
  committedCommand: BatonCommand;
  /**
   * This install by its paths (`installedCommand`), for the `baton init --command ...` a session start names when an
   * agent's PATH has no `baton` (null: not known, and the note says to give `--command` the path).
   */
  installed: BatonCommand | null;
  env: NodeJS.ProcessEnv;
  /** Baton's home (the manifest of what init created lives there). */
  home: string;
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
};

/** The files of the agents' set-up at `scope`: those `trackedAmong` asks about ahead. */
const agentPaths = (agents: readonly InitAgent[], scope: InitScope, root: string, homes: Homes) =>
  agents.flatMap((agent) => {
    const files = agentFiles(agent, scope, root, homes);
    return [files.hooks, files.mcp.path, files.instructions];
  });

/**
 * Whether git tracks a file of the repository, asked once for the files `ahead` (those of the repository among them):
 * init and undo write files and exclude lines but add nothing to git, so the answer holds while they run (which files
 * git ignores does not, and is not asked here). A file not among them is asked on its own.
 */
function trackedAmong(root: string, ahead: readonly string[]): (path: string) => boolean {
  const standing = standingLookup(
    root,
    ahead.filter((p) => inside(root, p)),
    false,
  );
  return (path) => standing(path) === 'tracked';
}

/** A file of the repository init writes at `scope` is committed with it: `--shared`, or the default and git tracks it. */
const isCommitted = (scope: InitScope, root: string, path: string, tracked: (path: string) => boolean) =>
  inside(root, path) && (scope === 'shared' || (scope === 'local' && tracked(path)));

/** The scope of a change to a file: that of the file's MCP entry (Codex's is the user's), else shared once committed. */
const changeScope = (scope: InitScope, committed: boolean, mcp: InitScope | null): InitScope =>
  mcp === 'user' ? 'user' : committed ? 'shared' : scope;

/**
 * Sets up the repository (or the user, with `user`) for the agents: Baton's hooks merged into their settings, the
 * MCP server registered, the short block in CLAUDE.md / AGENTS.md. Idempotent. With the default (local) scope, a
 * file init creates inside the repository is listed in `.git/info/exclude`, so `git status` stays as it was, and
 * every worktree of the repository is set up alike: those files are the worktree's own (git does not bring them to a
 * worktree added later), and each conversation in a worktree of its own is followed as its own workflow.
 */
export function init(input: InitInput): InitChange[] {
  // asked once: an older Claude Code rejects a settings file naming an event it does not know
  const claude = input.agents.includes('claude-code') ? claudeVersion(input.env) : null;
  const replaced = input.scope === 'shared' ? replaceLocal(input) : [];
  const roots = input.scope === 'local' ? [input.root, ...otherWorktrees(input.root)] : [input.root];
  return [...replaced, ...roots.flatMap((root) => initWorktree({ ...input, root }, claude))];
}

/**
 * A repository set up by a plain `baton init` before, now for everyone (`--shared`): its own set-up (the hooks in
 * settings.local.json, the MCP entry, the block and its exclude lines) is undone first, or every hook would run twice
 * (the two command lines differ, so the agent runs both). Only when the shared one covers it all: the same agents, and
 * no other worktree of the repository set up (the shared files reach those only with the branch); else it stays, and
 * `baton doctor` says the hooks run twice.
 */
function replaceLocal(input: InitInput): InitChange[] {
  const local = readManifest(manifestPath(input.home, input.root, 'local'));
  if (!local || !local.agents.every((a) => input.agents.includes(a))) return [];
  if (otherWorktrees(input.root).some((w) => isSetUp(input.home, w))) return [];
  const { root, env, home } = input;
  return undo({ root, scope: 'local', env, home }).map((c) => ({
    ...c,
    change: `${c.change} (replaced by the --shared set-up)`,
  }));
}

/** The files of the repository the `--shared` set-up of this worktree wrote, by its record in Baton's home. */
function sharedSetUpFiles(home: string, root: string, homes: Homes): string[] {
  const shared = readManifest(manifestPath(home, root, 'shared'));
  return shared ? agentPaths(shared.agents, 'shared', root, homes).filter((p) => inside(root, p)) : [];
}

/** Whether `baton init` (the default, local scope) set this worktree up, by its record in Baton's home. */
export const isSetUp = (home: string, root: string): boolean =>
  readManifest(manifestPath(home, root, 'local')) !== null;

/**
 * The scope a `baton init --undo` without --shared or --user undoes: the default's (personal) set-up, unless `--shared`
 * alone set the repository up. The default's CLAUDE.md, AGENTS.md and .codex/hooks.json are the shared set-up's files
 * too: where both are set up, the undo of the default leaves Baton's part of those to the shared one (`teamHolds`);
 * where the shared one alone is, an undo of the default would have taken Baton's part out of those and left the hooks
 * of .claude/settings.json wired, the files empty.
 */
export function plainUndoScope(home: string, root: string): InitScope {
  if ([root, ...otherWorktrees(root)].some((w) => isSetUp(home, w))) return 'local';
  return readManifest(manifestPath(home, root, 'shared')) !== null ? 'shared' : 'local';
}

/**
 * The other worktrees of the repository that `baton init` did not set up, when it set up `root` (its default scope):
 * a session started in one is not followed. None when `root` is not set up by it either (the plugin and `--user`
 * follow every folder; `--shared` settings come with the branch).
 */
export function worktreesNotSetUp(home: string, root: string): string[] {
  if (!isSetUp(home, root)) return [];
  return otherWorktrees(root).filter((w) => !isSetUp(home, w));
}

/** What to tell the user of worktrees `worktreesNotSetUp` found, with the one command that sets them up. */
export const notSetUpNote = (worktrees: readonly string[]) =>
  `Baton follows this worktree but not ${worktrees.length === 1 ? `the worktree ${worktrees[0]}` : `the worktrees ${worktrees.join(', ')}`} of the same repository (added after \`baton init\`): a session started there is not followed; run \`baton init\` in any worktree to set up every one`;

function initWorktree(input: InitInput, claude: ReturnType<typeof claudeVersion> | null): InitChange[] {
  const { root, scope } = input;
  const homes = homesOf(input.env);
  const mPath = manifestPath(input.home, root, scope);
  const previous = readManifest(mPath);
  const created = new Set(previous?.created ?? []);
  const excluded = new Set(previous?.excluded ?? []);
  const originals: Record<string, string> = { ...previous?.originals };
  // the objects init makes to hold its entries; not recorded over an earlier Baton's set-up, its undo staying as it was
  const made: MadeKey[] | null = previous && !previous.keys ? null : [];
  const noteMade = (file: string, keys: readonly KeyPath[]) =>
    made?.push(...keys.map((key) => ({ file, key })));
  const changes: InitChange[] = [];
  const change = (c: Omit<InitChange, 'worktree'>) => changes.push({ ...c, worktree: root });
  const tracked = trackedAmong(root, [...agentPaths(input.agents, scope, root, homes), ...created]);
  const note = (path: string) => {
    if (existsSync(path)) return;
    for (let d = dirname(path); !existsSync(d); d = dirname(d)) created.add(d);
    created.add(path);
  };
  // a file a teammate's clone gets names `baton`, not this machine's install (which their machine does not have)
  const standing = new Map<string, boolean>();
  // the files of this worktree's --shared set-up (CLAUDE.md, AGENTS.md, .codex/hooks.json are the default's too): the
  // team's to commit, so the default writes them as it writes a committed file, naming `baton`, never this install
  const teamFiles =
    scope === 'local' ? new Set(sharedSetUpFiles(input.home, root, homes)) : new Set<string>();
  const committed = (path: string) => {
    if (!standing.has(path))
      standing.set(path, isCommitted(scope, root, path, tracked) || teamFiles.has(path));
    return standing.get(path)!;
  };
  const commandFor = (path: string) => (committed(path) ? input.committedCommand : input.command);
  // a Codex config.toml that does not parse is written to never: refused before any file is touched
  for (const agent of input.agents) {
    // the command to run again sets up every agent this one did
    const again = initCommand(scope, input.agents.length > 1 ? 'all' : agent);
    const refused = mcpRefusal(agentFiles(agent, scope, root, homes).mcp, again);
    if (refused) throw invalidInput(refused);
  }
  const said = (path: string, rest: string[], mcp: InitScope | null = null) => ({
    command: commandLine(commandFor(path), rest),
    committed: committed(path),
    scope: changeScope(scope, committed(path), mcp),
  });
  for (const agent of input.agents) {
    const files = agentFiles(agent, scope, root, homes);
    note(files.hooks);
    // an older Claude Code rejects a settings file naming an event it does not know (and loses every hook in it)
    const { version, unread } = agent === 'claude-code' && claude ? claude : { version: null, unread: null };
    const shown = inside(root, files.hooks) ? relative(root, files.hooks) : files.hooks;
    // a committed file says what takes the team's set-up out, whichever set-up wrote it (its text is the same)
    const undo = `baton init --undo${committed(files.hooks) ? ' --shared' : scope === 'local' ? '' : ` --${scope}`}`;
    const by = input.installed ? `"${commandLine(input.installed, [])}"` : '"<node> <path of bin/baton.js>"';
    const specs = hookSpecs(
      agent,
      commandFor(files.hooks),
      version,
      committed(files.hooks)
        ? { file: shown, undo, committed: true }
        : { file: shown, undo, committed: false, rewrite: `${initCommand(scope, agent)} --command ${by}` },
    );
    const left = hookSpecs(agent, input.command).filter((h) => !specs.some((s) => s.event === h.event));
    let unchanged;
    const existed = existsSync(files.hooks);
    try {
      const settings = readJsonObject(files.hooks);
      const merged = mergeBatonHooks(settings, specs);
      unchanged = existed && JSON.stringify(merged) === JSON.stringify(settings);
      if (!unchanged) {
        const absent = absentKeys(settings, hookKeys(specs.map((h) => h.event)));
        // a file git tracks as Baton first found it, for undo to put back as it was (the team sees no diff); only
        // those: a personal settings file may hold secrets (`env`), which Baton's home keeps no copy of
        if (existed && !created.has(files.hooks) && tracked(files.hooks))
          originals[files.hooks] ??= readFileSync(files.hooks, 'utf8');
        writeJsonObject(files.hooks, merged);
        noteMade(files.hooks, absent);
      }
    } catch (e) {
      throw invalidInput(`${files.hooks}: ${(e as Error).message}`);
    }
    const without = left.length
      ? ` (without ${left.map((h) => h.event).join(', ')}: Claude Code ${version} does not know them; update it, then run \`baton init\` again)`
      : unread
        ? " (Claude Code's version is unknown: see the note)"
        : '';
    change({
      agent,
      what: 'hooks',
      path: files.hooks,
      change: `${unchanged ? 'unchanged' : existed ? 'merged' : 'added'}${without}`,
      ...(unread && !left.length ? { note: unknownVersionNote(unread) } : {}),
      ...said(files.hooks, ['hook', '<Event>']),
    });
    note(files.mcp.path);
    const containers = mcpKeys(files.mcp);
    const absent = containers.length ? absentKeys(readJsonObject(files.mcp.path), containers) : [];
    const added = addMcp(files.mcp, commandFor(files.mcp.path));
    noteMade(files.mcp.path, absent);
    // an earlier Baton's manifest notes the project's entry alone, as that Baton did
    if (!made && absent.some((k) => k.length === 2)) created.add(projectKey(files.mcp.path, root));
    change({
      agent,
      what: 'mcp',
      path: files.mcp.path,
      change: added,
      ...said(files.mcp.path, ['mcp'], mcpScopeOf(agent, scope, root, homes)),
    });
    note(files.instructions);
    const cli = commandLine(commandFor(files.instructions), []);
    change({
      agent,
      what: 'instructions',
      path: files.instructions,
      change: addBlock(files.instructions, instructionsBlock(agent, cli)),
      ...said(files.instructions, []),
    });
  }
  if (scope === 'local') {
    // the exclude file itself is asked, not the manifest: a repository deleted and made again at the same path (or
    // an exclude file edited by hand) lost the lines the manifest says were added
    for (const path of ownFiles(root, created))
      if (!tracked(path) && addExclude(root, path)) {
        change({
          agent: null,
          what: 'git-exclude',
          path,
          change: excluded.has(path) ? 'excluded again (.git/info/exclude no longer listed it)' : 'excluded',
          scope: 'local',
        });
        excluded.add(path);
      }
    // a file the repository already commits (Codex's AGENTS.md, .codex/hooks.json) cannot be kept out of it: said
    for (const c of changes)
      if (c.what !== 'git-exclude' && !c.change.startsWith('unchanged') && inside(root, c.path))
        if (tracked(c.path))
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
    ...(made ? { keys: joinKeys(previous?.keys ?? [], made) } : {}),
    ...(Object.keys(originals).length ? { originals } : {}),
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
export function unexcludedFiles(
  home: string,
  root: string,
  standing?: (path: string) => GitStanding | null,
): string[] {
  const m = readManifest(manifestPath(home, root, 'local'));
  const files = ownFiles(root, m?.created ?? []);
  const standingOf = standing ?? standingLookup(root, files);
  return files.filter((p) => standingOf(p) === 'untracked');
}

const isDir = (p: string) => {
  try {
    return readdirSync(p) !== null;
  } catch {
    return false;
  }
};

type UndoInput = Omit<InitInput, 'command' | 'committedCommand' | 'installed' | 'agents'> & {
  agents?: InitAgent[];
};

/**
 * Removes exactly what init added: Baton's hooks, MCP entry and block; files and folders it created, once empty. With
 * the default (local) scope, from every worktree of the repository init set up, as init sets them all up; a line of
 * the exclude file they share goes only when no worktree holds that file any more (a settings file with the user's
 * own settings left in it stays out of git).
 */
export function undo(input: UndoInput): InitChange[] {
  const roots =
    input.scope === 'local'
      ? [input.root, ...otherWorktrees(input.root).filter((w) => isSetUp(input.home, w))]
      : [input.root];
  const undone = roots.map((root) => manifestPath(input.home, root, input.scope));
  const left: Left = { excluded: [], files: [], dirs: [], servers: [], team: [] };
  const changes = roots.flatMap((root) => undoWorktree({ ...input, root }, undone, left));
  // doctor then says the hooks were taken out on purpose, not that they went missing
  const at = new Date().toISOString();
  // not where Baton's home was removed (uninstalling): the undo would make it again for that note alone
  if (existsSync(input.home)) for (const root of roots) noteUndone(input.home, root, at);
  // the objects Baton's servers were in that init made (`projects` may hold every worktree's entry), once all are undone
  changes.push(...pruneServers(left.servers));
  // the files and folders init made that the worktrees shared (~/.claude.json, ~/.codex/), once all are undone; a
  // file deleted is said so, as a settings file init made is (one word for one thing)
  for (const path of left.files)
    if (deleteIfEmpty(path))
      for (const c of changes) if (c.path === path && c.change === 'removed') c.change = 'deleted';
  // folders init made, deepest first, when nothing is left in them
  for (const dir of left.dirs.sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty: something else lives there now (or it is gone already)
    }
  }
  const excluded = left.excluded;
  const worktrees = excluded.length ? repositoryWorktrees(input.root) : [];
  // what git tracks of the files the lines keep out, asked of each worktree at once (an undo adds nothing to git)
  const rels = [...new Set(excluded.map(({ root, path }) => relative(root, path)))];
  const trackedIn = new Map(
    worktrees.map((w) => [
      w,
      trackedAmong(
        w,
        rels.map((rel) => join(w, rel)),
      ),
    ]),
  );
  const lines = new Set<string>();
  for (const { root, path } of excluded) {
    const rel = relative(root, path);
    // one line of the shared file serves every worktree's file at that path
    if (lines.has(rel)) continue;
    lines.add(rel);
    // a file left to the team's set-up is theirs to commit: the line keeps it out of git no more
    const held = worktrees
      .map((w) => ({ w, file: join(w, rel) }))
      .find(({ w, file }) => existsSync(file) && !trackedIn.get(w)!(file) && !left.team.includes(file));
    if (held)
      changes.push({
        agent: null,
        what: 'git-exclude',
        path,
        change: `kept: ${held.file} is still there, and git would commit it without the line`,
        worktree: root,
        scope: 'local',
      });
    else if (removeExclude(root, path))
      changes.push({
        agent: null,
        what: 'git-exclude',
        path,
        change: 'removed',
        worktree: root,
        scope: 'local',
      });
  }
  return changes;
}

/**
 * What an undo does once every worktree's set-up is undone: the objects init made that Baton's servers were in, files
 * and folders that may be empty, exclude lines.
 */
interface Left {
  excluded: { root: string; path: string }[];
  files: string[];
  dirs: string[];
  servers: LeftServers[];
  /** The files the personal set-up shares with the team's, left to it (Baton's part kept in them). */
  team: string[];
}

/** The objects init made in a file to hold Baton's MCP server, and the undo's line for that file. */
interface LeftServers {
  file: string;
  keys: KeyPath[];
  /** The one holding the servers, when the manifest records that init made it: said when it is kept. */
  servers: KeyPath | null;
  /**
   * Without a record of the set-up: the object holding the servers, taken out once empty only when nothing else is
   * beside it (a shell Baton made; Claude Code writes an empty `mcpServers` itself beside its other keys).
   */
  lone?: KeyPath;
  line: Omit<InitChange, 'change'>;
}

/** Whether the key holds an empty object with nothing beside it. */
const isLone = (doc: JsonObject, key: KeyPath) => {
  const holder = valueAt(doc, key.slice(0, -1));
  const value = valueAt(doc, key);
  return (
    isObject(holder) && Object.keys(holder).length === 1 && isObject(value) && !Object.keys(value).length
  );
};

const sameKey = (a: KeyPath, b: KeyPath) => JSON.stringify(a) === JSON.stringify(b);

/** Takes out the objects init made that are empty now, and says which of those holding servers are kept. */
function pruneServers(left: readonly LeftServers[]): InitChange[] {
  const said: InitChange[] = [];
  for (const file of new Set(left.map((l) => l.file))) {
    if (!existsSync(file)) continue;
    const its = left.filter((l) => l.file === file);
    const doc = readJsonObject(file);
    const lone = its.flatMap((l) => (l.lone && isLone(doc, l.lone) ? [l.lone] : []));
    const { pruned, kept } = pruneEmpty(doc, [...its.flatMap((l) => l.keys), ...lone]);
    if (pruned.length) writeJsonObject(file, doc);
    for (const { servers, line } of its)
      if (servers && kept.some((k) => sameKey(k, servers))) {
        const inside = valueAt(doc, servers);
        said.push({ ...line, change: keptNote(servers, isObject(inside) ? Object.keys(inside) : []) });
      }
  }
  return said;
}

/**
 * Undoes one worktree's set-up (`undone`: the manifests of every set-up this undo removes, never counted as another
 * that still needs a shared entry); its exclude lines, and the files and folders it made that may be empty now, are
 * left to the caller.
 */
function undoWorktree(input: UndoInput, undone: readonly string[], left: Left): InitChange[] {
  const { root, scope } = input;
  const homes = homesOf(input.env);
  const mPath = manifestPath(input.home, root, scope);
  const m = readManifest(mPath);
  const created = new Set(m?.created ?? []);
  const agents = input.agents ?? m?.agents ?? (['claude-code', 'codex'] as InitAgent[]);
  const record = keyRecord(m);
  const changes: InitChange[] = [];
  const tracked = trackedAmong(root, [...agentPaths(agents, scope, root, homes), ...created]);
  // no record of the set-up (Baton's home removed, or never this Baton's): a file left holding nothing but Baton's
  // part is taken for one init made (deleted, unless git tracks it), as are the exclude lines naming the agents' files
  const unrecorded = m === null;
  const madeFile = (path: string) =>
    created.has(path) || (unrecorded && !(inside(root, path) && tracked(path)));
  const line = (c: Omit<InitChange, 'worktree' | 'scope' | 'change'>, mcp: InitScope | null = null) => ({
    ...c,
    worktree: root,
    scope: changeScope(scope, isCommitted(scope, root, c.path, tracked), mcp),
  });
  const change = (c: Omit<InitChange, 'worktree' | 'scope'>, mcp: InitScope | null = null) =>
    changes.push({ ...line(c, mcp), change: c.change });
  let others: Manifest[] | null = null;
  // the personal set-up's CLAUDE.md, AGENTS.md and .codex/hooks.json are the team's (--shared) files too: undoing
  // the one leaves Baton's part there to the other, said; undoing the team's says the personal one loses it
  const personal = scope === 'shared' && isSetUp(input.home, root);
  const keptForTeam = (agent: InitAgent, what: TeamFile, path: string) => {
    const why = scope === 'local' ? teamHolds(input.home, root, agent, what, homes) : null;
    if (why) {
      const putBack = putBackCommitted(root, path, what);
      changes.push({ ...line({ agent, what, path }), scope: 'shared', change: teamKept(why, putBack) });
      left.team.push(path);
    }
    return why !== null;
  };
  const alsoPersonal = (agent: InitAgent, what: TeamFile, path: string) =>
    personal && agentFiles(agent, 'local', root, homes)[what] === path
      ? ' (the personal set-up of `baton init` had it here too: `baton init` puts it back)'
      : '';
  // Baton's block is taken out of a Codex config.toml only where it parses: refused before any file is touched
  for (const agent of agents) {
    const refused = mcpRefusal(
      agentFiles(agent, scope, root, homes).mcp,
      `${initCommand(scope, agents.length > 1 ? 'all' : agent)} --undo`,
      true,
    );
    if (refused) throw invalidInput(refused);
  }
  for (const agent of agents) {
    const files = agentFiles(agent, scope, root, homes);
    const mcpScope = mcpScopeOf(agent, scope, root, homes);
    // whether this worktree had the agent set up: its record says so, or Baton's hooks were in its file
    let had = m?.agents.includes(agent) ?? false;
    if (keptForTeam(agent, 'hooks', files.hooks)) had = true;
    else if (existsSync(files.hooks)) {
      const r = removeBatonHooks(readJsonObject(files.hooks));
      had ||= r.removed > 0;
      const events = isObject(r.value.hooks) ? Object.keys(r.value.hooks) : [];
      const made = hookKeys(events).filter((k) => record.made(files.hooks, k));
      const { pruned, kept } = pruneEmpty(r.value, made);
      if (r.removed || (record.known && pruned.length)) {
        const done = writeOrRemove(files.hooks, r.value, madeFile(files.hooks), m?.originals?.[files.hooks]);
        change({
          agent,
          what: 'hooks',
          path: files.hooks,
          change: `${done === 'deleted' ? 'deleted' : 'removed'}${alsoPersonal(agent, 'hooks', files.hooks)}`,
        });
      }
      // an event's list init made, holding the user's hooks now (an earlier Baton's record cannot tell which it made)
      if (record.known)
        for (const k of kept.filter((k) => k.length === 2))
          change({
            agent,
            what: 'hooks',
            path: files.hooks,
            change: keptNote(k, commandsIn(valueAt(r.value, k))),
          });
    }
    // Codex's MCP entry of a repository lives in the user's config.toml: another repository set up for Codex needs it
    const sharedBy =
      files.mcp.kind === 'codex-toml'
        ? othersUsing((others ??= liveOtherSetUps(input.home, undone)), files.mcp.path, homes)
        : [];
    if (sharedBy.length) {
      // said where this worktree had the agent: the entry of other repositories only is nothing of this set-up's
      if (had)
        change(
          {
            agent,
            what: 'mcp',
            path: files.mcp.path,
            change: `kept: ${sharedBy.length === 1 ? 'another repository uses it' : `${sharedBy.length} other repositories use it`} (${sharedBy.join(', ')})`,
          },
          mcpScope,
        );
    } else {
      const removed = removeMcp(files.mcp) === 'removed';
      if (removed) change({ agent, what: 'mcp', path: files.mcp.path, change: 'removed' }, mcpScope);
      // the objects init made to hold it, taken out once every worktree is undone (an earlier Baton's undo: only when
      // it removed the entry)
      const all = mcpKeys(files.mcp);
      if (all.length && (removed || record.known)) {
        const keys = all.filter((k) => record.made(files.mcp.path, k));
        const servers = all.at(-1);
        left.servers.push({
          file: files.mcp.path,
          // without a record: the outer objects (`projects`, the project's entry) once empty, the servers' when alone
          keys: unrecorded && removed ? all.slice(0, -1) : keys,
          servers: record.known && servers && keys.includes(servers) ? servers : null,
          ...(unrecorded && removed && servers ? { lone: servers } : {}),
          line: line({ agent, what: 'mcp', path: files.mcp.path }, mcpScope),
        });
      }
      // another worktree's undo may have taken the entry out of the file this one made
      if (created.has(files.mcp.path) || (unrecorded && removed && madeFile(files.mcp.path)))
        left.files.push(files.mcp.path);
    }
    if (
      !keptForTeam(agent, 'instructions', files.instructions) &&
      removeBlock(files.instructions) === 'removed'
    ) {
      const deleted = madeFile(files.instructions) && deleteIfEmpty(files.instructions);
      change({
        agent,
        what: 'instructions',
        path: files.instructions,
        change: `${deleted ? 'deleted' : 'removed'}${alsoPersonal(agent, 'instructions', files.instructions)}`,
      });
    }
  }
  for (const path of m?.excluded ?? []) left.excluded.push({ root, path });
  left.dirs.push(...[...created].filter((p) => !p.includes('#') && isDir(p)));
  if (unrecorded) {
    const paths = agentPaths(agents, scope, root, homes);
    if (scope === 'local')
      for (const path of paths.filter((p) => inside(root, p) && hasExclude(root, p)))
        left.excluded.push({ root, path });
    // the folders of the files deleted, once empty (`.claude`, `.codex`, ~/.codex)
    left.dirs.push(...new Set(paths.map((p) => dirname(p)).filter((d) => d !== root && d !== homes.home)));
    if (changes.length) changes[0]!.note = unrecordedNote(manifestPath(input.home, root, scope));
  }
  rmSync(mPath, { force: true });
  return changes;
}

/** What an undo without the record of the set-up says it did, and what it could not tell. */
const unrecordedNote = (manifest: string) =>
  `no record of this set-up in Baton's home (${manifest}; removed with it?): Baton's entries were found by their commands and markers and taken out, a file or folder left empty without them deleted (unless git tracks it), and the exclude lines naming the agents' files removed; an empty \`mcpServers\` beside other keys stays (Claude Code writes one itself), and a file that was there before, empty, could not be told from one Baton made`;

/**
 * The other set-ups (their manifests in Baton's home, those in `own` left out) whose repository still exists. The
 * manifests of repositories deleted since are forgotten here, so a stale one never keeps a shared entry for ever.
 */
function liveOtherSetUps(home: string, own: readonly string[]): Manifest[] {
  const dir = join(home, 'init');
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
  const live: Manifest[] = [];
  for (const p of names.map((n) => join(dir, n)).filter((p) => !own.includes(p))) {
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

/** Deletes a file init made once nothing is left in it; whether it did. */
function deleteIfEmpty(path: string): boolean {
  if (!existsSync(path)) return false;
  const text = readFileSync(path, 'utf8').trim();
  let empty = text === '';
  if (!empty && text.startsWith('{'))
    try {
      empty = emptyJson(JSON.parse(text));
    } catch {
      // not JSON: the user's own text, kept
    }
  if (empty) rmSync(path);
  return empty;
}
