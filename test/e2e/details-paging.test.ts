import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cliModes, modeEnv } from '../helpers/cli-modes.js';
import { makeRepo } from '../helpers/git-repo.js';
import { mcpClient } from '../helpers/mcp-client.js';

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * A category of many records, read a page at a time: the MCP tool get_details (the newest 20 unless told), `baton
 * details --limit --before` and its `--json` (the REST route's query in server mode), one way of paging.
 */
describe.each(cliModes)('details, a page at a time (%s)', (mode) => {
  const env = modeEnv(mode);
  const repo = makeRepo();
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const cli = async (...args: string[]) => {
    const r = await runCli(['details', ...args], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    const created = await runCli(['create', '--title', 'Many decisions', '--task', 'A:Build', '--json'], {
      cwd: repo,
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    client = await mcpClient(repo, env);
    for (let i = 1; i <= 25; i++) {
      const r = await call('record_decision', {
        decision_type: 'approach',
        description: `choice ${i}`,
      });
      expect(r.isError, r.content[0]!.text).toBeFalsy();
    }
  });
  afterAll(() => client?.close());

  it('get_details gives the newest 20 in the CLI text, says how many there are and how to read the older ones', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'get_details')!;
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['limit', 'before']),
    );
    const first = (await call('get_details', { category: 'decisions' })).content[0]!.text;
    expect(first).toMatch(/^6-25 of 25 decisions \(the workflow as it stands\), oldest first:/);
    expect(first).toContain('choice 25');
    expect(first).not.toContain('choice 5\n');
    expect(first).not.toContain('null');
    expect(first.trim().split('\n').at(-1)).toBe(
      '5 older not shown: call get_details again with before: 6 (and limit, up to 5)',
    );
    // the older ones: the rest, and nothing more to read
    const older = (await call('get_details', { category: 'decisions', before: 6 })).content[0]!.text;
    expect(older).toMatch(/^1-5 of 25 decisions/);
    expect(older).toContain('choice 1\n');
    expect(older).not.toContain('older not shown');
    expect(older).not.toContain('choice 6');
    // a list shorter than the limit: whole, as the CLI prints it
    expect((await call('get_details', { category: 'decisions', limit: 100 })).content[0]!.text).toBe(
      (await cli('decisions')).trim(),
    );
  });

  it('`baton details --limit --before` pages the same way, in its own words; --json says where the page is', async () => {
    const text = await cli('decisions', '--limit', '20');
    expect(text).toMatch(/^6-25 of 25 decisions/);
    expect(text.trim().split('\n').at(-1)).toBe(
      '5 older not shown: `baton details decisions --limit 20 --before 6`',
    );
    const page = JSON.parse(await cli('decisions', '--limit', '2', '--before', '3', '--json')) as {
      records: { description: string }[];
    };
    expect(page).toMatchObject({ total: 25, from: 1, to: 2, next_before: null });
    expect(page.records.map((d) => d.description)).toEqual(['choice 1', 'choice 2']);
    // without --limit: every record, as before
    expect(JSON.parse(await cli('decisions', '--json'))).toHaveLength(25);
  });

  it('refuses a page of what is no list, and --before without --limit, saying what to do', async () => {
    const git = await runCli(['details', 'git-changes', '--limit', '5'], { cwd: repo, env });
    expect(git.code).not.toBe(0);
    expect(git.stderr).toContain('git-changes is not a list of records to page: leave out limit and before');
    const before = await runCli(['details', 'decisions', '--before', '5'], { cwd: repo, env });
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain('--before needs --limit');
    // git-changes through the tool: no page asked, the state whole
    const r = await call('get_details', { category: 'git-changes' });
    expect(r.isError, r.content[0]!.text).toBeFalsy();
    expect(r.content[0]!.text).toMatch(/^git changes \(the workflow as it stands\):/);
  });
});
