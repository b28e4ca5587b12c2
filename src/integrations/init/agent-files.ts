import { codexHome } from '../../agents/codex/codex-config.js';
import { claudeEventSince } from '../hooks/hook-payload.js';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

export const initAgents = ['claude-code', 'codex'] as const;
export type InitAgent = (typeof initAgents)[number];

/** default: personal to this repository; shared: committed with it; user: every repository of this user. */
export type InitScope = 'local' | 'shared' | 'user';

/** The `baton init` that sets up `agent` at `scope` (to run again once what stopped it is fixed; doctor names it too). */
export const initCommand = (scope: InitScope, agent: InitAgent | 'all') =>
  `baton init${scope === 'local' ? '' : ` --${scope}`} --agent ${agent}`;

export interface AgentFiles {
  /** The JSON file whose `hooks` Baton's hooks go into. */
  hooks: string;
  /** Where the MCP server is registered, and how. */
  mcp:
    | { kind: 'claude-json'; path: string; project: string | null }
    | { kind: 'mcp-json'; path: string }
    | { kind: 'codex-toml'; path: string };
  /** The instructions file the short Baton block goes into. */
  instructions: string;
}

export interface Homes {
  home: string;
  /** Claude Code's folder (`CLAUDE_CONFIG_DIR`, else ~/.claude) and its `.claude.json`. */
  claudeDir: string;
  claudeJson: string;
  /** Codex's folder (`CODEX_HOME`, else ~/.codex). */
  codexDir: string;
}

export function homesOf(env: NodeJS.ProcessEnv): Homes {
  const home = env.HOME || homedir();
  const claudeDir = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  return {
    home,
    claudeDir,
    claudeJson: env.CLAUDE_CONFIG_DIR
      ? join(env.CLAUDE_CONFIG_DIR, '.claude.json')
      : join(home, '.claude.json'),
    codexDir: codexHome(env),
  };
}

/** The files `baton init` writes for one agent and scope (see docs/claude-code.md). */
export function agentFiles(agent: InitAgent, scope: InitScope, root: string, h: Homes): AgentFiles {
  if (agent === 'claude-code') {
    if (scope === 'user')
      return {
        hooks: join(h.claudeDir, 'settings.json'),
        mcp: { kind: 'claude-json', path: h.claudeJson, project: null },
        instructions: join(h.claudeDir, 'CLAUDE.md'),
      };
    return {
      hooks: join(root, '.claude', scope === 'shared' ? 'settings.json' : 'settings.local.json'),
      mcp:
        scope === 'shared'
          ? { kind: 'mcp-json', path: join(root, '.mcp.json') }
          : { kind: 'claude-json', path: h.claudeJson, project: root },
      instructions: join(root, 'CLAUDE.md'),
    };
  }
  if (scope === 'user')
    return {
      hooks: join(h.codexDir, 'hooks.json'),
      mcp: { kind: 'codex-toml', path: join(h.codexDir, 'config.toml') },
      instructions: join(h.codexDir, 'AGENTS.md'),
    };
  return {
    hooks: join(root, '.codex', 'hooks.json'),
    // Codex has no personal per-project config: the default puts the server in the user's config.toml.
    mcp: {
      kind: 'codex-toml',
      path: join(scope === 'shared' ? join(root, '.codex') : h.codexDir, 'config.toml'),
    },
    instructions: join(root, 'AGENTS.md'),
  };
}

/**
 * Whose the MCP entry `baton init` writes at `scope` is: Codex's, but at --shared, is in the user's own
 * ~/.codex/config.toml (user: every repository), also where that file is in the repository (a repository at ~, or
 * CODEX_HOME in it); the others are of the scope.
 */
export const mcpScopeOf = (agent: InitAgent, scope: InitScope, root: string, h: Homes): InitScope =>
  agent === 'codex' &&
  agentFiles(agent, scope, root, h).mcp.path === agentFiles(agent, 'user', root, h).mcp.path
    ? 'user'
    : scope;

export function onPath(program: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, program);
    if (existsSync(full)) return full;
  }
  return null;
}

/** The agents in use here: installed (on the PATH) or configured (their folder exists); none when neither is. */
export function foundAgents(root: string, env: NodeJS.ProcessEnv): InitAgent[] {
  const h = homesOf(env);
  return initAgents.filter((a) =>
    a === 'claude-code'
      ? !!onPath('claude', env) || existsSync(h.claudeDir) || existsSync(join(root, '.claude'))
      : !!onPath('codex', env) || existsSync(h.codexDir) || existsSync(join(root, '.codex')),
  );
}

/** The agents `baton init` sets up by default: those in use here, else Claude Code. */
export function detectAgents(root: string, env: NodeJS.ProcessEnv): InitAgent[] {
  const found = foundAgents(root, env);
  return found.length ? found : ['claude-code'];
}

/** The installed Claude Code's version, or why it could not be read. */
export interface ClaudeVersion {
  version: string | null;
  /** Why there is no version: `claude` is not on the PATH, or `claude --version` did not answer (null when it did). */
  unread: string | null;
}

/** The events an older Claude Code does not know, with the version that brought each: "PostCompact (since 2.1.76)". */
const newerEvents = Object.entries(claudeEventSince)
  .map(([event, since]) => `${event} (since ${since})`)
  .join(', ');

/** What an unknown version means for the hooks, and what to do: said by `init` and `doctor` alike. */
export const unknownVersionNote = (unread: string) =>
  `Claude Code's version is unknown (${unread}): every hook event Baton knows is named, ${newerEvents} among them, and a Claude Code older than one of them skips the settings file whole (every Baton hook in it); if yours is older, update it, or run \`baton init\` again where \`claude --version\` answers`;

/**
 * The installed Claude Code's version (`claude --version` prints "2.1.39 (Claude Code)"), so its settings name only
 * the hook events it knows; no version, and why, when it is not on the PATH (run from an IDE or a desktop app, or
 * installed elsewhere) or does not answer.
 */
export function claudeVersion(env: NodeJS.ProcessEnv): ClaudeVersion {
  const bin = onPath('claude', env);
  if (!bin) return { version: null, unread: '`claude` is not on the PATH, so its version was not asked' };
  try {
    const out = execFileSync(bin, ['--version'], { env, timeout: 5000, encoding: 'utf8', stdio: 'pipe' });
    const version = /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null;
    return {
      version,
      unread: version ? null : `\`${bin} --version\` printed no version ("${out.trim().slice(0, 80)}")`,
    };
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string; signal?: string | null };
    const why =
      err.signal === 'SIGTERM'
        ? 'gave no answer within 5 s'
        : err.stderr?.trim().split('\n')[0] || err.message;
    return { version: null, unread: `\`${bin} --version\` failed: ${why.slice(0, 200)}` };
  }
}
