import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { commitFile } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { team } from '../helpers/teammates.js';

type Json = Record<string, unknown>;
interface Plan {
  recovery: { options: { type: string; description: string; changes: { git: Json | null; note: string } }[] };
}

// One `baton serve` a team shares answers each person's CLI (BATON_URL) as the person asking, not as the identity
// the server runs under: whose a workflow is to a recovery's options, a resume and a recovery is told by the identity
// the CLI sends, as a checkpoint restore is.

const ANA = 'ana@team.example';
const BEN = 'ben@team.example';
const notRead = /git state cannot be compared|another git identity|read only in their clone|not yours/;

/** Ana's workflow, paused after a checkpoint and a commit of hers on top (which a restore would take off her branch). */
async function anaPausedWork() {
  const t = await team('postgres');
  const a = await t.hook(t.ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
  const anas = t.follows(a.stderr)!;
  expect(anas, a.stderr).toBeDefined();
  await t.hook(t.ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
  expect((await t.baton(t.ana, 'checkpoint', '--name', 'start')).code).toBe(0);
  commitFile(t.ana, 'login.go');
  expect((await t.baton(t.ana, 'pause', '--force')).code).toBe(0);
  return { ...t, anas };
}

/** The CLI at `cwd` under `env` (a person's identity and HOME), over the server `s`. */
const over = (s: ServerProcess, cwd: string, env: Record<string, string>, ...args: string[]) =>
  runCli(args, { cwd, env: { ...env, BATON_URL: s.url, BATON_TOKEN: s.token } });

describe('a CLI over a server run under another git identity (PostgreSQL a team shares)', () => {
  it("Ana, over Ben's server, is told her own workflow as hers: its restore planned, its git state read", async () => {
    const { ana, ben, anaEnv, benEnv, baton, anas } = await anaPausedWork();
    const server = await startServerProcess(benEnv.HOME!, { cwd: ben, env: benEnv });
    try {
      const options = await over(server, ana, anaEnv, 'recover', '-w', anas);
      expect(options.code, options.stderr).toBe(0);
      expect(options.stdout).not.toContain(`${ANA}'s`);
      expect(options.stdout).not.toMatch(/go back only in|--state-only/);
      expect(options.stdout).toMatch(/1 commit\(s\) leave the branch/);
      const plan = (await over(server, ana, anaEnv, 'recover', '-w', anas, '--json')).json<Plan>();
      const cp = plan.recovery.options.find((o) => o.type === 'checkpoint');
      expect(cp?.changes.git).toMatchObject({ moves_branch: true, commits_count: 1 });
      const resumed = await over(server, ana, anaEnv, 'resume', '-w', anas, '--json');
      expect(resumed.code, resumed.stderr).toBe(0);
      const r = resumed.json<{ warnings: string[]; context: string; yours: boolean }>();
      expect(r.yours).toBe(true);
      expect(r.warnings.join('\n')).not.toMatch(notRead);
      expect(r.context).not.toMatch(notRead);
      expect((await baton(ana, 'pause', '--force')).code).toBe(0);
      const recovered = await over(server, ana, anaEnv, 'recover', '-w', anas, '--option', 'live_state');
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(recovered.stdout).not.toMatch(notRead);
    } finally {
      await server.stop();
    }
  });

  it("Ben, over Ana's server, is told her workflow as hers: no restore planned, her git state not read", async () => {
    const { ana, ben, anaEnv, benEnv, anas } = await anaPausedWork();
    const server = await startServerProcess(anaEnv.HOME!, { cwd: ana, env: anaEnv });
    try {
      const plan = (await over(server, ben, benEnv, 'recover', '-w', anas, '--json')).json<Plan>();
      const cp = plan.recovery.options.find((o) => o.type === 'checkpoint');
      expect(cp?.changes.git).toBeNull();
      expect(cp?.changes.note).toContain(`go back only in ${ANA}'s worktree ${ana}`);
      expect(cp?.description).not.toMatch(/moves|leaves? the branch/);
      const resumed = await over(server, ben, benEnv, 'resume', '-w', anas, '--json', '--theirs');
      expect(resumed.code, resumed.stderr).toBe(0);
      const r = resumed.json<{ warnings: string[]; context: string; yours: boolean }>();
      expect(r.yours).toBe(false);
      expect(r.context).toContain(
        `${ana} is ${ANA}'s worktree, not yours (${BEN}): its git state is read only in their clone`,
      );
      // his pause of her workflow over her server records none of her clone's git state, and says why
      const paused = await over(server, ben, benEnv, 'pause', '--force', '--theirs', '-w', anas, '--json');
      expect(paused.code, paused.stderr).toBe(0);
      const sid = paused.json<{ snapshot_id: string }>().snapshot_id;
      const snap = (await (await server.api(`/api/workflows/${anas}/snapshots/${sid}`)).json()) as Json;
      expect(snap).toMatchObject({ git_state: null });
      expect(snap.git_note).toContain(`${ana} is ${ANA}'s worktree, not yours (${BEN})`);
      const recovered = await over(
        server,
        ben,
        benEnv,
        'recover',
        '-w',
        anas,
        '--option',
        'live_state',
        '--theirs',
      );
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(recovered.stdout).toContain(`${ana} is ${ANA}'s worktree, not yours (${BEN})`);
    } finally {
      await server.stop();
    }
  });
});
