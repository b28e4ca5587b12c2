import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../../mcp/mcp-server.js';
import { action } from '../action.js';
import type { Runtime } from '../runtime.js';

export function registerIntegrationCommands(program: Command, rt: Runtime) {
  program
    .command('mcp')
    .description('serve Baton over MCP on stdio (tools and snapshot resources for an agent)')
    .action(
      action(rt, async ({ client }) => {
        const server = createMcpServer(client, rt.cwd);
        const transport = new StdioServerTransport();
        const closed = new Promise<void>((resolve) => {
          transport.onclose = () => resolve();
          process.stdin.on('end', () => resolve());
        });
        await server.connect(transport);
        await closed;
        await server.close();
      }),
    );
}
