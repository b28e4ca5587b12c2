import { invalidInput } from '../core/index.js';
import { configFiles } from './config-files.js';

/**
 * The `agents` section of the config files (the worktree's `baton.config.json`, then `$BATON_HOME/config.json`, the
 * one lookup rule): agent profiles by name, from the first file that has them. Validated by the agent runtime
 * (src/agents/runtime/agent-profiles.ts).
 */
export function readAgentProfiles(home: string, worktree: string | null): Record<string, unknown> {
  for (const { file, values } of configFiles(home, worktree)) {
    const agents = values.agents;
    if (agents === undefined) continue;
    if (typeof agents !== 'object' || agents === null || Array.isArray(agents))
      throw invalidInput(`config file ${file}: "agents" must be an object of profiles by name`);
    return agents as Record<string, unknown>;
  }
  return {};
}
