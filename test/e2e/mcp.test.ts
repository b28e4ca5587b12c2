import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { mcpClient } from '../helpers/mcp-client.js';
import { countTokens } from '../../src/tokens/count-tokens.js';

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

/** The real MCP SDK client talking to `baton mcp` over real stdio. */
describe('baton mcp', () => {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-') };
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const json = (r: ToolResult) => JSON.parse(r.content[0]!.text) as Record<string, any>;

  beforeAll(async () => {
    const created = await runCli(
      ['create', '--title', 'MCP flow', '--task', 'A:Design', '--task', 'B:Build:A', '--json'],
      { cwd: repo, env },
    );
    expect(created.code, created.stderr).toBe(0);
    client = await mcpClient(repo, env);
  });
  afterAll(() => client.close());

  it('lists every tool of the issue', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'ack_context',
        'add_task',
        'complete_task',
        'create_checkpoint',
        'fail_task',
        'get_details',
        'get_resume_context',
        'next_task',
        'record_decision',
        'record_error',
        'record_test_run',
        'request_pause',
        'resolve_error',
        'resume_workflow',
        'start_task',
      ].sort(),
    );
  });

  it('tells the client when to use its tools, and every tool and task argument says what it is for', async () => {
    // the instructions name only tools that exist
    const said = client.getInstructions() ?? '';
    const tools = (await client.listTools()).tools;
    const named = [...said.matchAll(/\b[a-z]+_[a-z_]+\b/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(8);
    for (const name of named) expect(tools.map((t) => t.name)).toContain(name);
    for (const t of tools) expect(t.description?.length ?? 0, t.name).toBeGreaterThan(30);
    for (const name of ['start_task', 'complete_task', 'fail_task']) {
      const props = tools.find((t) => t.name === name)!.inputSchema.properties as Record<
        string,
        { description?: string }
      >;
      expect(props.task_id?.description, name).toMatch(/task's id/);
    }
    // every argument of every tool says what it is; one of a few values lists them in the schema
    for (const t of tools) {
      for (const [arg, p] of Object.entries(
        t.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>,
      )) {
        expect(p.description, `${t.name}.${arg}`).toMatch(/\w/);
      }
    }
    const args = (tool: string) =>
      tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(args('get_details').category?.enum).toContain('history');
    expect(args('record_test_run').phase?.enum).toEqual(['red', 'green', 'refactor', 'unknown']);
    expect(args('resolve_error').resolution?.enum).toContain('fixed');
    // the kinds a decision may be are named where the agent reads what the tool is for
    expect(tools.find((t) => t.name === 'record_decision')?.description).toMatch(/one of approach, library/);
    const budget = (
      tools.find((t) => t.name === 'get_resume_context')!.inputSchema.properties as Record<
        string,
        { description?: string }
      >
    ).budget;
    expect(budget?.description).toMatch(/tokens/);
  });

  it('drives a workflow and hands over a verified context', async () => {
    expect(json(await call('next_task')).next_task).toMatchObject({ id: 'A' });
    const added = await call('add_task', {
      task_id: 'A2',
      title: 'Review the design',
      after: 'A',
      deps: ['A'],
    });
    expect(json(added).task).toMatchObject({ id: 'A2', deps: ['A'] });
    expect((await call('add_task', { task_id: 'A2', title: 'again' })).isError).toBe(true);
    expect((await call('start_task', { task_id: 'A' })).isError).toBeFalsy();
    expect(
      (
        await call('record_decision', {
          decision_type: 'architecture',
          description: 'Hexagonal layout',
          rationale: 'adapters at the edges',
        })
      ).isError,
    ).toBeFalsy();
    expect(
      (await call('record_error', { error_type: 'Build', error_message: 'tsc failed' })).isError,
    ).toBeFalsy();
    expect(
      (await call('record_test_run', { phase: 'red', failing_tests: ['a.test.ts'] })).isError,
    ).toBeFalsy();
    expect(json(await call('request_pause', { reason: 'lunch' }))).toMatchObject({ outcome: 'requested' });
    // asked again while it waits: the first request and its reason stand, and the tool says so
    expect(json(await call('request_pause', { reason: 'end of day' }))).toMatchObject({
      outcome: 'already_requested',
      pause_request: { reason: 'lunch', requested_at: expect.any(String) },
      ignored_reason: 'end of day',
    });
    // resume_workflow while it waits withdraws it (the work goes on); asked again, it waits as before
    expect(json(await call('resume_workflow'))).toMatchObject({
      outcome: 'pause_withdrawn',
      status: 'in_progress',
      pause_request: { reason: 'lunch', requested_at: expect.any(String) },
    });
    expect(json(await call('request_pause', { reason: 'lunch' }))).toMatchObject({ outcome: 'requested' });
    // the agent asked it, not the user: a session starting meanwhile is told so
    expect((await call('get_resume_context')).content[0]!.text).toMatch(
      /The agent asked to pause this workflow \(reason: lunch\) at \S+: it takes effect when A finishes\./,
    );
    // the pause takes effect at this task's end: the answer opens by telling the agent to stop, then the task moved
    const boundary = await call('complete_task', { task_id: 'A', summary: 'designed' });
    expect(boundary.content[0]!.text).toBe(
      'You asked to pause this workflow (reason: lunch), and it is now paused: no new task starts until the workflow is resumed. End your turn now; do not resume it yourself: the user resumes it.',
    );
    expect(JSON.parse(boundary.content[1]!.text)).toMatchObject({ workflow_status: 'paused', paused: true });

    const bad = await call('start_task', { task_id: 'B' });
    expect(bad.isError).toBe(true);
    expect(json(bad).error).toMatchObject({ code: 'invalid_transition', paused_by: 'agent' });
    expect(json(bad).error.message).toContain(
      'the workflow is paused. You asked to pause this workflow (reason: lunch)',
    );

    const context = (await call('get_resume_context')).content[0]!.text;
    expect(context).toContain('Hexagonal layout');
    expect(context).toContain('UNRESOLVED: Build: tsc failed');
    const hash = /hash ([0-9a-f]{16})/.exec(context)![1]!;
    expect(json(await call('ack_context', { hash }))).toMatchObject({ matches: true });

    const status = await runCli(['status', '--json'], { cwd: repo, env });
    expect(status.json<Record<string, any>>().handoff).toMatchObject({
      context_hash: hash,
      acknowledged: true,
      loaded_latest: true,
      acknowledged_via: 'mcp',
    });

    const resources = (await client.listResources()).resources;
    expect(resources).toHaveLength(1);
    const snap = await client.readResource({ uri: resources[0]!.uri });
    expect(JSON.parse((snap.contents[0] as { text: string }).text)).toMatchObject({
      trigger: 'pause',
      pause_reason: 'lunch',
    });
    const details = (
      await call('get_details', {
        snapshot_id: JSON.parse((snap.contents[0] as { text: string }).text).id,
        category: 'decisions',
      })
    ).content[0]!.text;
    expect(details).toMatch(
      /^1 decision \(as of snapshot snap-\S+\), oldest first:\n\ndec-\S+ {2}\S+ {2}architecture\n {2}Hexagonal layout\n {2}why: adapters at the edges$/,
    );

    const cp = json(await call('create_checkpoint', { name: 'design done' }));
    expect(cp.checkpoint.name).toBe('cp-02-design-done');
  });

  it('get_details takes a category alone, as `baton details <category>` does: the workflow as it stands', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'get_details')!;
    expect(tool.inputSchema.required).toEqual(['category']);
    expect(tool.description).toMatch(/as the workflow stands now/);
    const alone = await call('get_details', { category: 'decisions' });
    expect(alone.isError, alone.content[0]!.text).toBeFalsy();
    expect(alone.content[0]!.text).toContain('Hexagonal layout');
    // in the words `baton details` prints them
    const cli = await runCli(['details', 'decisions'], { cwd: repo, env });
    expect(cli.code, cli.stderr).toBe(0);
    expect(alone.content[0]!.text).toBe(cli.stdout.trim());
    // git-changes as it stands: the worktree's state read now (a live snapshot has none stored)
    const git = await runCli(['details', 'git-changes', '--json'], { cwd: repo, env });
    expect(git.code, git.stderr).toBe(0);
    expect(JSON.parse(git.stdout)).toMatchObject({ git_state: { branch: expect.any(String) } });
    // the snapshot the briefing names (nothing changed since its checkpoint) holds the same records
    const named = /get_details with a category and snapshot_id (\S+)\.\n$/.exec(
      (await call('get_resume_context')).content[0]!.text,
    )![1];
    expect((await call('get_details', { snapshot_id: named, category: 'decisions' })).content[0]!.text).toBe(
      alone.content[0]!.text.replace('the workflow as it stands', `as of snapshot ${named}`),
    );
  });

  it("refuses an argument a tool does not take, naming it and the ones it takes; the client's _meta passes", async () => {
    const before = json(await call('next_task')).counts;
    const r = await call('add_task', { id: 'L4', title: 'Add rate limiting', depends_on: ['A'] });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain(
      'add_task has no argument id, depends_on; it takes workflow_id, task_id, title, description, deps, after, lane',
    );
    // nothing was added with the arguments it did know
    expect(json(await call('next_task')).counts).toEqual(before);
    // every tool says so in its schema, and refuses one; a tool of no argument but workflow_id too
    for (const t of (await client.listTools()).tools) {
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
    expect((await call('next_task', { verbose: true })).content[0]!.text).toContain(
      'next_task has no argument verbose; it takes workflow_id',
    );
    // what the SDK client adds to a call sits beside the arguments (params._meta, its progress token): it passes
    const withMeta = (await client.callTool({ name: 'next_task', arguments: {} }, undefined, {
      onprogress: () => {},
    })) as ToolResult;
    expect(withMeta.isError, withMeta.content[0]!.text).toBeFalsy();
  });

  it('an empty history says what history holds and where to look instead, in the words `baton details` says it', async () => {
    // the workflow has many events (tasks, decisions, errors, tests): none is a history entry
    const mcp = (await call('get_details', { category: 'history' })).content[0]!.text;
    const cli = await runCli(['details', 'history'], { cwd: repo, env });
    expect(cli.code, cli.stderr).toBe(0);
    const why = /^no history entries \(the workflow as it stands\): (history holds .+)$/.exec(
      cli.stdout.trim(),
    )?.[1];
    expect(why).toMatch(/the agent's own steps/);
    expect(mcp).toBe(cli.stdout.trim());
  });

  it('rejects invalid arguments without dying', async () => {
    const r = await call('record_decision', { decision_type: 'vibes', description: 'x' });
    expect(r.isError).toBe(true);
    expect((await call('next_task')).isError).toBeFalsy();
  });

  it("lists integer arguments without zod's safe-integer bounds, and still refuses a number that is not whole", async () => {
    const tools = (await client.listTools()).tools;
    expect(JSON.stringify(tools)).not.toContain('9007199254740991');
    const props = (tool: string) =>
      tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props('add_task').lane).toMatchObject({ type: 'integer', minimum: 0 });
    expect(props('add_task').lane).not.toHaveProperty('maximum');
    // a real bound stays
    expect(props('get_resume_context').budget).toMatchObject({ minimum: 200, maximum: 1_000_000 });
    for (const [tool, args] of [
      ['add_task', { title: 'half a lane', lane: 1.5 }],
      ['add_task', { title: 'before the first lane', lane: -1 }],
      ['get_resume_context', { budget: 2000.5 }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.content[0]!.text).toMatch(/int|>=/);
    }
  });
});

/** What an agent can only do through MCP (it may have no terminal): every way on is a tool, named as a tool. */
describe('baton mcp: an agent without a terminal', () => {
  const env = { BATON_HOME: tempDir('baton-home-') };
  const clients: Client[] = [];
  const connect = async (cwd: string, extra: Record<string, string> = {}) => {
    const client = await mcpClient(cwd, { ...env, ...extra });
    clients.push(client);
    return async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
  };
  const text = (r: ToolResult) => r.content[0]!.text;
  const json = (r: ToolResult) => JSON.parse(text(r)) as Record<string, any>;
  afterAll(() => Promise.all(clients.map((c) => c.close())));

  const workflow = async (title: string, ...tasks: string[]) => {
    const repo = makeRepo();
    const created = await runCli(
      ['create', '--title', title, ...tasks.flatMap((t) => ['--task', t]), '--json'],
      { cwd: repo, env },
    );
    expect(created.code, created.stderr).toBe(0);
    return { repo, id: created.json<{ id: string }>().id, call: await connect(repo) };
  };

  it('resolves a recorded error by its id: the briefing shows it once, resolved', async () => {
    const { call } = await workflow('Errors', 'A:Validate');
    const tool = (await clients.at(-1)!.listTools()).tools.find((t) => t.name === 'record_error')!;
    expect(tool.description).toMatch(/resolve_error/);
    const recorded = json(
      await call('record_error', { error_type: 'TestFailure', error_message: "add('1',2) returned '12'" }),
    );
    const errorId = recorded.record.id as string;
    const resolved = await call('resolve_error', {
      error_id: errorId,
      resolution: 'fixed',
      resolution_notes: 'typeof check',
    });
    expect(resolved.isError, text(resolved)).toBeFalsy();
    expect(json(resolved).error).toMatchObject({
      id: errorId,
      resolution: 'fixed',
      resolution_notes: 'typeof check',
    });
    const context = text(await call('get_resume_context'));
    expect(context).not.toContain('UNRESOLVED');
    expect(context.split("add('1',2) returned '12'").length - 1).toBe(1);
    expect(context).toContain("TestFailure: add('1',2) returned '12' [fixed]");
    const unknown = await call('resolve_error', { error_id: 'err-nope', resolution: 'fixed' });
    expect(unknown.isError).toBe(true);
    expect(json(unknown).error.code).toBe('not_found');
  });

  it("after the user's pause: the task tools tell the agent to end its turn, not to resume it; the CLI tells the person to resume it; resume_workflow does", async () => {
    const { repo, call } = await workflow('Paused', 'A:One', 'B:Two');
    expect(json(await call('complete_task', { task_id: 'A' })).workflow_status).toBe('in_progress');
    // the user pauses it (nothing in progress: at once)
    const paused = await runCli(['pause', '--reason', 'end of day', '--json'], { cwd: repo, env });
    expect(paused.code, paused.stderr).toBe(0);
    const told = (r: ToolResult, action: string) => {
      expect(r.isError).toBe(true);
      expect(json(r).error).toMatchObject({ current_status: 'paused', paused_by: 'user' });
      expect(json(r).error.message).toBe(
        `cannot ${action}: the workflow is paused. The user asked to pause this workflow (reason: end of day), and it is now paused: no new task starts until the workflow is resumed. End your turn now; do not resume it yourself.`,
      );
    };
    told(await call('start_task', { task_id: 'B' }), 'start B');
    told(await call('complete_task', { task_id: 'B' }), 'complete B');
    told(await call('fail_task', { task_id: 'B', reason: 'x' }), 'fail B');
    // the person at the terminal is the one who resumes it
    const cli = await runCli(['task', 'done', 'B'], { cwd: repo, env });
    expect(cli.code).toBe(3);
    expect(cli.stderr).toContain(
      'cannot complete B: the workflow is paused; resume it first (`baton resume`)',
    );
    const resumed = await call('resume_workflow');
    expect(resumed.isError, text(resumed)).toBeFalsy();
    expect(json(resumed)).toMatchObject({
      outcome: 'resumed',
      status: 'in_progress',
      session_number: 2,
      next_task: { id: 'B' },
    });
    expect(json(resumed).context).toContain('Session Resume Context (session 2 of 2)');
    expect(json(await call('complete_task', { task_id: 'B' })).workflow_status).toBe('completed');
  });

  it('hands a paused workflow the briefing `baton context` shows: one hash, acknowledged as the latest', async () => {
    const { repo, call } = await workflow('Numbered', 'A:One', 'B:Two');
    await call('complete_task', { task_id: 'A' });
    expect(json(await call('request_pause', { reason: 'end of day' }))).toMatchObject({ outcome: 'paused' });
    const delivered = text(await call('get_resume_context'));
    const cli = await runCli(['context', '--json'], { cwd: repo, env });
    expect(cli.code, cli.stderr).toBe(0);
    const previewed = cli.json<{ hash: string; body: string }>();
    // the same briefing: only the footer that says where the rest is is this server's own
    expect(delivered.startsWith(previewed.body)).toBe(true);
    expect(delivered.slice(previewed.body.length)).toMatch(/^---\nMore: the MCP tool get_details /);
    // the hash `baton context` printed is the one delivered: acknowledging it says the session has the latest
    expect(json(await call('ack_context', { hash: previewed.hash }))).toMatchObject({ matches: true });
    // addressed to the session that goes on with the work: the one the resume starts, whose briefing says the same
    const session = /Session Resume Context \(session (\d+) of \d+\)/;
    expect(session.exec(delivered)?.[1]).toBe('2');
    const resumed = json(await call('resume_workflow'));
    expect(resumed).toMatchObject({ outcome: 'resumed', session_number: 2 });
    expect(session.exec(resumed.context as string)?.[1]).toBe('2');
  });

  it('names its tools for more, not the CLI first, with the hash `baton context` gives; each within the budget', async () => {
    const { repo, call } = await workflow('Footers', 'A:Design the store', 'B:Write the API');
    expect(json(await call('start_task', { task_id: 'A' }))).toMatchObject({
      workflow_status: 'in_progress',
    });
    // enough decisions that 400 tokens cannot show them all: the budget is tight
    for (let i = 0; i < 12; i++)
      await call('record_decision', {
        decision_type: 'architecture',
        description: `Keep store ${i} behind a port so the tests can run it in memory and in PostgreSQL alike`,
        rationale: `decision ${i}: the adapters differ only in their driver, and the core stays free of I/O`,
      });
    const delivered = await call('get_resume_context', { budget: 400 });
    const mcp = text(delivered);
    const cli = await runCli(['context', '--budget', '400', '--json'], { cwd: repo, env });
    expect(cli.code, cli.stderr).toBe(0);
    const c = cli.json<{
      hash: string;
      body: string;
      markdown: string;
      snapshot_id: string;
      tokens: number;
    }>();
    expect(c).toMatchObject({ over_budget: false, budget: 400 });
    // one briefing and one hash for the same state, whichever surface hands it over: the footer apart
    expect((delivered as { structuredContent?: { hash: string } }).structuredContent?.hash).toBe(c.hash);
    expect(mcp).toContain(`hash ${c.hash} -->`);
    expect(mcp.startsWith(c.body)).toBe(true);
    expect(c.markdown.startsWith(c.body)).toBe(true);
    // the MCP server's footer names its tool get_details with a category and the snapshot, and no command
    const footer = mcp.slice(c.body.length);
    expect(footer).toBe(
      `---\nMore: the MCP tool get_details with a category and snapshot_id ${c.snapshot_id}.\n`,
    );
    // the CLI's names the CLI first
    expect(c.markdown.slice(c.body.length)).toBe(
      `---\nMore: \`baton details ${c.snapshot_id} <category>\` or the MCP tool \`get_details\`.\n`,
    );
    const plain = await runCli(['context', '--budget', '400'], { cwd: repo, env });
    expect(plain.stdout.trimEnd()).toBe(c.markdown.trimEnd());
    // the budget is a hard limit on everything handed over, either footer included
    expect(c.tokens).toBe(countTokens(c.markdown));
    expect(countTokens(c.markdown)).toBeLessThanOrEqual(400);
    expect(countTokens(mcp)).toBeLessThanOrEqual(400);
    expect(c.body).toMatch(/\(baton details decisions\)/);
    // the hash read at the terminal is acknowledged as the latest through the tool, and the tool reads the snapshot
    expect(json(await call('ack_context', { hash: c.hash }))).toMatchObject({ matches: true });
    const details = await call('get_details', { category: 'decisions', snapshot_id: c.snapshot_id });
    expect(details.isError, text(details)).toBeFalsy();
    expect(text(details)).toContain('Keep store 11 behind a port');
    // resume_workflow hands the briefing over with the same footer
    await call('fail_task', { task_id: 'A', reason: 'the port is not settled' });
    expect(json(await call('request_pause', {}))).toMatchObject({ outcome: 'paused' });
    const resumed = json(await call('resume_workflow'));
    expect(resumed.context as string).toMatch(
      /\n---\nMore: the MCP tool get_details with a category and snapshot_id /,
    );
    expect(resumed.context as string).not.toMatch(/\nMore: `baton details/);
  });

  it('a hash that is not the latest context: the answer says to call get_resume_context again; the CLI, baton context', async () => {
    const { repo, call } = await workflow('Stale', 'A:One');
    const none = json(await call('ack_context', { hash: 'deadbeefdeadbeef' }));
    expect(none).toMatchObject({ matches: false, latest: null });
    expect(none.next).toBe(
      'no context was handed over yet: the MCP tool `get_resume_context` returns it; read it, then acknowledge its hash',
    );
    const hash = /hash ([0-9a-f]{16})/.exec(text(await call('get_resume_context')))![1]!;
    const stale = json(await call('ack_context', { hash: 'deadbeefdeadbeef' }));
    expect(stale).toMatchObject({ matches: false, latest: hash });
    expect(stale.next).toBe(
      `the context changed since it was read (the latest is ${hash}): the MCP tool \`get_resume_context\` returns it; read it, then acknowledge its hash`,
    );
    // a match needs no word on what to do
    expect(json(await call('ack_context', { hash }))).not.toHaveProperty('next');
    const cli = await runCli(['ack', 'deadbeefdeadbeef'], { cwd: repo, env });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout.trim()).toBe(
      `acknowledged deadbeefdeadbeef, a stale one: the context changed since it was read (the latest is ${hash}): \`baton context\` prints it; read it, then acknowledge its hash`,
    );
  });

  it('names its own arguments in errors, never the CLI flag -w', async () => {
    const { id, call } = await workflow('Named', 'A:One');
    const stale = await call('get_details', { category: 'decisions', snapshot_id: 'live-999' });
    expect(stale.isError).toBe(true);
    expect(json(stale).error.message).toMatch(
      new RegExp(
        `^live-999 is not of workflow ${id}, which is at version \\d+: name the workflow the context came from with workflow_id$`,
      ),
    );
    // a worktree with no workflow, and one with two
    const none = await (await connect(makeRepo()))('next_task');
    expect(json(none).error.message).toMatch(
      /, or pass workflow_id(?: \(`baton list` shows the incomplete workflows of other folders\))?$/,
    );
    const two = makeRepo();
    const ids: string[] = [];
    for (const title of ['first', 'second'])
      ids.push(
        (await runCli(['--json', 'create', '--title', title], { cwd: two, env })).json<{ id: string }>().id,
      );
    const both = await (await connect(two))('next_task');
    expect(json(both).error.message).toMatch(
      /^2 incomplete workflows in \S+; choose one with workflow_id:\n/,
    );
    // the MCP server of an agent `baton run` drives means the workflow it drives (its BATON_RUN_WORKFLOW)
    const driven = await (await connect(two, { BATON_RUN_WORKFLOW: ids[1]! }))('get_resume_context');
    expect(driven.isError, text(driven)).toBeFalsy();
    expect(text(driven)).toContain('second');
    for (const r of [stale, none, both]) expect(json(r).error.message).not.toMatch(/-w\b/);
    // nor do the snapshots as resources
    const bare = await mcpClient(makeRepo(), env);
    clients.push(bare);
    const listed = await bare.listResources().then(
      () => null,
      (e: Error) => e.message,
    );
    expect(listed).toMatch(
      /, or pass workflow_id(?: \(`baton list` shows the incomplete workflows of other folders\))?$/,
    );
    // the CLI's own words stay the CLI's
    const cli = await runCli(['details', 'live-999', 'decisions', '-w', id], { cwd: makeRepo(), env });
    expect(cli.stderr).toContain('name the workflow the context came from with -w <id>');
  });

  it('names the MCP tool (or resource) for each way on where there is one, and the CLI keeps its commands', async () => {
    const cliSays = async (repo: string, ...args: string[]) =>
      (await runCli(args, { cwd: repo, env })).stderr;
    // not started: start_task starts it
    const pending = await workflow('Pending', 'A:One');
    const notStarted = json(await pending.call('resume_workflow')).error.message as string;
    expect(notStarted).toMatch(/; it has not started: the MCP tool `start_task` starts it$/);
    expect(await cliSays(pending.repo, 'resume')).toContain(
      'it has not started: `baton run` or an agent session starts it',
    );
    // running: its briefing is get_resume_context's
    expect((await pending.call('start_task', { task_id: 'A' })).isError).toBeFalsy();
    const running = json(await pending.call('resume_workflow')).error.message as string;
    expect(running).toMatch(
      /it is not stopped: nothing to resume \(the briefing a new session gets: the MCP tool `get_resume_context` returns it\)$/,
    );
    expect(await cliSays(pending.repo, 'resume')).toContain(
      'nothing to resume (the briefing a new session gets: `baton context` prints it)',
    );
    // a snapshot that is not there: the resources list them
    const snapshot = json(
      await pending.call('get_details', { category: 'decisions', snapshot_id: 'snap-nope' }),
    ).error.message as string;
    expect(snapshot).toMatch(
      /^no snapshot snap-nope\b.*; the MCP resources `baton:\/\/snapshots\/\{snapshot_id\}` list them$/,
    );
    expect(await cliSays(pending.repo, 'details', 'snap-nope', 'decisions')).toContain(
      '; list them with `baton snapshots`',
    );
    // a worktree whose workflow is over: the latest one is seen with next_task and its workflow_id
    const over = await workflow('Over', 'A:One');
    expect(json(await over.call('complete_task', { task_id: 'A' })).workflow_status).toBe('completed');
    const ended = json(await over.call('next_task')).error.message as string;
    expect(ended).toContain(`(see it with the MCP tool \`next_task\` with workflow_id ${over.id})`);
    expect(await cliSays(over.repo, 'status')).toContain(`(see it with \`baton status -w ${over.id}\`)`);
    // none of them tells the agent to run a command a tool does
    for (const m of [notStarted, running, snapshot, ended])
      expect(m).not.toMatch(/`baton (?:resume|context|snapshots|status|run)\b|-w\b/);
  });

  it('a task that is not in the plan: says which are (or that there are none yet) and what adds one, in each surface', async () => {
    const empty = await workflow('Empty');
    const none = json(await empty.call('start_task', { task_id: 'T1' })).error.message as string;
    expect(none).toBe(
      `task T1 is not in workflow ${empty.id}: it has no tasks yet (the MCP tool \`add_task\` adds one)`,
    );
    // given no id, the task takes the next free T<n>: T1 in an empty plan
    expect(json(await empty.call('add_task', { title: 'Add pow()' })).task).toMatchObject({ id: 'T1' });
    const other = json(await empty.call('start_task', { task_id: 'T9' })).error.message as string;
    expect(other).toBe(
      `task T9 is not in workflow ${empty.id}, whose tasks are T1 (the MCP tool \`add_task\` adds one)`,
    );
    const cli = await runCli(['task', 'start', 'T9'], { cwd: empty.repo, env });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(
      `task T9 is not in workflow ${empty.id}, whose tasks are T1 (\`baton task add\` adds one)`,
    );
  });

  it("refuses complete_task while the task's last test run failed, as baton run judges a turn; force completes it, saying so", async () => {
    const { repo, id, call } = await workflow('Sum', 'A:Add sum', 'B:Add product');
    expect((await call('start_task', { task_id: 'A' })).isError).toBeFalsy();
    const failing = { phase: 'red', failing_tests: ['adds up'], expected_failures: [], command: 'npm test' };
    expect((await call('record_test_run', failing)).isError).toBeFalsy();
    const refused = await call('complete_task', { task_id: 'A', summary: 'sum added' });
    expect(refused.isError).toBe(true);
    expect(json(refused).error).toMatchObject({
      code: 'invalid_transition',
      message:
        "cannot complete A: its last test run failed: `npm test` -> failing: adds up. Make the tests pass and call complete_task again; if A is meant to leave them failing (a red step, or failures that are not this task's), call complete_task with force: true and say why in summary",
    });
    const status = () =>
      runCli(['status', '-w', id, '--json'], { cwd: repo, env }).then(
        (r) => r.json<{ tasks: { id: string; status: string; note: string | null }[] }>().tasks,
      );
    expect((await status()).find((t) => t.id === 'A')?.status).toBe('in_progress');
    // the tests pass now: completed
    expect((await call('record_test_run', { phase: 'green', command: 'npm test' })).isError).toBeFalsy();
    expect(json(await call('complete_task', { task_id: 'A', summary: 'sum added' })).task).toMatchObject({
      status: 'done',
    });
    // failing again under B, completed on purpose: the summary says the tests were failing
    await call('start_task', { task_id: 'B' });
    expect((await call('record_test_run', failing)).isError).toBeFalsy();
    const forced = await call('complete_task', {
      task_id: 'B',
      summary: 'product added; adds up fails on the sum, not this',
      force: true,
    });
    expect(forced.isError, text(forced)).toBeFalsy();
    expect(json(forced).task).toMatchObject({ status: 'done' });
    expect((await status()).find((t) => t.id === 'B')?.note).toBe(
      'product added; adds up fails on the sum, not this (completed with its tests failing: `npm test` -> failing: adds up)',
    );
  });

  it('refuses a green test run with failing tests, as the CLI does', async () => {
    const { repo, call } = await workflow('Tests', 'A:One');
    const green = await call('record_test_run', { phase: 'green', failing_tests: ['add rejects strings'] });
    expect(green.isError).toBe(true);
    expect(json(green).error).toMatchObject({
      code: 'invalid_input',
      message:
        'a green test run has no failing tests, yet this one names 1 (add rejects strings): record it as red while tests fail',
    });
    const cli = await runCli(['record', 'test', '--phase', 'green', '--failing', 'add rejects strings'], {
      cwd: repo,
      env,
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('a green test run has no failing tests');
    expect((await call('record_test_run', { phase: 'green' })).isError).toBeFalsy();
    expect(
      (await call('record_test_run', { phase: 'red', failing_tests: ['add rejects strings'] })).isError,
    ).toBeFalsy();
  });
});

describe('baton mcp with a client that closes its end after its last call', () => {
  it('answers the calls it read before stdin ended, then exits', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-') };
    expect(
      (await runCli(['create', '--title', 'Piped', '--task', 'A:Design'], { cwd: repo, env })).code,
    ).toBe(0);
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_resume_context', arguments: {} } },
    ];
    const r = await runCli(['mcp'], {
      cwd: repo,
      env,
      input: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; result?: { content: { text: string }[] } });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1]!.result!.content[0]!.text).toContain('Piped');
  });
});
