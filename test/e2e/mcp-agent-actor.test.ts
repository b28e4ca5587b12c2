import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { sqliteStore } from '../helpers/service.js';

type Entry = { command: string; args: string[] };
type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

function setup() {
  const repo = makeRepo();
  const home = tempDir('baton-user-');
  const env = {
    BATON_HOME: tempDir('baton-home-'),
    HOME: home,
    CLAUDE_CONFIG_DIR: undefined,
    CODEX_HOME: join(home, '.codex'),
  };
  const baton = (args: string[]) => runCli(args, { cwd: repo, env });
  return { repo, home, env, baton };
}

/** `baton mcp` started exactly as the agent's MCP entry says, with the real SDK client connected. */
async function connect(entry: Entry, repo: string, env: Record<string, string | undefined>) {
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: repo,
      env: hermeticEnv(env) as Record<string, string>,
    }),
  );
  return client;
}

/** The actor of each event of the workflow, by type (the last one of each). */
async function actors(home: string, workflowId: string): Promise<Record<string, string>> {
  const store = sqliteStore(join(home, 'baton.db'));
  try {
    return Object.fromEntries((await store.readEvents(workflowId)).map((e) => [e.type, e.actor]));
  } finally {
    await store.close();
  }
}

const stamp = (r: ToolResult) => /snapshot (\S+), hash ([0-9a-f]+)/.exec(r.content[0]!.text)?.slice(1);

describe("what an agent does through Baton's MCP server is the agent's", () => {
  // the entry `baton init` writes runs this very build
  const command = `${process.execPath} ${batonBin}`;

  it.each([
    ['claude-code', 'claude-code'],
    ['codex', 'codex'],
  ] as const)(
    "%s: the entry `baton init` writes names the agent, and its calls are logged as %s's",
    async (agent, actor) => {
      const { repo, home, env, baton } = setup();
      expect((await baton(['init', '--agent', agent, '--command', command])).code).toBe(0);
      const entry: Entry =
        agent === 'codex'
          ? (parse(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')) as any).mcp_servers.baton
          : JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).projects[repo].mcpServers.baton;
      const created = await baton([
        'create',
        '--title',
        'One README per folder',
        '--task',
        'A:Write',
        '--json',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const id = created.json<{ id: string }>().id;
      const client = await connect(entry, repo, env);
      const call = async (name: string, args: Record<string, unknown> = {}) =>
        (await client.callTool({ name, arguments: args })) as ToolResult;
      try {
        const decided = await call('record_decision', {
          decision_type: 'approach',
          description: 'One README per folder',
          rationale: 'users asked what the folders are',
        });
        expect(decided.isError).toBeFalsy();
        const first = await call('get_resume_context');
        const second = await call('get_resume_context');
        // reading the briefing twice hands over the same one: the hash acknowledged is the latest
        expect(stamp(first)?.[0]).toMatch(/^live-\d+$/);
        expect(stamp(second)).toEqual(stamp(first));
      } finally {
        await client.close();
      }
      expect(await actors(env.BATON_HOME, id)).toMatchObject({
        'workflow.created': 'user',
        'decision.recorded': actor,
        'context.delivered': actor,
      });
    },
  );

  it('an entry an earlier `baton init` wrote (naming no agent) is a problem `baton doctor` names, and init fixes', async () => {
    const { repo, home, baton } = setup();
    expect((await baton(['init', '--command', 'baton'])).code).toBe(0);
    const file = join(home, '.claude.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.projects[repo].mcpServers.baton.args = ['mcp'];
    writeFileSync(file, JSON.stringify(doc));
    const said = `Claude Code's MCP server in ${file} runs "baton mcp", which does not name the agent: what Claude Code records through Baton's tools (record_decision, get_resume_context...) is logged as the user's; run \`baton init\` again, which adds \`--agent claude-code\``;
    const before = await baton(['doctor']);
    expect(before.stdout + before.stderr).toContain(said);
    expect(before.code).not.toBe(0);
    expect((await baton(['init', '--command', 'baton'])).code).toBe(0);
    const after = await baton(['doctor']);
    expect(after.stdout + after.stderr).not.toContain('does not name the agent');
  });
});
