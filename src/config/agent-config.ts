import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invalidInput } from '../core/index.js';

/**
 * The `agents` section of baton.config.json (the worktree's, else `$BATON_HOME/config.json`): agent profiles by
 * name. Validated by the agent runtime (src/agents/runtime/agent-profiles.ts).
 */
export function readAgentProfiles(home: string, worktree: string | null): Record<string, unknown> {
  for (const file of [worktree ? join(worktree, 'baton.config.json') : null, join(home, 'config.json')]) {
    if (!file || !existsSync(file)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw invalidInput(`cannot read the config file ${file}: ${(e as Error).message}`);
    }
    const agents = (raw as { agents?: unknown } | null)?.agents;
    if (agents === undefined) return {};
    if (typeof agents !== 'object' || agents === null || Array.isArray(agents))
      throw invalidInput(`config file ${file}: "agents" must be an object of profiles by name`);
    return agents as Record<string, unknown>;
  }
  return {};
}
