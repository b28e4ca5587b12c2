import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { team } from '../helpers/teammates.js';

// One `baton serve` a team shares (PostgreSQL), and how it tells a person's own workflow from a teammate's: what a
// person's command records of them, and the identity they are judged by.

const BEN = 'ben@team.example';

type Json = Record<string, unknown>;

const over = (s: ServerProcess, cwd: string, env: Record<string, string>, ...args: string[]) =>
  runCli(args, { cwd, env: { ...env, BATON_URL: s.url, BATON_TOKEN: s.token } });

/** Ana's live workflow (her agent's turn under way) on a team database, and a server started in her clone. */
async function anasLiveWorkflow() {
  const t = await team('postgres');
  const a = await t.hook(t.ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
  const id = t.follows(a.stderr)!;
  expect(id, a.stderr).toBeDefined();
  await t.hook(t.ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
  const server = await startServerProcess(t.anaEnv.HOME!, { cwd: t.ana, env: t.anaEnv });
  const events = async () =>
    (
      (await (await server.api(`/api/workflows/${id}/events`)).json()) as {
        events: { type: string; data: Json }[];
      }
    ).events;
  return { t, id, server, events };
}

describe('who a teammate act is recorded as, over one server', () => {
  it('records who withdrew a pause only requested, and tells the owner', async () => {
    const { t, id, server, events } = await anasLiveWorkflow();
    try {
      // mid-turn, Ben's pause is only requested (it waits for the turn's end); his resume withdraws it
      const asked = await over(
        server,
        t.ben,
        t.benEnv,
        'pause',
        '-w',
        id,
        '--reason',
        'ben testing',
        '--theirs',
      );
      expect(asked.code, asked.stderr).toBe(0);
      const withdrawn = await over(server, t.ben, t.benEnv, 'resume', '-w', id, '--theirs', '--json');
      expect(withdrawn.code, withdrawn.stderr).toBe(0);
      expect(withdrawn.json()).toMatchObject({ outcome: 'pause_withdrawn' });
      const event = (await events()).find((e) => e.type === 'workflow.pause_withdrawn');
      expect(event?.data).toMatchObject({ reason: 'ben testing', by: BEN });
      const status = await over(server, t.ana, t.anaEnv, 'status');
      expect(status.stdout).toContain(`by a teammate: resumed (its pause withdrawn) by ${BEN} at`);
    } finally {
      await server.stop();
    }
  });

  it("gates a recovery of a teammate's workflow as a resume: refused without --theirs, recorded as his with it", async () => {
    const { t, id, server, events } = await anasLiveWorkflow();
    try {
      expect((await over(server, t.ana, t.anaEnv, 'pause', '--force')).code).toBe(0);
      const refused = await over(server, t.ben, t.benEnv, 'recover', '-w', id, '--option', 'fresh');
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(
        `${id} is ana@team.example's workflow, not yours (${BEN}): recovering it`,
      );
      expect(refused.stderr).toContain(`baton recover -w ${id} --option fresh --theirs`);
      const still = (await over(server, t.ana, t.anaEnv, 'status', '--json')).json<{ workflow: Json }>();
      expect(still.workflow).toMatchObject({ status: 'paused', teammate_act: null });

      const recovered = await over(
        server,
        t.ben,
        t.benEnv,
        'recover',
        '-w',
        id,
        '--option',
        'fresh',
        '--theirs',
      );
      expect(recovered.code, recovered.stderr).toBe(0);
      const resumed = (await events()).filter((e) => e.type === 'workflow.resumed').at(-1);
      expect(resumed?.data).toMatchObject({ by: BEN });
      const status = await over(server, t.ana, t.anaEnv, 'status');
      expect(status.stdout).toContain(`by a teammate: resumed by ${BEN} at`);
    } finally {
      await server.stop();
    }
  });

  it("judges a person outside any repository by the identity git gives them in the workflow's worktree", async () => {
    const { t, id, server } = await anasLiveWorkflow();
    try {
      // Ana's global email is her personal one; her work clone sets ana@team.example, which her workflow is under
      const home = t.anaEnv.HOME!;
      writeFileSync(join(home, '.gitconfig'), '[user]\n\temail = ana.home@personal.example\n\tname = Ana\n');
      const paused = await over(server, home, t.anaEnv, 'pause', '-w', id, '--force');
      expect(paused.code, paused.stderr).toBe(0);
      expect(paused.stdout).not.toContain("(ana@team.example's)");
      const resumed = await over(server, home, t.anaEnv, 'resume', '-w', id);
      expect(resumed.code, resumed.stderr).toBe(0);
      const status = (await over(server, t.ana, t.anaEnv, 'status', '--json')).json<{ workflow: Json }>();
      expect(status.workflow).toMatchObject({ teammate_act: null });
      // Ben outside any repository is still Ben (the clone at her path works under his environment's identity)
      const ben = await over(server, t.benEnv.HOME!, t.benEnv, 'pause', '-w', id, '--force');
      expect(ben.code).toBe(3);
    } finally {
      await server.stop();
    }
  });
});
