import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderUnseenByServer } from '../../src/cli/server-folder.js';
import { HttpClient } from '../../src/client/http-client.js';
import { BatonError } from '../../src/core/index.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

/** A checkout on the client's machine: no such directory exists on the server. */
const elsewhere = '/home/someone-else/src/their-checkout-that-is-not-on-this-server';

/**
 * Server mode from another machine: the client's working directory means nothing to the server. The client sends
 * it (X-Baton-Cwd) only to resolve `current`; the server reads it only for that; with `-w <id>` all works.
 */
describe('a client on another machine', () => {
  const repo = makeRepo();
  let s: ServerProcess;
  let id = '';

  beforeAll(async () => {
    s = await startServerProcess(tempDir('baton-home-'));
    const r = await s.api('/api/workflows', {
      method: 'POST',
      json: {
        title: 'remote',
        tasks: [
          { id: 'T1', title: 'one' },
          { id: 'T2', title: 'two' },
        ],
        worktree: repo,
      },
    });
    id = ((await r.json()) as { id: string }).id;
  });
  afterAll(async () => s?.stop());

  it('works on a workflow named by id, from a working directory the server does not have', async () => {
    const client = new HttpClient(s.url, s.token, elsewhere);
    const ref = { workflowId: id, cwd: elsewhere };
    expect((await client.get(ref)).id).toBe(id);
    await client.task(ref, 'start', 'T1');
    await client.record(ref, {
      kind: 'history',
      text: 'paths differ between machines',
      task_id: 'T1',
      source: null,
    });
    await client.task(ref, 'done', 'T1');
    await client.checkpoint(ref, 'remote-one');
    const status = (await client.status(ref)) as {
      workflow: { status: string };
      tasks: { id: string; status: string }[];
    };
    expect(status.workflow.status).toBe('in_progress');
    expect((await client.snapshots(ref)).snapshots.length).toBeGreaterThan(0);
    const paused = await client.pause(ref, { reason: 'from afar', force: true });
    expect(paused.status).toBe('paused');
    await client.resume(ref);
    expect((await client.get(ref)).status).toBe('in_progress');
  });

  it('`current` from that directory says clearly that the server has no such directory', async () => {
    const client = new HttpClient(s.url, s.token, elsewhere);
    const e = await client.get({ cwd: elsewhere }).catch((x: unknown) => x);
    expect(BatonError.isInstance(e)).toBe(true);
    expect((e as BatonError).code).toBe('invalid_input');
    expect((e as BatonError).message).toBe(
      `header X-Baton-Cwd ${elsewhere} is not a directory on the server: check the path; if the server runs on another machine, where this path does not exist: Name the workflow with \`-w <id>\` (\`baton list\` shows the server's); or use the team's database directly (BATON_DATABASE_URL instead of BATON_URL); or keep the repository at the same path on both machines (docs/workers.md, Worktrees)`,
    );
  });

  it('init and doctor are told when the hooks would write to a server that has no such folder', async () => {
    const store = { kind: 'server' as const, place: s.url, from: 'BATON_URL', thisShellOnly: true };
    const open = async () => new HttpClient(s.url, s.token, elsewhere);
    expect(await folderUnseenByServer(open, store, elsewhere)).toBe(
      `the Baton server ${s.url} has no folder ${elsewhere} on its machine, so the agent hooks here record nothing (each fails saying so): check the path; if the server runs on another machine, where this path does not exist: Name the workflow with \`-w <id>\` (\`baton list\` shows the server's); or use the team's database directly (BATON_DATABASE_URL instead of BATON_URL); or keep the repository at the same path on both machines (docs/workers.md, Worktrees)`,
    );
    // a folder the server has (this machine's repository), or a store that is no server: nothing to say
    expect(await folderUnseenByServer(open, store, repo)).toBeNull();
    expect(await folderUnseenByServer(open, { ...store, kind: 'sqlite' }, elsewhere)).toBeNull();
  });

  it('creating a workflow from that directory says what to do instead', async () => {
    const client = new HttpClient(s.url, s.token, elsewhere);
    const e = await client.create({ title: 'x', tasks: [{ id: 'A', title: 'a' }] }).catch((x: unknown) => x);
    expect((e as BatonError).code).toBe('invalid_input');
    expect((e as BatonError).message).toContain(
      `cwd ${elsewhere} is not a directory on the server: check the path; if the server runs on another machine, where this path does not exist: A workflow's worktree must be a path on the server's machine; or use the team's database directly (BATON_DATABASE_URL instead of BATON_URL)`,
    );
  });

  it('the server ignores X-Baton-Cwd on a route with an id, whatever it holds', async () => {
    const auth = { authorization: `Bearer ${s.token}` };
    for (const cwd of [elsewhere, 'C:\\Users\\me\\src\\app', 'relative/dir']) {
      const r = await rawRequest(s.url, {
        path: `/api/workflows/${id}/status`,
        headers: { ...auth, 'x-baton-cwd': cwd },
      });
      expect(r.status, cwd).toBe(200);
    }
    // with `current`, it is read and checked
    const cur = await rawRequest(s.url, {
      path: '/api/workflows/current/status',
      headers: { ...auth, 'x-baton-cwd': repo },
    });
    expect(cur.status).toBe(200);
    expect(cur.json<{ workflow: { id: string } }>().workflow.id).toBe(id);
    const rel = await rawRequest(s.url, {
      path: '/api/workflows/current/status',
      headers: { ...auth, 'x-baton-cwd': 'relative/dir' },
    });
    expect(rel.status).toBe(400);
  });

  it("a developer's CLI without the server's token: `baton token` makes none here, and a refusal says which token was sent and where the right one is", async () => {
    const home = tempDir('baton-dev-home-');
    const cli = (args: string[], env: Record<string, string> = {}) =>
      runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: s.url, ...env } });
    const token = await cli(['token']);
    expect(token.code).toBe(2);
    expect(token.stderr).toContain(`no token to send to the server ${s.url}`);
    expect(token.stderr).toContain('run `baton token` where the server runs (with its BATON_HOME)');
    expect(token.stderr).toContain('set BATON_TOKEN');
    expect(token.stdout).toBe('');
    expect(existsSync(join(home, 'token'))).toBe(false);
    const none = await cli(['status', '-w', id]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      `sent no token (BATON_TOKEN is not set, and ${join(home, 'token')} does not exist)`,
    );
    const wrong = await cli(['status', '-w', id], { BATON_TOKEN: 'not-the-token' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('sent BATON_TOKEN');
    expect(wrong.stderr).toContain(
      'wrong bearer token (print the right one with `baton token` where the server runs)',
    );
    // with the right one, both work
    expect((await cli(['status', '-w', id], { BATON_TOKEN: s.token })).code).toBe(0);
    expect((await cli(['token'], { BATON_TOKEN: s.token })).stdout.trim()).toBe(s.token);
  });
});
