import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, until } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';

// A workflow `baton run` drives has no agent of its own between runs: after a person resumes or recovers it, or after
// its driver or agent died, nothing runs it until the next `baton run`. Every command says so, and none claims an
// agent runs.

interface SessionStatus {
  is_agent_running: boolean;
  agent_running_note: string;
}
interface NextStep {
  command: string | null;
  reason: string;
}

function workspace() {
  const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
  /** The CLI as a person reads it (no --json). */
  const human = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { cwd: ws.repo, env: { ...ws.env, ...extra } });
  const id = async () => (await ws.cli(['status'])).json<{ workflow: { id: string } }>().workflow.id;
  return { ...ws, human, id };
}

/** `baton run` with its agent mid-task (it works a minute after its first tool call). */
async function midTask(ws: ReturnType<typeof workspace>, which: string[] = []) {
  const run = ws.spawnRun(['--json', 'run', ...which, '--agent', 'claude-code', '--heartbeat', '200ms'], {
    FAKE_HANG_MS: '60000',
  });
  const agent = await until('the agent to be mid-task', async () => {
    const rows = (await ws.cli(['executors', 'list'])).json<
      { pid: number | null; resume_token: string | null; session_state: string }[]
    >();
    return rows.find((r) => r.resume_token && r.pid && r.session_state === 'running') ?? null;
  });
  return { run, agentPid: agent.pid as number };
}

describe('a workflow `baton run` drives, resumed by a person', () => {
  it('resume (the API, as the dashboard does; the CLI) names `baton run -w`; status keeps naming it; no agent is claimed; `baton run` goes on with the briefing', async () => {
    const ws = workspace();
    expect((await ws.create()).code).toBe(0);
    const first = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1']);
    expect(first.code, first.stderr).toBe(0);
    const id = await ws.id();
    expect((await ws.cli(['status'])).json<{ workflow: { status: string } }>().workflow.status).toBe(
      'paused',
    );

    // The dashboard's Resume: POST /api/workflows/{id}/resume on a real `baton serve`, which runs no agent itself.
    const server = await startServerProcess(ws.home);
    try {
      const res = await server.api(`/api/workflows/${id}/resume`, { method: 'POST', json: {} });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { session_number: number; next_step: NextStep | null };
      expect(body.session_number).toBe(2);
      expect(body.next_step).toEqual({ command: `baton run -w ${id}`, reason: expect.any(String) });
      expect(body.next_step?.reason).toContain('nothing runs it');
    } finally {
      await server.stop();
    }

    const status = await ws.human(['status']);
    expect(status.stdout).toContain('status: in_progress');
    expect(status.stdout).toContain(`to go on: \`baton run -w ${id}\``);
    const st = (await ws.cli(['status'])).json<{ next_step: NextStep | null }>();
    expect(st.next_step).toEqual({ command: `baton run -w ${id}`, reason: expect.any(String) });
    const ss = (await ws.cli(['session-status'])).json<SessionStatus>();
    expect(ss.is_agent_running).toBe(false);
    expect(ss.agent_running_note).toContain(`baton run -w ${id}`);
    expect(ss.agent_running_note).not.toContain('assumed');

    // `baton run` goes on in a fresh agent session fed the briefing the resume compiled, and stops after T2.
    const prompts = tempDir('baton-prompts-');
    const second = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1'], {
      FAKE_PROMPT_DIR: prompts,
    });
    expect(second.code, second.stderr).toBe(0);
    const [prompt] = readdirSync(prompts).map((f) => readFileSync(join(prompts, f), 'utf8'));
    expect(prompt).toContain('## Resume context');
    // While `baton run` held the workflow, nothing said to start another: the run ended paused again.
    expect((await ws.cli(['status'])).json<{ next_step: NextStep | null }>().next_step).toBeNull();

    // The CLI's resume says it in words, after the report.
    const resumed = await ws.human(['resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`resumed ${id}: session 3`);
    expect(resumed.stdout).toContain(
      `to go on: \`baton run -w ${id}\` (this workflow is run by \`baton run\`: nothing runs it until then)`,
    );
    // exactly the command named: with no --agent, the agent the workflow last ran with
    const last = await ws.cli(['run', '-w', id]);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toContain(
      `baton: no --agent given: running claude-code, the agent ${id} last ran with`,
    );
    expect(last.json<{ status: string }>().status).toBe('completed');
  });
});

describe('a workflow run with --agent-bin', () => {
  it('`baton run -w <id>`, the command status names, starts the program the last run was given', async () => {
    const ws = agentWorkspace();
    expect((await ws.create()).code).toBe(0);
    const first = await ws.cli([
      'run',
      '--agent',
      'claude-code',
      '--agent-bin',
      fakeClaude,
      '--max-tasks',
      '1',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const id = (await ws.cli(['status'])).json<{ workflow: { id: string } }>().workflow.id;
    expect((await ws.cli(['resume'])).code).toBe(0);
    const last = await ws.cli(['run', '-w', id]);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toContain(
      `baton: no --agent-bin given: running ${fakeClaude}, the program ${id} last ran`,
    );
    expect(last.json<{ status: string }>().status).toBe('completed');
  });

  it('also for a `command` agent, which cannot start without one', async () => {
    const ws = agentWorkspace();
    expect((await ws.create()).code).toBe(0);
    const script = join(tempDir('baton-cmd-'), 'agent.sh');
    writeFileSync(script, '#!/bin/sh\nwc -c > /dev/null\necho done\n');
    chmodSync(script, 0o755);
    const first = await ws.cli(['run', '--agent', 'command', '--agent-bin', script, '--max-tasks', '1']);
    expect(first.code, first.stderr).toBe(0);
    const id = (await ws.cli(['status'])).json<{ workflow: { id: string } }>().workflow.id;
    expect((await ws.cli(['resume'])).code).toBe(0);
    const last = await ws.cli(['run', '-w', id]);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toContain(`baton: no --agent given: running command, the agent ${id} last ran with`);
    expect(last.stderr).toContain(
      `baton: no --agent-bin given: running ${script}, the program ${id} last ran`,
    );
    expect(last.json<{ status: string }>().status).toBe('completed');
  });
});

describe('a `baton run` killed, then read first by any command', () => {
  it.each(['sessions', 'list', 'resume'])(
    '`baton %s` notices the dead driver (one line), and sees the workflow interrupted',
    async (first) => {
      const ws = workspace();
      expect((await ws.create()).code).toBe(0);
      const id = await ws.id();
      const { run } = await midTask(ws);
      run.child.kill('SIGKILL');
      await run.exited;
      const r = await ws.cli([first]);
      expect(r.code, r.stderr).toBe(0);
      const notice = r.stderr.trim().split('\n');
      expect(notice).toHaveLength(1);
      expect(notice[0]).toContain(`${id}: the driver \`baton run --agent claude-code\``);
      expect(notice[0]).toContain('the workflow is now interrupted');
      if (first === 'sessions')
        expect(r.json<{ sessions: unknown[] }>().sessions).toEqual([
          expect.objectContaining({ id, status: 'interrupted', resumable: true }),
        ]);
      if (first === 'list')
        expect(r.json<{ workflows: unknown[] }>().workflows).toEqual([
          expect.objectContaining({ id, status: 'interrupted' }),
        ]);
      if (first === 'resume') {
        // resumed from the crash, and told that `baton run` is what runs it
        expect(r.json<{ session_number: number; next_step: NextStep }>()).toMatchObject({
          session_number: 2,
          next_step: { command: `baton run -w ${id}` },
        });
        const ss = (await ws.cli(['session-status'])).json<SessionStatus>();
        expect(ss.is_agent_running).toBe(false);
        const rerun = await ws.cli(['run', '--agent', 'claude-code']);
        expect(rerun.code, rerun.stderr).toBe(0);
        expect(rerun.json<{ status: string }>().status).toBe('completed');
      } else {
        // handled once: the next command has nothing to say
        expect((await ws.cli(['status'])).stderr).toBe('');
      }
    },
  );

  it("driver and agent killed: the crash line names `baton run -w` as the step that keeps the agent's own conversation, and it does", async () => {
    const ws = workspace();
    expect((await ws.create()).code).toBe(0);
    const id = await ws.id();
    const { run, agentPid } = await midTask(ws);
    run.child.kill('SIGKILL');
    process.kill(agentPid, 'SIGKILL');
    await run.exited;
    const token = (await ws.cli(['executors', 'list'])).json<{ resume_token: string }[]>()[0]?.resume_token;
    const r = await ws.human(['status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toMatch(
      new RegExp(
        `the workflow is now interrupted \\(crash snapshot \\S+\\); see \`baton recover -w ${id}\`, or continue in the agent's own conversation with \`baton run -w ${id}\`$`,
      ),
    );
    // what it says is what happens: the command named resumes the agent's own session
    const log = join(tempDir('baton-agent-log-'), 'runs.jsonl');
    const next = await ws.cli(['run', '-w', id, '--max-tasks', '1'], { FAKE_LOG: log });
    expect(next.code, next.stderr).toBe(0);
    const [launch] = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { args: string[] });
    expect(launch?.args.slice(-2)).toEqual(['--resume', token]);
  });

  it('beside another incomplete workflow, `baton status` (which must ask which) still notices the dead driver', async () => {
    const ws = workspace();
    expect((await ws.create()).code).toBe(0);
    const id = await ws.id();
    expect((await ws.cli(['create', '--title', 'Other', '--task', 'Z1:z'])).code).toBe(0);
    const { run } = await midTask(ws, ['-w', id]);
    run.child.kill('SIGKILL');
    await run.exited;
    const r = await ws.human(['status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${id}: the driver \`baton run --agent claude-code\``);
    expect(r.stderr).toMatch(new RegExp(`${id}  interrupted`));
  });

  it('the agent killed alone: resume and recover say that nothing runs it and `baton run -w` goes on', async () => {
    const ws = workspace();
    expect((await ws.create()).code).toBe(0);
    const id = await ws.id();
    const { run, agentPid } = await midTask(ws);
    process.kill(agentPid, 'SIGKILL');
    expect(await run.exited).toBe(1);
    const resume = await ws.human(['resume']);
    expect(resume.code).toBe(3);
    expect(resume.stderr).not.toContain('it is running');
    expect(resume.stderr).toContain('nothing runs it');
    expect(resume.stderr).toContain(`\`baton run -w ${id}\``);
    const recover = await ws.human(['recover']);
    expect(recover.stdout.split('\n')[0]).toContain('nothing runs it');
    expect(recover.stdout.split('\n')[0]).toContain(`\`baton run -w ${id}\``);
    expect(recover.stdout.split('\n')[0]).not.toContain('it is not stopped');
    const status = await ws.human(['status']);
    expect(status.stdout).toContain(`to go on: \`baton run -w ${id}\``);
    const ss = (await ws.cli(['session-status'])).json<SessionStatus>();
    expect(ss.is_agent_running).toBe(false);
    expect(ss.agent_running_note).toContain(`baton run -w ${id}`);
    // the sessions table neither calls it "not stopped" nor counts it among those the hooks follow
    const sessions = await ws.human(['sessions']);
    expect(sessions.stdout).toContain(
      `1 workflow is run by \`baton run\` and nothing runs it now: \`baton run -w ${id}\` goes on with it`,
    );
    expect(sessions.stdout).toContain(`no resume needed; nothing runs it: \`baton run -w ${id}\``);
    expect(sessions.stdout).not.toContain('not stopped');
    expect(sessions.stdout).not.toContain('hooks follow');
    const rows = (await ws.cli(['sessions'])).json<{ sessions: { next_step: NextStep | null }[] }>();
    expect(rows.sessions[0]!.next_step?.command).toBe(`baton run -w ${id}`);
  });
});

describe('recovering a `baton run` whose agent had committed', () => {
  it('recommends the live state (no work lost), says the checkpoint moves commits off the branch, and names `baton run -w` after', async () => {
    const ws = workspace();
    expect((await ws.create()).code).toBe(0);
    const id = await ws.id();
    // T1 done by hand: its checkpoint is at the first commit
    await ws.cli(['task', 'start', 'T1']);
    expect((await ws.cli(['task', 'done', 'T1'])).code).toBe(0);
    const { run } = await midTask(ws);
    // the agent commits its T2 work, then its driver dies
    writeFileSync(join(ws.repo, 'api.txt'), 'the API\n');
    gitIn(ws.repo, 'add', 'api.txt');
    gitIn(ws.repo, 'commit', '-qm', 'T2: the API');
    const head = gitIn(ws.repo, 'rev-parse', 'HEAD').trim();
    run.child.kill('SIGKILL');
    await run.exited;

    const plan = await ws.human(['recover']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('[2] live_state (recommended)');
    // the agent named its conversation: recovering gives it up, and the plan says so before one is chosen
    expect(plan.stdout).toContain(
      `note: any option starts the next \`baton run\` in a fresh agent session with the briefing; to go on in the agent's own conversation instead, do not recover: \`baton run -w ${id}\``,
    );
    expect(plan.stdout).not.toContain('(safe)');
    const cpLine = plan.stdout.split('\n').find((l) => l.includes('[1] checkpoint'));
    expect(cpLine).toMatch(/moves main back .*1 commit leaves the branch/);
    const json = (await ws.cli(['recover'])).json<{
      recovery: { recommended: string; conversation: string | null };
    }>();
    expect(json.recovery.recommended).toBe('live_state');
    expect(json.recovery.conversation).toContain(`\`baton run -w ${id}\``);
    // the plain-file copy beside the work (written when the crash was noticed) says what `baton recover` says
    const onDisk: unknown = JSON.parse(
      readFileSync(join(ws.repo, '.baton', 'runs', id, 'recovery.json'), 'utf8'),
    );
    expect(onDisk).toEqual(json.recovery);

    const recovered = await ws.human(['recover', '--option', 'live_state']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.stdout).toContain(`to go on: \`baton run -w ${id}\``);
    expect(gitIn(ws.repo, 'rev-parse', 'HEAD').trim()).toBe(head);
    const ss = (await ws.cli(['session-status'])).json<SessionStatus>();
    expect(ss.is_agent_running).toBe(false);
    expect((await ws.human(['status'])).stdout).toContain(`to go on: \`baton run -w ${id}\``);
  });

  it('the agent killed alone after its commit: the live state is recommended, the checkpoint named with the commit it would move', async () => {
    const ws = workspace();
    expect((await ws.create()).code).toBe(0);
    const id = await ws.id();
    await ws.cli(['task', 'start', 'T1']);
    expect((await ws.cli(['task', 'done', 'T1'])).code).toBe(0);
    const { run, agentPid } = await midTask(ws);
    writeFileSync(join(ws.repo, 'api.txt'), 'the API\n');
    gitIn(ws.repo, 'add', 'api.txt');
    gitIn(ws.repo, 'commit', '-qm', 'T2: the API');
    // the agent dies (the OOM killer, a person), its driver lives on and ends: no snapshot holds the commit
    process.kill(agentPid, 'SIGKILL');
    expect(await run.exited).toBe(1);

    const plan = await ws.human(['recover']);
    expect(plan.code, plan.stderr).toBe(0);
    // going on loses nothing, and is said first; going back would move the agent's commit off the branch
    expect(plan.stdout.split('\n')[0]).toContain(`\`baton run -w ${id}\` goes on from where it is`);
    expect(plan.stdout).toContain('[2] live_state (recommended)');
    const cpLine = plan.stdout.split('\n').find((l) => l.includes('[1] checkpoint'));
    expect(cpLine).not.toContain('(recommended)');
    expect(cpLine).toMatch(/moves main back .*1 commit leaves the branch \(kept on a backup ref\)/);
    expect(plan.stdout).toMatch(/^ +[0-9a-f]{7} T2: the API$/m);
    const json = (await ws.cli(['recover'])).json<{
      recovery: { recommended: string; conversation: string | null };
    }>();
    expect(json.recovery.recommended).toBe('live_state');
    // in progress, not interrupted: going on is `baton run -w`, said first; no recovery gives anything up
    expect(json.recovery.conversation).toBeNull();
  });
});
