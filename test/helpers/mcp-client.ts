import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { batonBin } from './cli.js';
import { hermeticEnv } from './hermetic-env.js';

/** The MCP server `baton mcp` in the worktree, as an agent starts it, with the real SDK client connected. */
export async function mcpClient(repo: string, env: Record<string, string | undefined>): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [batonBin, 'mcp'],
      cwd: repo,
      env: hermeticEnv(env) as Record<string, string>,
    }),
  );
  return client;
}
