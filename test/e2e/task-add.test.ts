import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cliModes, modeEnv } from '../helpers/cli-modes.js';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer } from '../helpers/in-process-server.js';
import { HttpClient } from '../../src/client/http-client.js';

interface Status {
  tasks: { id: string; title: string; status: string; deps: string[]; lane: number }[];
  agent_tasks?: unknown;
}

describe.each(cliModes)('baton task add and the agent list (%s)', (mode) => {
  const env = modeEnv(mode);

  it('adds tasks after others, with dependencies and lanes, and refuses bad ones with exit 2', async () => {
    const repo = makeRepo();
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    expect((await baton('create', '--title', 'Plan', '--task', 'A:Schema', '--task', 'B:API:A')).code).toBe(
      0,
    );
    const added = await baton('task', 'add', 'C:Write the docs:A', '--after', 'A', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(added.json()).toMatchObject({ task: { id: 'C', title: 'Write the docs', deps: ['A'], lane: 0 } });
    expect((await baton('task', 'add', 'D:Release', '--lane', '2')).stdout).toMatch(/task D added/);
    const status = (await baton('status', '--json')).json<Status>();
    expect(status.tasks.map((t) => [t.id, t.lane])).toEqual([
      ['A', 0],
      ['C', 0],
      ['B', 0],
      ['D', 2],
    ]);
    // said as a sentence: one task it waits for "is" done, several "are"
    expect((await baton('task', 'add', 'G:Review the docs:C')).stdout.trim()).toMatch(
      /^task G added to wf-\S+ \(lane \d+, after C is done\)$/,
    );
    expect((await baton('task', 'add', 'H:Announce:B,G')).stdout.trim()).toMatch(
      /^task H added to wf-\S+ \(lane \d+, after B, G are done\)$/,
    );
    const dup = await baton('task', 'add', 'A:again');
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/already exists/);
    const unknown = await baton('task', 'add', 'E:x:Z');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown task Z/);
    expect((await baton('task', 'add', '  ')).code).toBe(2);
  });

  it('takes a task typed as a title alone, with the next free T<n> as its id', async () => {
    const repo = makeRepo();
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    const made = await baton('create', 'Numbered', '--task', 'Write the schema', '--task', 'Build the API');
    expect(made.code, made.stderr).toBe(0);
    const added = await baton('task', 'add', 'Write the docs');
    expect(added.stdout).toMatch(/^task T3 added to wf-/);
    const status = (await baton('status', '--json')).json<Status>();
    expect(status.tasks.map((t) => [t.id, t.title])).toEqual([
      ['T1', 'Write the schema'],
      ['T2', 'Build the API'],
      ['T3', 'Write the docs'],
    ]);
  });

  it('records requests once and shows them as the issue', async () => {
    const repo = makeRepo();
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    await baton('create', '--title', 'Requests');
    expect((await baton('record', 'request', 'Make the importer incremental\nfrom a byte offset')).code).toBe(
      0,
    );
    const again = await baton('record', 'request', 'Make the importer   incremental from a byte offset');
    expect(again.stdout).toMatch(/already recorded/);
    const status = (await baton('status', '--json')).json<{ workflow: { issue: { title: string } } }>();
    expect(status.workflow.issue.title).toBe('Make the importer incremental');
    await baton('record', 'request', 'and keep the old reader working');
    const cp = (await baton('checkpoint', '--name', 'x', '--json')).json<{
      checkpoint: { snapshot_id: string };
    }>();
    const details = await baton('details', cp.checkpoint.snapshot_id, 'requests', '--json');
    expect(details.code, details.stderr).toBe(0);
    expect(JSON.parse(details.stdout).map((r: { text: string }) => r.text)).toEqual([
      'Make the importer incremental\nfrom a byte offset',
      'and keep the old reader working',
    ]);
  });
});

describe('the agent list and task add over REST', () => {
  it('syncs TodoWrite calls through HttpClient, once, and adds a task with POST /tasks', async () => {
    const t = await startTestServer();
    try {
      const repo = makeRepo();
      const client = new HttpClient(t.server.url, t.server.token, repo);
      const wf = await client.create({
        title: 'REST list',
        tasks: [{ id: 'A', title: 'Implement the parser' }],
      });
      const calls = [
        {
          tool: 'TodoWrite',
          id: 'toolu_1',
          input: {
            todos: [
              { content: 'Implement parser', status: 'in_progress', activeForm: 'Implementing' },
              { content: 'Write tests', status: 'pending', activeForm: 'Writing' },
            ],
          },
        },
      ];
      const first = await client.syncAgentTasks({ cwd: repo }, { source: 'claude-code', calls });
      expect(first).toEqual({
        workflow_id: wf.id,
        added: ['T1'],
        started: ['A'],
        completed: [],
        skipped: [],
        retitled: [],
        linked: [],
      });
      const before = (await client.get({ cwd: repo })).version;
      const again = await client.syncAgentTasks({ cwd: repo }, { source: 'claude-code', calls });
      expect(again).toMatchObject({ added: [], started: [], completed: [], skipped: [] });
      expect((await client.get({ cwd: repo })).version).toBe(before);

      const add = await t.api(`/api/workflows/${wf.id}/tasks`, {
        method: 'POST',
        json: { id: 'Z', title: 'Ship', deps: ['T1'] },
      });
      expect(add.status, await add.clone().text()).toBe(201);
      expect(await add.json()).toMatchObject({ task: { id: 'Z', deps: ['T1'] } });
      // no id: the next free T<n> (the agent's list took T1)
      const untitled = await t.api(`/api/workflows/${wf.id}/tasks`, {
        method: 'POST',
        json: { title: 'Announce' },
      });
      expect(await untitled.json()).toMatchObject({ task: { id: 'T2', title: 'Announce' } });
      const bad = await t.api(`/api/workflows/${wf.id}/agent-tasks`, {
        method: 'POST',
        json: { source: 'gemini', calls: [] },
      });
      expect(bad.status).toBe(400);
    } finally {
      await t.close();
    }
  });
});
