import { describe, expect, it } from 'vitest';
import { hookWorkspace } from '../helpers/hook-workspace.js';

describe('`baton details tasks`', () => {
  it('lists the task graph with statuses, what each waits for and its summary, now and as of a snapshot', async () => {
    const { baton } = hookWorkspace();
    await baton(['create', '--title', 'T', '--task', 'T1:Write schema', '--task', 'T2:Implement API:T1']);
    await baton(['task', 'start', 'T1']);
    expect((await baton(['task', 'done', 'T1', '--summary', 'users table with argon2 hashes'])).code).toBe(0);
    const now = await baton(['details', 'tasks']);
    expect(now.code, now.stderr).toBe(0);
    const lines = now.stdout.trim().split('\n');
    expect(lines[0]).toBe("2 tasks (the workflow as it stands), in the graph's order:");
    expect(now.stdout).toMatch(/\nT1 {2}DONE {2}session 1\n {2}Write schema\n/);
    expect(now.stdout).toContain('  summary: users table with argon2 hashes');
    expect(now.stdout).toMatch(/\nT2 {2}PENDING {2}after T1\n {2}Implement API/);
    // --json (what the MCP tool get_details and the REST API answer): the tasks as the state holds them
    const json = (await baton(['--json', 'details', 'tasks'])).json<
      { id: string; status: string; note: string }[]
    >();
    expect(json.map((t) => [t.id, t.status, t.note])).toEqual([
      ['T1', 'done', 'users table with argon2 hashes'],
      ['T2', 'pending', null],
    ]);
    // as of the snapshot T1's completion took, T2 not yet started then either
    const snaps = (await baton(['--json', 'snapshots'])).json<{ snapshots: { id: string }[] }>();
    const first = snaps.snapshots[0]!.id;
    await baton(['task', 'start', 'T2']);
    const then = await baton(['details', first, 'tasks']);
    expect(then.stdout.split('\n')[0]).toBe(`2 tasks (as of snapshot ${first}), in the graph's order:`);
    expect(then.stdout).toContain('T2  PENDING');
  });
});
