import { isTerminal, needsYou } from '../../core/index.js';
import type { BatonClient } from '../../client/baton-client.js';
import type { AgentWatch } from './define.js';

/**
 * What each workflow not finished waits for its user to look at (`needsYou`: `baton status`'s words), from its status
 * and what the hooks of the server's machine saw of its agents, as its own page says it; a finished one needs nothing.
 * One that cannot be read now (removed meanwhile) says nothing rather than failing the whole list.
 */
export async function needsYouOf(
  client: BatonClient,
  watch: AgentWatch | undefined,
  rows: readonly { id: string; status: Parameters<typeof isTerminal>[0] }[],
): Promise<Map<string, string[]>> {
  const said = await Promise.all(
    rows
      .filter((r) => !isTerminal(r.status))
      .map(async (r) => {
        try {
          const s = await client.status({ workflowId: r.id });
          return [r.id, needsYou({ ...s, gone_agents: watch?.(s).gone_agents ?? [] })] as const;
        } catch {
          return [r.id, []] as const;
        }
      }),
  );
  return new Map(said.map(([id, words]) => [id, [...words]]));
}
