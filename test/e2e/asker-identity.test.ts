import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { mcpClient } from '../helpers/mcp-client.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { team } from '../helpers/teammates.js';

// One `baton serve` a team shares answers each person's CLI as the person asking (the X-Baton-Identity header every
// request carries), not as the git identity the server runs under: whose clone a checkpoint or a pause reads git
// state from, which workflow `current` means in a clone, and whose a workflow an agent's hooks start is.

type Json = Record<string, unknown>;
const ANA = 'ana@team.example';
const BEN = 'ben@team.example';

/** The CLI at `cwd` under `env` (a person's identity and HOME), over the server `s`. */
const over = (s: ServerProcess, cwd: string, env: Record<string, string>, ...args: string[]) =>
  runCli(args, { cwd, env: { ...env, BATON_URL: s.url, BATON_TOKEN: s.token } });

/** Where a server on the team's store keeps its token: the shared Baton home (SQLite), else the person's. */
const homeOf = (env: Record<string, string>) => env.BATON_HOME ?? env.HOME!;

/** Ana's workflow in progress in her clone (her hooks, on the store the team shares). */
async function anaAtWork() {
  const t = await team('sqlite');
  const a = await t.hook(t.ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
  const anas = t.follows(a.stderr)!;
  expect(anas, a.stderr).toBeDefined();
  await t.hook(t.ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
  return { ...t, anas };
}

describe("a CLI over a server run under another person's git identity", () => {
  it("Ana's checkpoint and pause over Ben's server record her clone's git state", async () => {
    const { ana, ben, anaEnv, benEnv, anas } = await anaAtWork();
    const server = await startServerProcess(homeOf(benEnv), { cwd: ben, env: benEnv });
    try {
      const cp = await over(server, ana, anaEnv, 'checkpoint', '-w', anas, '--name', 'mid', '--json');
      expect(cp.code, cp.stderr).toBe(0);
      expect(cp.json<{ checkpoint: Json }>().checkpoint).toMatchObject({
        commit: gitIn(ana, 'rev-parse', 'HEAD').trim(),
        branch: 'main',
      });
      const paused = await over(server, ana, anaEnv, 'pause', '--force', '-w', anas, '--json');
      expect(paused.code, paused.stderr).toBe(0);
      const sid = paused.json<{ snapshot_id: string }>().snapshot_id;
      const snap = await server.api(`/api/workflows/${anas}/snapshots/${sid}`);
      expect(await snap.json()).toMatchObject({
        git_note: null,
        git_state: { branch: 'main' },
      });
      // `current` in her clone is her workflow, as on her own database
      const status = await over(server, ana, anaEnv, 'status', '--json');
      expect(status.code, status.stderr).toBe(0);
      expect(status.json<{ workflow: { id: string } }>().workflow.id).toBe(anas);
    } finally {
      await server.stop();
    }
  });

  it("Ben's checkpoint of Ana's workflow over her server reads no git state of her clone", async () => {
    const { ana, ben, anaEnv, benEnv, anas } = await anaAtWork();
    const server = await startServerProcess(homeOf(anaEnv), { cwd: ana, env: anaEnv });
    try {
      const cp = await over(server, ben, benEnv, 'checkpoint', '-w', anas, '--name', 'his', '--json');
      expect(cp.code, cp.stderr).toBe(0);
      expect(cp.json<{ checkpoint: Json }>().checkpoint).toMatchObject({ commit: null });
    } finally {
      await server.stop();
    }
  });

  it("Ana's agent's hooks over Ben's server start a workflow that is hers", async () => {
    const { ana, ben, anaEnv, benEnv, anas } = await anaAtWork();
    const server = await startServerProcess(homeOf(benEnv), { cwd: ben, env: benEnv });
    try {
      const env = { ...anaEnv, BATON_URL: server.url, BATON_TOKEN: server.token };
      const input = { cwd: ana, hook_event_name: 'SessionStart', session_id: 'ana-2', source: 'startup' };
      const started = await runCli(['hook', 'SessionStart'], { cwd: ana, env, input: JSON.stringify(input) });
      expect(started.code, started.stderr).toBe(0);
      // her clone's unfinished workflow is hers to go on with, as on her own database
      expect(started.stderr).toContain(anas);
      const list = await over(server, ana, anaEnv, 'list', '--json');
      const rows = list.json<{ workflows: { id: string; owner: string | null }[] }>().workflows;
      expect(
        rows.filter((w) => w.owner === BEN),
        list.stdout,
      ).toEqual([]);
      expect(rows.find((w) => w.id === anas)?.owner).toBe(ANA);
    } finally {
      await server.stop();
    }
  });
});

/** The text of an MCP tool's answer, parsed. */
const answer = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]!.text) as Json;

describe("an agent's MCP resume_workflow asks as the person whose clone it runs in", () => {
  it("Ana's, over Ben's server, reads her clone's git state", async () => {
    const { ana, ben, anaEnv, benEnv, anas, baton } = await anaAtWork();
    expect((await baton(ana, 'pause', '--force')).code).toBe(0);
    const server = await startServerProcess(homeOf(benEnv), { cwd: ben, env: benEnv });
    const mcp = await mcpClient(ana, { ...anaEnv, BATON_URL: server.url, BATON_TOKEN: server.token });
    try {
      const r = answer(await mcp.callTool({ name: 'resume_workflow', arguments: { workflow_id: anas } }));
      expect(r.outcome, JSON.stringify(r)).toBe('resumed');
      expect(`${String(r.context)}\n${(r.warnings as string[]).join('\n')}`).not.toMatch(
        /not yours|another git identity/,
      );
    } finally {
      await mcp.close();
      await server.stop();
    }
  });

  it("Ben's, on the store they share, reads none of Ana's clone for her workflow", async () => {
    const { ana, ben, anaEnv, anas, baton } = await anaAtWork();
    expect((await baton(ana, 'pause', '--force')).code).toBe(0);
    // Ben's identity in his global git config (not the environment), so the clone at her path reads as hers to git
    const home = tempDir('baton-user-');
    writeFileSync(join(home, '.gitconfig'), `[user]\n\temail = ${BEN}\n`);
    const mcp = await mcpClient(ben, { ...anaEnv, HOME: home });
    try {
      // hers: refused, named hers, unless `theirs`
      const refused = await mcp.callTool({ name: 'resume_workflow', arguments: { workflow_id: anas } });
      expect(JSON.stringify(refused)).toContain(`${anas} is ${ANA}'s workflow, not yours (${BEN})`);
      const args = { workflow_id: anas, theirs: true };
      const r = answer(await mcp.callTool({ name: 'resume_workflow', arguments: args }));
      expect(r.outcome, JSON.stringify(r)).toBe('resumed');
      expect(String(r.context)).toContain(`${ana} is ${ANA}'s worktree, not yours (${BEN})`);
    } finally {
      await mcp.close();
    }
  });
});

describe('X-Baton-Identity on the wire', () => {
  it('a body or query `identity` (CLIs older than the header) wins over it; a malformed one is refused, named', async () => {
    const { ana, ben, benEnv, anas, baton } = await anaAtWork();
    expect((await baton(ana, 'checkpoint', '--name', 'start')).code).toBe(0);
    expect((await baton(ana, 'pause', '--force')).code).toBe(0);
    const server = await startServerProcess(homeOf(benEnv), { cwd: ben, env: benEnv });
    try {
      const plan = async (query: string, identity: string) => {
        const res = await server.api(`/api/workflows/${anas}/recovery-options${query}`, {
          headers: { 'x-baton-identity': identity },
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { options: { type: string; changes: { git: Json | null } }[] };
        return body.options.find((o) => o.type === 'checkpoint')?.changes.git ?? null;
      };
      // hers by the header: her checkpoint's git steps are planned; his by the query, whatever the header says
      expect(await plan('', encodeURIComponent(ANA))).not.toBeNull();
      expect(await plan(`?identity=${encodeURIComponent(BEN)}`, encodeURIComponent(ANA))).toBeNull();
      expect(await plan('', encodeURIComponent(BEN))).toBeNull();
      const bad = await server.api(`/api/workflows/${anas}/recovery-options`, {
        headers: { 'x-baton-identity': '%E0%A4%A' },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain('header X-Baton-Identity is not percent-encoded');
    } finally {
      await server.stop();
    }
  });
});
