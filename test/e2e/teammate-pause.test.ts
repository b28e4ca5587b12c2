import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { team } from '../helpers/teammates.js';

// One `baton serve` a team shares (PostgreSQL): Ben's pause, resume or abandon of Ana's live workflow is refused unless
// he means it (--theirs, `"theirs": true` over the API), names whose it is, records him on the event, and Ana is told
// who did it by her `baton status` and at her agent's next prompt.

const ANA = 'ana@team.example';
const BEN = 'ben@team.example';

type Json = Record<string, unknown>;

const over = (s: ServerProcess, cwd: string, env: Record<string, string>, ...args: string[]) =>
  runCli(args, { cwd, env: { ...env, BATON_URL: s.url, BATON_TOKEN: s.token } });

describe("a teammate's pause and resume of a live workflow, over one server", () => {
  it('is refused without --theirs, recorded as his with it, and told to the owner', async () => {
    const t = await team('postgres');
    const a = await t.hook(t.ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = t.follows(a.stderr)!;
    expect(anas, a.stderr).toBeDefined();
    await t.hook(t.ana, 'UserPromptSubmit', {
      session_id: 'ana-1',
      prompt: 'stabilise the flaky login test',
    });
    const server = await startServerProcess(t.anaEnv.HOME!, { cwd: t.ana, env: t.anaEnv });
    try {
      const refused = await over(server, t.ben, t.benEnv, 'pause', '-w', anas, '--reason', 'ben testing');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(
        `${anas} is ${ANA}'s workflow, not yours (${BEN}): pausing it would change their work without telling them first, so nothing was done`,
      );
      expect(refused.stderr).toContain(`baton pause -w ${anas} --theirs`);
      const still = (await over(server, t.ana, t.anaEnv, 'status', '--json')).json<{ workflow: Json }>();
      expect(still.workflow).toMatchObject({ status: 'in_progress', teammate_act: null });

      // mid-turn a pause waits for the turn's end: forced, it ends Ana's live session now
      const paused = await over(
        server,
        t.ben,
        t.benEnv,
        'pause',
        '-w',
        anas,
        '--reason',
        'ben testing',
        '--theirs',
        '--force',
      );
      expect(paused.code, paused.stderr).toBe(0);
      const history = (await (await server.api(`/api/workflows/${anas}/events`)).json()) as {
        events: { type: string; data: Json }[];
      };
      const event = history.events.find((e) => e.type === 'workflow.paused');
      expect(event?.data).toMatchObject({ reason: 'ben testing', by: BEN });

      // Ana's status says who paused her workflow, when and why
      const status = await over(server, t.ana, t.anaEnv, 'status');
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(
        new RegExp(
          `by a teammate: paused by ${BEN.replace('.', '\\.')} at \\d{4}-\\d\\d-\\d\\dT[^:]+:\\d\\d:[\\d.]+Z: ben testing`,
        ),
      );

      // his resume is refused as well without --theirs, and said as his to her agent at its next prompt
      const resumeRefused = await over(server, t.ben, t.benEnv, 'resume', '-w', anas);
      expect(resumeRefused.code).not.toBe(0);
      expect(resumeRefused.stderr).toContain(`baton resume -w ${anas} --theirs`);
      const resumed = await over(server, t.ben, t.benEnv, 'resume', '-w', anas, '--theirs');
      expect(resumed.code, resumed.stderr).toBe(0);
      const prompt = await t.hook(t.ana, 'UserPromptSubmit', {
        session_id: 'ana-1',
        prompt: 'and the signup test',
      });
      expect(prompt.stdout + prompt.stderr).toContain(`Baton: workflow ${anas} was resumed by ${BEN} at`);
      // told once: the prompt after says nothing of it
      const again = await t.hook(t.ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'now the docs' });
      expect(again.stdout + again.stderr).not.toContain(`resumed by ${BEN}`);

      // over the API: abandon refused (409, naming whose it is) without `theirs`
      const api = await server.api(`/api/workflows/${anas}/abandon`, {
        method: 'POST',
        headers: { 'x-baton-identity': encodeURIComponent(BEN) },
        json: { reason: 'cleanup' },
      });
      expect(api.status).toBe(409);
      expect(JSON.stringify(await api.json())).toContain(`"theirs": true`.replace(/"/g, '\\"'));
      // Ana's own pause is hers: not refused, and the teammate's act stays told until she acts
      const own = await over(server, t.ana, t.anaEnv, 'pause', '--force');
      expect(own.code, own.stderr).toBe(0);
      const mine = (await over(server, t.ana, t.anaEnv, 'status', '--json')).json<{ workflow: Json }>();
      expect(mine.workflow).toMatchObject({ status: 'paused', teammate_act: null });
    } finally {
      await server.stop();
    }
  });

  it("Ben's `baton sessions` headline counts his own workflows, the teammates' said apart", async () => {
    const t = await team('postgres');
    for (const [repo, id] of [
      [t.ana, 'ana-1'],
      [t.ben, 'ben-1'],
    ] as const) {
      const started = await t.hook(repo, 'SessionStart', { session_id: id, source: 'startup' });
      expect(t.follows(started.stderr), started.stderr).toBeDefined();
      await t.hook(repo, 'UserPromptSubmit', { session_id: id, prompt: `the work of ${id}` });
      expect((await t.baton(repo, 'pause', '--force')).code).toBe(0);
    }
    const sessions = await t.baton(t.ben, 'sessions');
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(sessions.stdout).toContain(
      "1 workflow of yours can be resumed (baton resume -w <id>); 1 of teammates' below (OWNER)",
    );
    const json = (await t.baton(t.ben, 'sessions', '--json')).json<{ sessions: Json[] }>();
    expect(json.sessions.map((r) => r.owner).sort()).toEqual([ANA, BEN]);
  });
});
