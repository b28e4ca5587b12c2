import type { Command } from 'commander';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { handleHook } from '../../integrations/claude-code/handle-hook.js';
import { hookEvents } from '../../integrations/claude-code/hook-input.js';
import { installHooks, uninstallHooks } from '../../integrations/claude-code/settings-file.js';
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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `baton` when it is on the PATH, else this very script run by this node. */
export function defaultHookCommand(): string {
  const onPath = (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, 'baton')));
  return onPath ? 'baton' : `${process.execPath} ${realpathSync(process.argv[1] ?? 'baton')}`;
}

export function registerHookCommands(program: Command, rt: Runtime) {
  const hooks = program.command('hooks').description("install Baton's Claude Code hooks into a project");
  hooks
    .command('install')
    .option('--project <dir>', 'the project whose .claude/settings.json to change', '.')
    .option(
      '--command <cmd>',
      'how Claude Code should call baton (default: baton on the PATH, else this install)',
    )
    .action(
      action(rt, async ({ print }, o: { project: string; command?: string }) => {
        const r = installHooks(resolve(rt.cwd, o.project), o.command ?? defaultHookCommand());
        print(r, () => `installed Baton's hooks (${r.events.join(', ')}) in ${r.path}`);
      }),
    );
  hooks
    .command('uninstall')
    .option('--project <dir>', 'the project whose .claude/settings.json to change', '.')
    .action(
      action(rt, async ({ print }, o: { project: string }) => {
        const r = uninstallHooks(resolve(rt.cwd, o.project));
        print(r, () => (r.removed ? `removed Baton's hooks from ${r.path}` : `no ${r.path}`));
      }),
    );
  program
    .command('hook <event>')
    .description(`answer a Claude Code hook (${hookEvents.join(', ')}) with its JSON input on stdin`)
    .action(async (event: string, _o: unknown, cmd: Command) => {
      // A hook never fails the agent's session: every problem is reported on stderr and the exit code stays 0.
      try {
        const client = await rt.open(rt.globals(cmd));
        const outcome = await handleHook(event, await readStdin(), client);
        if (outcome.output) rt.io.out(JSON.stringify(outcome.output));
        rt.io.err(outcome.note);
      } catch (e) {
        rt.io.err(`baton: hook ${event} failed: ${(e as Error).message}`);
      }
    });
}
