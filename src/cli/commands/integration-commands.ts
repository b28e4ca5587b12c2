import type { Command } from 'commander';
import { claudeHookEvents } from '../../integrations/hooks/hook-payload.js';
import { readProcessStdin, runHookCommand } from '../hook-entry.js';
import { readBeforeContext } from '../../integrations/hooks/agent-watch.js';
import { agentActor } from '../../core/actors.js';
import { identityAt } from '../../git/git.js';
import type { Runtime } from '../runtime.js';

export function registerIntegrationCommands(program: Command, rt: Runtime) {
  program
    .command('mcp')
    .description('serve Baton over MCP on stdio (tools and snapshot resources for an agent)')
    .option(
      '--agent <agent>',
      "the agent that starts it (claude-code, codex; `baton init` names it): what it does through the tools is that agent's in the event log (default: the user's)",
    )
    .action(async (o: { agent?: string }, cmd: Command) => {
      const g = rt.globals(cmd);
      // what an agent does through its tools is its own, as what its hooks record is (unless BATON_ACTOR, --actor
      // or the config names another)
      const settings = rt.settings(g, o.agent ? { actor: agentActor(o.agent) } : {});
      const client = await rt.openWith(settings, g.server);
      const home = settings.home;
      // the MCP SDK (with its own zod and a JSON Schema validator) loads here, not with `baton --help` or `baton hook`
      const [{ StdioServerTransport }, { createMcpServer }, { clientGone }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/mcp-server.js'),
        import('../../mcp/stdio-drain.js'),
      ]);
      // the agent that started it: its conversation's workflow is meant when several are open here; its context
      // reads first what this machine's transcripts hold unread, as `baton context` does, and says what it could not
      const server = createMcpServer(
        client,
        rt.cwd,
        () => rt.ref(undefined).following ?? null,
        async (ref) => {
          const { status, not_read } = await readBeforeContext(client, ref, home);
          return { workflow_id: status.workflow.id, not_read };
        },
        () => identityAt(rt.cwd),
      );
      const transport = new StdioServerTransport();
      await server.connect(transport);
      // the calls read before the client closed its end are answered before the server closes
      await clientGone(transport);
      await server.close();
    });
}

export function registerHookCommands(program: Command, rt: Runtime) {
  program
    .command('hook <event>')
    .description(
      `answer an agent hook (${claudeHookEvents.join(', ')}; Codex's Interrupt too) with its JSON input on stdin; --agent codex for Codex`,
    )
    .option('--agent <agent>', 'claude-code | codex (default: from the payload)')
    .allowUnknownOption()
    .action(async (event: string, o: { agent?: string }, cmd: Command) => {
      const g = rt.globals(cmd);
      const args = [event, ...(o.agent ? ['--agent', o.agent] : [])];
      for (const [flag, value] of [
        ['--home', g.home],
        ['--database', g.database],
        ['--server', g.server],
      ] as const)
        if (value) args.push(flag, value);
      await runHookCommand(args, {
        ...rt.io,
        readStdin: readProcessStdin,
        env: rt.env,
        cwd: rt.cwd,
      });
    });
}
