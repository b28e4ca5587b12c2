import { initAgents } from './agent-files.js';
import { wiringOf } from './doctor.js';

/** Baton's hooks wired in a worktree: a hooks file of any scope, or the Claude Code plugin enabled. */
export interface FollowingHook {
  agent: string;
  /** The hooks file, or the settings file that enables the plugin. */
  path: string;
  plugin: boolean;
}

/**
 * Which of Baton's hooks follow the agent sessions started in a worktree now, for every agent `baton init` sets up:
 * none after `baton init --undo` (or where it never ran), and then no session there goes on with a workflow by itself.
 */
export function followingHooks(worktree: string, env: NodeJS.ProcessEnv): FollowingHook[] {
  return initAgents.flatMap((agent) => {
    const w = wiringOf(agent, worktree, env, false);
    return [
      ...w.hooks.map((h) => ({ agent, path: h.path, plugin: false })),
      ...w.plugin.map((path) => ({ agent, path, plugin: true })),
    ];
  });
}
