import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { codexHookEvents, hookEventsFor, isHookEvent } from '../hooks/hook-payload.js';
import type { HookRecord } from '../hooks/hook-log.js';
import { unheardClaudeHooks } from './unheard-hooks.js';
import {
  hookFailureClears,
  hookFailureKind,
  hookFailureStep,
  type HookLines,
} from '../hooks/hook-failure.js';
import {
  agentFiles,
  claudeVersion,
  unknownVersionNote,
  homesOf,
  initAgents,
  initCommand,
  mcpScopeOf,
  onPath,
  type InitAgent,
  type InitScope,
} from './agent-files.js';
import { INSTALL_STEPS, machinePaths, parseCommand, unguarded } from './hook-command.js';
import { batonHookPlaces, batonHooksIn } from './hooks-file.js';
import { blockCommand, hasBlock } from './instructions-block.js';
import { isObject, readJsonObject } from './json-file.js';
import { CODEX_MCP_FORWARDS, findMcp, mcpRefusal } from './mcp-entry.js';
import {
  codexConfigError,
  codexHookKey,
  codexHookStates,
  codexHooksOff,
  codexTrust,
} from '../../agents/codex/codex-config.js';
import { standingLookup, type GitStanding } from './git-exclude.js';
import { isSetUp, notSetUpNote, unexcludedFiles, worktreesNotSetUp } from './init.js';
import { otherWorktrees } from './worktrees.js';
import { agentLabel } from '../../core/agent-label.js';
import { clip } from '../../core/clip.js';
import { PACKAGE_NAME } from '../../config/package-info.js';

const scopes: InitScope[] = ['local', 'shared', 'user'];

export interface HookWiring {
  scope: InitScope;
  /**
   * Every scope whose hooks go into this file. Codex's default and `--shared` both write `.codex/hooks.json`: it is
   * `local` when git ignores it (init excludes it), `shared` when it is committed, both while it is neither.
   */
  scopes: InitScope[];
  path: string;
  events: string[];
  missing: string[];
  /** Events the installed Claude Code does not know: it skips the whole settings file. */
  unknown: string[];
  command: string | null;
  /** The program the command starts is there (on the PATH, or the file exists). */
  runnable: boolean;
  /** The file is committed with the repository (git tracks it, or `--shared` wrote it and git does not ignore it). */
  committed: boolean;
}

export interface AgentWiring {
  agent: InitAgent;
  /** The installed Claude Code's version (null for Codex, or when `claude --version` does not answer). */
  version: string | null;
  /** Why there is no version: `claude` is not on the PATH, or `claude --version` did not answer. */
  version_unread?: string;
  hooks: HookWiring[];
  /** `forwards`: the variables Codex passes on to the server (null: Claude Code, which passes them all). */
  mcp: {
    scope: InitScope;
    path: string;
    command: string;
    committed: boolean;
    forwards: string[] | null;
    /** Whether it runs `baton mcp --agent <name>`: what the agent does through the tools is then its own. */
    names_agent: boolean;
  }[];
  instructions: string[];
  /** Claude Code settings that enable a plugin named baton. */
  plugin: string[];
}

/** Whether the program a hook command starts can be found (past the guard of a committed file's hook). */
export function runnable(command: string, env: NodeJS.ProcessEnv): boolean {
  const { program, args } = parseCommand(unguarded(command).run);
  // a path the agent's shell expands or finds from the folder it runs in (a plugin's ${CLAUDE_PLUGIN_ROOT}, $HOME/...,
  // ./bin/baton): not judged from here
  if (program.includes('$') || (!isAbsolute(program) && program.includes('/'))) return true;
  const found = isAbsolute(program) ? existsSync(program) : onPath(program, env) !== null;
  // `node /path/to/baton/bin/baton.js`: the script it runs must be there too
  const script = /^node(?:js)?(?:\.exe)?$/.test(basename(program))
    ? args.find((a) => !a.startsWith('-'))
    : undefined;
  return found && (script === undefined || !isAbsolute(script) || existsSync(script));
}

function readSettings(path: string) {
  try {
    return existsSync(path) ? readJsonObject(path) : null;
  } catch {
    return null;
  }
}

/**
 * Baton's hooks wired in two settings files (a plain `baton init` here, and `--user` or `--shared`): each event runs
 * twice. Claude Code runs identical hook commands once; Codex is not known to.
 */
export function hooksTwice(w: AgentWiring): string | null {
  const runsTwice =
    w.agent === 'codex' ? w.hooks.length > 1 : new Set(w.hooks.map((h) => h.command)).size > 1;
  return runsTwice
    ? `${agentLabel(w.agent)} runs Baton's hooks twice, from ${w.hooks.map((h) => h.path).join(' and ')}: every event is answered twice (the context injected twice); keep one (\`baton init --undo\` with --user or --shared for the one to drop)`
    : null;
}

/** Baton's hooks wired in settings files and by the plugin too: each event runs twice (the context injected twice). */
export function hooksAndPlugin(w: AgentWiring): string | null {
  return w.hooks.length && w.plugin.length
    ? `${agentLabel(w.agent)} runs Baton's hooks twice, from ${w.hooks.map((h) => h.path).join(', ')} and from the plugin ${w.plugin.join(', ')}: keep one (\`baton init --undo\`, or disable the plugin)`
    : null;
}

/** Baton's hooks call it for this agent here (a settings file's, or the plugin's): its sessions are followed. */
export const isWired = (w: AgentWiring): boolean => w.hooks.length > 0 || w.plugin.length > 0;

/**
 * The agents whose sessions in this worktree Baton's hooks follow, read from their files alone (no agent CLI is asked,
 * so it is cheap enough for a command's message): what `baton doctor` lists as wired.
 */
export const followingAgents = (root: string, env: NodeJS.ProcessEnv): InitAgent[] => {
  const standing = setUpStandings(root, env);
  return initAgents.filter((a) => isWired(wiringOf(a, root, env, false, standing)));
};

/**
 * What git says of the files of the repository `root` (see `gitStandings`), asked at once for every agent's files of
 * every scope, at the first question: for a caller that writes none of them before its last question.
 */
export function setUpStandings(root: string, env: NodeJS.ProcessEnv): (path: string) => GitStanding | null {
  const homes = homesOf(env);
  const files = initAgents.flatMap((agent) =>
    scopes.flatMap((scope) => {
      const f = agentFiles(agent, scope, root, homes);
      return [f.hooks, f.mcp.path, f.instructions];
    }),
  );
  return standingLookup(
    root,
    files.filter((p) => p.startsWith(`${root}${sep}`)),
  );
}

/**
 * What is wired for one agent in this repository, at every scope. `askVersion` false: Claude Code's version is not
 * asked (`claude --version` takes a while), for a caller that wants only what the files say. `standing`: git's answers
 * a caller asking about several agents shares (see `setUpStandings`).
 */
export function wiringOf(
  agent: InitAgent,
  root: string,
  env: NodeJS.ProcessEnv,
  askVersion = true,
  standing = setUpStandings(root, env),
): AgentWiring {
  const homes = homesOf(env);
  const { version, unread } =
    agent === 'claude-code' && askVersion ? claudeVersion(env) : { version: null, unread: null };
  const expected: readonly string[] = hookEventsFor(agent, version);
  const out: AgentWiring = {
    agent,
    version,
    ...(unread ? { version_unread: unread } : {}),
    hooks: [],
    mcp: [],
    instructions: [],
    plugin: [],
  };
  const seenMcp = new Set<string>();
  const seenBlocks = new Set<string>();
  const seenHooks = new Set<string>();
  for (const scope of scopes) {
    const files = agentFiles(agent, scope, root, homes);
    // Codex keeps a repository's hooks in one file whatever the scope: listed once, with every scope it serves.
    const listed = out.hooks.find((h) => h.path === files.hooks);
    if (listed) listed.scopes.push(scope);
    const settings = seenHooks.has(files.hooks) ? null : readSettings(files.hooks);
    seenHooks.add(files.hooks);
    if (settings) {
      const found = batonHooksIn(settings);
      if (found.size) {
        const command = [...found.values()][0]?.command ?? null;
        out.hooks.push({
          scope,
          scopes: [scope],
          path: files.hooks,
          events: [...found.keys()],
          missing: expected.filter((e) => !found.has(e)),
          // only Claude Code is known to skip a settings file that names an event it does not know
          unknown:
            agent === 'claude-code'
              ? [...found.keys()].filter((e) => isHookEvent(e) && !expected.includes(e))
              : [],
          command,
          runnable: command ? runnable(command, env) : false,
          committed: false,
        });
      }
      const plugins = settings.enabledPlugins;
      if (agent === 'claude-code' && isObject(plugins))
        for (const [name, on] of Object.entries(plugins))
          if (on === true && /^baton@/.test(name)) out.plugin.push(`${name} (${files.hooks})`);
    }
    const key = `${files.mcp.kind}:${files.mcp.path}:${files.mcp.kind === 'claude-json' ? files.mcp.project : ''}`;
    if (!seenMcp.has(key)) {
      seenMcp.add(key);
      const mcp = findMcp(files.mcp);
      // Codex's MCP servers of every scope but --shared are the user's own ~/.codex/config.toml: said as such
      const mcpScope = mcpScopeOf(agent, scope, root, homes);
      if (mcp)
        out.mcp.push({
          scope: mcpScope,
          path: files.mcp.path,
          command: [mcp.command, ...mcp.args].join(' '),
          committed: committedFile(root, files.mcp.path, [mcpScope], standing),
          forwards: mcp.forwards,
          names_agent: mcp.names_agent,
        });
    }
    if (!seenBlocks.has(files.instructions) && hasBlock(files.instructions))
      out.instructions.push(files.instructions);
    seenBlocks.add(files.instructions);
  }
  // a file that serves both of a repository's scopes (Codex's .codex/hooks.json) is the one git says it is
  for (const h of out.hooks) {
    if (!h.scopes.includes('local') || !h.scopes.includes('shared')) continue;
    const git = standing(h.path);
    const only: InitScope | null = git === 'ignored' ? 'local' : git === 'tracked' ? 'shared' : null;
    if (only) Object.assign(h, { scope: only, scopes: h.scopes.filter((x) => x === only || x === 'user') });
  }
  for (const h of out.hooks) h.committed = committedFile(root, h.path, h.scopes, standing);
  return out;
}

/**
 * Whether a file is committed with the repository: git tracks it, or only `--shared` writes it there and git does
 * not ignore it (Codex's `.codex/hooks.json`, which the default writes too, counts once git tracks it).
 */
function committedFile(
  root: string,
  path: string,
  scopes: readonly InitScope[],
  standing: (path: string) => GitStanding | null,
): boolean {
  if (!path.startsWith(`${root}${sep}`)) return false;
  const git = standing(path);
  return git === 'tracked' || (git === 'untracked' && scopes.includes('shared') && !scopes.includes('local'));
}

/**
 * Why a committed file's Baton command fails in a teammate's clone, or null: it names a path of this machine
 * (`/usr/bin/node /home/me/baton/bin/baton.js`), which their machine does not have. `says` leads ("… hooks in X run").
 */
function committedCommandProblem(says: string, command: string, init: string): string | null {
  const run = unguarded(command).run;
  const paths = machinePaths(parseCommand(run));
  if (!paths.length) return null;
  return `${says} "${run}" (committed with the repository): ${paths.join(' ')} ${paths.length === 1 ? 'is a path' : 'are paths'} of this machine, which a teammate's clone does not have (unless Baton is there on every machine): run \`${init}\` again, which names \`baton\` there, from each machine's PATH`;
}

/** `npx -y baton`: what `baton init` run through npx wrote before it named the package Baton is published as. */
const wrongPackage = (command: string) => {
  const c = parseCommand(unguarded(command).run);
  return c.program === 'npx' && c.args.includes('baton');
};

/**
 * Why Codex will not run the project hooks in `hooks` (Codex loads a project's `.codex/` only in a folder
 * `$CODEX_HOME/config.toml` trusts: with no entry it loads them disabled, and Baton follows nothing), with the fix;
 * null when it trusts the folder. Said by `init` and `doctor` alike.
 */
export function codexTrustProblem(root: string, env: NodeJS.ProcessEnv, hooks: string): string | null {
  const { codexDir } = homesOf(env);
  const config = join(codexDir, 'config.toml');
  // a config that does not parse trusts nothing: Codex does not start with it
  if (codexConfigError(codexDir) !== null) return unparsableCodexConfig(config, 'local');
  const trust = codexTrust(root, codexDir);
  if (trust?.level === 'trusted') return null;
  const why = trust
    ? `${config} marks this one untrusted ([projects."${trust.folder}"])`
    : `${config} does not trust this folder yet`;
  const how = trust
    ? `change its trust_level to "trusted" there`
    : `start \`codex\` here and choose to trust the folder when it asks (\`codex exec\` never asks), or add the table \`[projects."${root}"]\` with the line \`trust_level = "trusted"\` under it`;
  return `Codex runs the hooks in ${hooks} only in a trusted project, and ${why}, so Baton follows no Codex session here: ${how} (or use \`baton init --user --agent codex\`)`;
}

/**
 * Why a Codex config.toml does not parse, as `baton init` says it when it refuses to write to it, with what to do
 * (`scope`: the `baton init` that writes it); null when it parses, or is not there.
 */
const unparsableCodexConfig = (path: string, scope: InitScope): string | null =>
  mcpRefusal({ kind: 'codex-toml', path }, initCommand(scope, 'codex'));

/**
 * How a person has Codex run hooks it has not trusted yet, said by `init` and `doctor` alike: Codex runs a hook
 * (other than an administrator's) only once someone trusted its exact definition, asks at its start ("Hooks need
 * review"), and records the trust in `$CODEX_HOME/config.toml`; `codex exec` asks nobody.
 */
export const trustCodexHooks =
  'start `codex` in a terminal and choose "Trust all and continue" when it says "Hooks need review" (or type `/hooks` there and trust them); `codex exec` never asks';

/**
 * The events whose hooks every Codex with hooks lists, so a trust it never recorded for one is missing, not an event
 * it does not know: StopFailure, SessionEnd and Interrupt are left out (a Codex older than them ignores their hooks:
 * it lists none and records no trust).
 */
const codexListedEvents = new Set<string>(
  codexHookEvents.filter((e) => e !== 'StopFailure' && e !== 'SessionEnd' && e !== 'Interrupt'),
);

/**
 * Why Codex will not run Baton's hooks in one hooks file although they are there, with what to do: hooks turned off
 * in its config, Baton's hooks never trusted (no `trusted_hash` where Codex records one for each, keyed by the file,
 * the event and the hook's place in it), or turned off one by one in `/hooks`. A trust Codex recorded for an older
 * definition of a hook is not seen: only Codex can hash a hook as it does (it then asks again at its start).
 */
export function codexHookProblems(h: HookWiring, env: NodeJS.ProcessEnv): string[] {
  const { codexDir } = homesOf(env);
  const config = join(codexDir, 'config.toml');
  const off = codexHooksOff(codexDir);
  if (off)
    return [
      `Codex runs no hooks at all, so Baton follows no Codex session: ${config} turns them off (\`${off}\`): take that line out`,
    ];
  const settings = readSettings(h.path);
  if (!settings) return [];
  const stateOf = codexHookStates(codexDir);
  const placed = batonHookPlaces(settings);
  // in the order Baton's hooks are named everywhere, whatever their order in the file
  const places = hookEventsFor('codex', null).flatMap((event) => {
    const at = placed.get(event);
    return at && codexListedEvents.has(event) ? [[event, at] as const] : [];
  });
  const states = places.map(([event, at]) => ({
    event,
    at,
    state: stateOf(h.path, event, at.group, at.handler),
  }));
  const out: string[] = [];
  const untrusted = states.filter((x) => !x.state?.trusted);
  if (untrusted.length) {
    const none = untrusted.length === states.length;
    const first = untrusted[0]!;
    const key = codexHookKey(h.path, first.event, first.at.group, first.at.handler);
    out.push(
      `Codex runs a hook only once you trust it, and ${none ? "it has trusted none of Baton's hooks" : `it has not trusted Baton's ${untrusted.map((x) => x.event).join(', ')} hook${untrusted.length > 1 ? 's' : ''}`} in ${h.path} (${config} has no \`trusted_hash\` under \`[hooks.state."${key}"]\`${untrusted.length > 1 ? ' nor for the others' : ''}), so ${none ? 'Baton follows no Codex session here' : `Codex skips ${untrusted.length > 1 ? 'them' : 'it'}`}: ${trustCodexHooks}`,
    );
  }
  const disabled = states.filter((x) => x.state?.disabled);
  if (disabled.length)
    out.push(
      `Baton's ${disabled.map((x) => x.event).join(', ')} hook${disabled.length > 1 ? 's' : ''} in ${h.path} ${disabled.length > 1 ? 'are' : 'is'} turned off in Codex (\`enabled = false\` in ${config}), so Codex skips ${disabled.length > 1 ? 'them' : 'it'}: type \`/hooks\` in \`codex\` and turn ${disabled.length > 1 ? 'them' : 'it'} on again`,
    );
  return out;
}

/**
 * When a Codex hook of Baton's ran here after Codex's config last changed, what that says of the config's claims
 * that Codex will not run them (another CODEX_HOME than the one read, or a Codex from before hook trust); else null.
 */
function codexRanSince(lastHooks: Record<string, HookRecord>, env: NodeJS.ProcessEnv): string | null {
  const last = Object.values(lastHooks)
    .filter((r) => r.agent === 'codex' && r.outcome !== 'skipped')
    .map((r) => r.at)
    .sort()
    .at(-1);
  if (!last) return null;
  const config = join(homesOf(env).codexDir, 'config.toml');
  let changed = 0;
  try {
    changed = statSync(config).mtimeMs;
  } catch {
    // no config: nothing in it to contradict
  }
  return Date.parse(last) > changed
    ? `nothing to do while Codex runs Baton's hooks, as it did here at ${last} (after ${config} last changed: it reads another config, CODEX_HOME, or predates hook trust); should a Codex say "Hooks need review", this applies`
    : null;
}

/** Where an agent's Baton hook lines are here, and the `baton init` that writes each again; null when none are. */
function hookLinesOf(w: AgentWiring | undefined): HookLines | null {
  if (!w || !isWired(w)) return null;
  return {
    files: w.hooks.map((h) => ({
      path: h.path,
      rewrite: initCommand(h.scope, w.agent),
    })),
    plugins: w.plugin,
  };
}

/**
 * Claude Code reads a project's settings (its hooks, the plugins it enables) and its local MCP servers from the folder
 * it starts in, not from the repository's root: started in a subfolder, it runs none of what `baton init` wrote at the
 * root, and nothing of the session is recorded, silently. Said to whoever runs Baton from a subfolder where Claude
 * Code is wired at the root alone (hooks of `--user` scope, or a plugin enabled for the user, follow every folder);
 * null otherwise.
 */
export function subfolderWarning(root: string, cwd: string, w: AgentWiring): string | null {
  const folder = resolve(cwd);
  if (w.agent !== 'claude-code' || folder === root || !folder.startsWith(`${root}${sep}`)) return null;
  const inRoot = (path: string) => path.startsWith(`${root}${sep}`);
  const everywhere = w.hooks.some((h) => h.scopes.includes('user')) || w.plugin.some((path) => !inRoot(path));
  if (everywhere || !isWired(w)) return null;
  return `Claude Code reads a project's settings and local MCP servers from the folder it starts in, not from the repository root: a session started in ${relative(root, folder)} runs none of the hooks \`baton init\` wired at ${root}, and nothing of it is recorded. Start Claude Code at ${root}, or follow every folder with \`baton init --user\``;
}

export interface DoctorFindings {
  agents: AgentWiring[];
  problems: string[];
  notes: string[];
}

/**
 * What is wired and what is missing, with what to do next: a git repository to follow sessions in, hooks (none is a
 * problem only where hooks followed sessions before; every event, a command that can run), the MCP server, the instructions block, Codex's trust in the folder, the files init
 * made that git would commit, and the last result of each hook (a hook that failed or timed out is a problem, with
 * the next step for what went wrong, until that event's hook next runs without failing: hook-failure.ts).
 */
export function diagnose(
  root: string,
  env: NodeJS.ProcessEnv,
  lastHooks: Record<string, HookRecord>,
  inUse: readonly InitAgent[],
  batonHome: string,
  inRepository = true,
  /** When `baton init --undo` last took the set-up out of this worktree (the hook log's `undone_at`). */
  undoneAt: string | null = null,
): DoctorFindings {
  // doctor writes nothing: git is asked once about every file it looks at
  const standing = setUpStandings(root, env);
  const agents = initAgents.map((a) => wiringOf(a, root, env, true, standing));
  const problems: string[] = [];
  const notes: string[] = [];
  const wired = agents.filter(isWired);
  // `baton init` set up another worktree of this repository, before this one was added
  const setUp =
    wired.length || !inRepository ? [] : otherWorktrees(root).filter((w) => isSetUp(batonHome, w));
  // outside a repository the hooks follow nothing and `baton init` refuses: `git init` comes first
  if (!inRepository)
    problems.push(
      `${root} is not a git repository: Baton follows agent sessions in git repositories only: run \`git init\` here${wired.length ? ' (the hooks are wired)' : ', then `baton init`'}`,
    );
  else if (wired.length === 0) {
    // hooks gone where they followed sessions leave the next one unfollowed: a problem, as is a worktree `baton init`
    // left out (it set up the others); where none ever ran, a choice (`baton run` drives its agent itself, without
    // them), so said as what init is for
    const followed = Object.values(lastHooks)
      .filter((r) => r.outcome !== 'skipped')
      .map((r) => r.at)
      .sort()
      .at(-1);
    if (setUp.length)
      problems.push(
        `no agent hooks call Baton here (\`baton init\` set up ${setUp.join(', ')} of this repository, not this worktree: its files are not committed, so a worktree added later has none): run \`baton init\`, which sets up every worktree of the repository, then start ${inUse.map(agentLabel).join(' or ')}`,
      );
    else if (followed && undoneAt && undoneAt >= followed)
      notes.push(
        `no agent hooks call Baton here: \`baton init --undo\` took them out at ${undoneAt}, so the sessions you start here are not followed; \`baton init\` follows them again`,
      );
    else if (followed)
      problems.push(
        `no agent hooks call Baton here, though they followed agent sessions here (the last hook ran at ${followed}): run \`baton init\` (or install the Claude Code plugin) to follow them again`,
      );
    else
      notes.push(
        `no agent hooks call Baton here: \`baton run\` needs none; \`baton init\` wires them (or install the Claude Code plugin) so that Baton follows the ${inUse.map(agentLabel).join(' or ')} sessions you start yourself`,
      );
  }
  const missing = worktreesNotSetUp(batonHome, root);
  if (missing.length) notes.push(notSetUpNote(missing));
  for (const w of agents) {
    for (const h of w.hooks) {
      if (h.unknown.length)
        problems.push(
          `${agentLabel(w.agent)} ${w.version} does not know ${h.unknown.join(', ')} and skips ${h.path} whole (every hook in it): update it, or run \`baton init${h.scope === 'local' ? '' : ` --${h.scope}`}\` again to leave them out`,
        );
      if (h.missing.length)
        problems.push(
          `${agentLabel(w.agent)} hooks in ${h.path} lack ${h.missing.join(', ')}: run \`baton init${h.scope === 'local' ? '' : ` --${h.scope}`}${w.agent === 'codex' ? ' --agent codex' : ''}\` again`,
        );
      const again = `baton init${h.scope === 'local' ? '' : ` --${h.scope}`}${w.agent === 'codex' ? ' --agent codex' : ''}`;
      const machine =
        h.committed && h.command
          ? committedCommandProblem(`${agentLabel(w.agent)} hooks in ${h.path} run`, h.command, again)
          : null;
      if (machine) problems.push(machine);
      else if (!h.runnable && h.committed)
        problems.push(
          `${agentLabel(w.agent)} hooks in ${h.path} (committed with the repository) run "${h.command ? unguarded(h.command).run : ''}", which is not found on this machine: install Baton ${INSTALL_STEPS}, as each teammate does`,
        );
      else if (!h.runnable)
        problems.push(
          `${agentLabel(w.agent)} hooks in ${h.path} run "${h.command}", which is not found: install Baton (${INSTALL_STEPS}) or run \`baton init\` again from where it is installed`,
        );
      if (h.command && wrongPackage(h.command))
        problems.push(
          `${agentLabel(w.agent)} hooks in ${h.path} run "${unguarded(h.command).run}": the npm package \`baton\` is not Baton (\`${PACKAGE_NAME}\`): run \`${again}\` again`,
        );
      // a teammate without Baton would see "command not found" at every event, and never what to install
      if (h.committed && h.command && !unguarded(h.command).guarded && !machine)
        notes.push(
          `${agentLabel(w.agent)} hooks in ${h.path} (committed with the repository) run "${h.command}" as it is: a teammate without Baton gets a hook error at every event instead of what to install; \`${again}\` again writes hooks that say so at a session start`,
        );
    }
    // sessions that ran with the hooks wired, none of whose hooks reached Baton: said in the session alone till now
    const unheard =
      w.agent === 'claude-code'
        ? unheardClaudeHooks(
            root,
            env,
            lastHooks,
            w.hooks.map((h) => h.path),
            w.version,
          )
        : null;
    if (unheard) problems.push(unheard);
    // a Claude Code neither wired here nor on the PATH has no version to speak of
    const installed = w.agent !== 'claude-code' || onPath('claude', env) !== null;
    if (w.version_unread && (w.hooks.length || (installed && inUse.includes(w.agent))))
      notes.push(unknownVersionNote(w.version_unread));
    const doubled = hooksTwice(w);
    if (doubled) problems.push(doubled);
    // a Codex config.toml that does not parse: Codex does not start with it, and Baton neither reads nor writes it
    const tomls = new Map(
      (['shared', 'local'] as const).map((scope) => [
        agentFiles('codex', scope, root, homesOf(env)).mcp.path,
        scope,
      ]),
    );
    const unparsable =
      w.agent === 'codex'
        ? [...tomls].flatMap(([path, scope]) => unparsableCodexConfig(path, scope) ?? [])
        : [];
    problems.push(...unparsable);
    // what the user's config says of trust is unknown while it does not parse (said above)
    const readable = w.agent !== 'codex' || codexConfigError(homesOf(env).codexDir) === null;
    const project = w.agent === 'codex' ? w.hooks.find((h) => h.scope !== 'user') : undefined;
    const untrusted = project && readable ? codexTrustProblem(root, env, project.path) : null;
    const unrun = [
      ...(untrusted ? [untrusted] : []),
      ...(w.agent === 'codex' && readable ? w.hooks.flatMap((h) => codexHookProblems(h, env)) : []),
    ];
    // Codex ran them all the same since its config last changed: that config is not the one it reads
    const ran = unrun.length ? codexRanSince(lastHooks, env) : null;
    // no Codex here to run them (a folder of it left from a try, the hooks wired by a plain `baton init`): what to do
    // once one is, not a problem now
    const noCodex =
      unrun.length > 0 &&
      onPath('codex', env) === null &&
      !Object.values(lastHooks).some((r) => r.agent === 'codex');
    // one note, however many things there are to do once Codex is used: they share why they wait
    const all = unrun.length > 1 ? unrun.map((p, i) => `(${i + 1}) ${p}`).join('; ') : unrun.join('');
    if (ran) notes.push(`${ran}: ${all}`);
    else if (noCodex)
      notes.push(`\`codex\` is not on the PATH and no Codex hook ran here; once you use Codex here: ${all}`);
    else problems.push(...unrun);
    const twice = hooksAndPlugin(w);
    if (twice) problems.push(twice);
    // the init that wrote the hooks writes the server too (its scope is the hooks', not the user-wide config.toml's)
    const hooksScope = w.hooks[0]?.scope ?? 'local';
    for (const m of w.mcp) {
      // set here, and not passed on: the server reads another store (or another server) than the hooks
      const unforwarded = CODEX_MCP_FORWARDS.filter((v) => env[v] && m.forwards && !m.forwards.includes(v));
      if (unforwarded.length)
        problems.push(
          `${agentLabel(w.agent)}'s MCP server in ${m.path} is not given ${unforwarded.join(', ')} (set here): Codex starts MCP servers with a few variables only, so the agent's \`baton\` tools read other records than its hooks write; run \`baton init${hooksScope === 'local' ? '' : ` --${hooksScope}`} --agent codex\` again, which forwards them (\`env_vars\`), or add them to the \`env_vars\` of a \`baton\` server of your own`,
        );
    }
    // an entry an earlier `baton init` wrote (or one written by hand) names no agent: the server cannot tell whose
    // calls it serves, and records them as the user's
    for (const m of w.mcp.filter((x) => !x.names_agent))
      problems.push(
        `${agentLabel(w.agent)}'s MCP server in ${m.path} runs "${m.command}", which does not name the agent: what ${agentLabel(w.agent)} records through Baton's tools (record_decision, get_resume_context...) is logged as the user's; run \`baton init${hooksScope === 'local' ? '' : ` --${hooksScope}`}${w.agent === 'codex' ? ' --agent codex' : ''}\` again, which adds \`--agent ${w.agent}\` (or add it to a \`baton\` server of your own)`,
      );
    for (const m of w.mcp.filter((x) => x.committed)) {
      const machine = committedCommandProblem(
        `${agentLabel(w.agent)}'s MCP server in ${m.path} runs`,
        m.command,
        `baton init${m.scope === 'local' ? '' : ` --${m.scope}`}${w.agent === 'codex' ? ' --agent codex' : ''}`,
      );
      if (machine) problems.push(machine);
    }
    for (const path of w.instructions) {
      const cli = blockCommand(path);
      const machine =
        cli && path.startsWith(`${root}${sep}`) && standing(path) === 'tracked'
          ? committedCommandProblem(
              `the Baton block of ${path} tells the agent to run`,
              cli,
              `baton init${w.agent === 'codex' ? ' --agent codex' : ''}`,
            )
          : null;
      if (machine) problems.push(machine);
    }
    const init = `\`baton init${w.agent === 'codex' ? ' --agent codex' : ''}\``;
    // a config.toml that does not parse names no server: said above, with what to do
    if (w.hooks.length && !w.plugin.length && !w.mcp.length && !unparsable.length)
      problems.push(`${agentLabel(w.agent)} has no \`baton\` MCP server registered: run ${init}`);
    // another agent is wired here and this one is not: a choice (`baton init --agent codex`), said, not a problem
    else if (!isWired(w) && wired.length && inUse.includes(w.agent))
      notes.push(`${agentLabel(w.agent)} is in use on this machine but not wired here: ${init} wires it`);
    if (w.hooks.length && !w.instructions.length && !w.plugin.length)
      notes.push(
        `no Baton block in ${w.agent === 'codex' ? 'AGENTS.md' : 'CLAUDE.md'} (\`baton init\` adds it)`,
      );
  }
  for (const path of unexcludedFiles(batonHome, root, standing)) {
    const owner = agents.find((w) => {
      const files = agentFiles(w.agent, 'local', root, homesOf(env));
      return files.hooks === path || files.instructions === path;
    });
    problems.push(
      `\`baton init\` made ${path} for this machine alone, and git neither ignores nor tracks it (it is missing from .git/info/exclude): an agent's \`git add -A\` commits it; run \`baton init${owner ? ` --agent ${owner.agent}` : ''}\` to exclude it again`,
    );
  }
  // each with what to do next, fitting what went wrong, and when it stops being reported; one the store's outage
  // made fail is past once a later hook of that agent here reached it first (`caught_up`), or a later session start
  // did (both read on what the failed one did not)
  for (const r of Object.values(lastHooks))
    if (r.outcome === 'failed' || r.outcome === 'timeout') {
      const since = r.caught_up ?? caughtUpSince(r, lastHooks);
      if (since) {
        notes.push(
          `the last ${r.event} hook (${r.at}, ${r.agent}) could not reach Baton's store (${clip(r.note.replace(/\.$/, ''), 200)}); the ${since.event} hook since (${since.at}) reached it and read on from there: nothing of it is missing`,
        );
        continue;
      }
      const step = hookFailureStep(r.event, r, hookLinesOf(agents.find((w) => w.agent === r.agent)));
      const next = step ? `${step.charAt(0).toUpperCase()}${step.slice(1)}. ` : '';
      problems.push(
        `the last ${r.event} hook (${r.at}, ${r.agent}) ${r.outcome === 'timeout' ? 'ran out of time' : 'failed'}: ${r.note.replace(/\.$/, '')}. ${next}${hookFailureClears(r.event, r.outcome, r.agent)}`,
      );
    }
  return { agents, problems, notes };
}

/**
 * Beside the failures `hookFailureKind` calls `store` (a SQLite file not opened, a Baton server not reached): a
 * PostgreSQL not reached, and a server or PostgreSQL that did not answer.
 */
const otherOutage = /cannot reach PostgreSQL |(PostgreSQL at|the Baton server at) \S+ did not answer within /;

/**
 * The session start of the same agent here that reached the store after a hook the store's outage made fail: it
 * records the turn and session ends the failed hooks could not, and reads the transcripts on from their last import.
 */
function caughtUpSince(r: HookRecord, lastHooks: Record<string, HookRecord>): HookRecord | null {
  const kind = hookFailureKind(r);
  // a store not opened (its cause named or not) or kept locked by another process: an outage a later start outlived
  const outage = kind === 'store' || kind === 'store-hinted' || kind === 'store-busy';
  if (!outage && !otherOutage.test(r.note)) return null;
  return (
    Object.values(lastHooks).find(
      (h) =>
        h.agent === r.agent &&
        h.event === 'SessionStart' &&
        (h.outcome === 'ok' || h.outcome === 'nothing') &&
        Date.parse(h.at) > Date.parse(r.at),
    ) ?? null
  );
}
