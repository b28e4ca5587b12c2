import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, pidAlive, until } from '../helpers/agent-workspace.js';
import { batonBin, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

type RunEvent = { event: string } & Record<string, unknown>;
const ndjson = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RunEvent);

/** The recorded run's cost: total_cost_usd of the corpus stream every fake run replays. */
const RUN_COST = 0.1354875;

const backends = [
  { name: 'SQLite', database: async () => undefined },
  { name: 'PostgreSQL', database: () => freshPostgresUrl('baton_chain') },
];

describe.each(backends)('baton run goes on by itself ($name)', ({ database }) => {
  it('an agent at 90% context on every call completes a three-task workflow alone, in several sessions; the figures add up', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude }, { database: await database() });
    expect((await ws.create()).code).toBe(0);
    const id = (await ws.cli(['status'])).json<{ workflow: { id: string } }>().workflow.id;
    await ws.cli([
      'record',
      'decision',
      '--type',
      'library',
      '--description',
      'Use argon2',
      '--rationale',
      'memory-hard',
    ]);
    const prompts = tempDir('baton-prompts-');
    const r = await ws.cli(['run', '--agent', 'claude-code', '--context-window', '200000'], {
      FAKE_CONTEXT_TOKENS: '180000',
      FAKE_PROMPT_DIR: prompts,
    });
    expect(r.code, r.stderr).toBe(0);
    const events = ndjson(r.stdout);
    const report = events.at(-1)!;
    expect(report).toMatchObject({ event: 'run.finished', status: 'completed', failed: false });
    expect(report.sessions).toBeGreaterThanOrEqual(3);
    const fresh = events.filter((e) => e.event === 'session.started');
    expect(fresh.length).toBeGreaterThanOrEqual(2);
    for (const e of fresh) expect(e).toMatchObject({ reason: 'exhaustion' });
    expect(events.filter((e) => e.event === 'task.finished').map((e) => [e.task_id, e.outcome])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
      ['T3', 'done'],
    ]);
    expect(events.some((e) => e.event === 'usage' && e.context_utilization === 0.9)).toBe(true);
    // a full context pauses at the boundary of T1 and T2; on the last task it is said that no pause follows
    const full = r.stderr.split('\n').filter((l) => l.includes('context 90% full'));
    expect(full).toEqual([
      'baton run: context 90% full: pausing at the task boundary (exhaustion)',
      'baton run: context 90% full: pausing at the task boundary (exhaustion)',
      'baton run: context 90% full: T3 is the last task, so no pause: the workflow completes when it is done',
    ]);

    // status --json: the cost of every session summed; the context a gauge of its own.
    const st = (await ws.cli(['status', '-w', id])).json<{
      workflow: { session_count: number };
      usage: { cost_usd: number; llm_calls: number; context_utilization: number; context_window: number };
      usage_by_session: { session_number: number; usage: { cost_usd: number } | null }[];
    }>();
    expect(st.usage.cost_usd).toBeCloseTo(3 * RUN_COST, 6);
    expect(st.usage.context_utilization).toBe(0.9);
    expect(st.usage.context_window).toBe(200000);
    const perSession = st.usage_by_session.map((s) => s.usage?.cost_usd ?? 0);
    expect(perSession.reduce((a, b) => a + b, 0)).toBeCloseTo(3 * RUN_COST, 6);
    expect(st.workflow.session_count).toBe(report.sessions);
    // and in plain words, the same figures
    const plain = await runCli(['status', '-w', id], { cwd: ws.repo, env: ws.env });
    expect(plain.stdout).toMatch(
      new RegExp(
        `^usage: [\\d,]+ tokens.*, \\$${(3 * RUN_COST).toFixed(2).replace('.', '\\.')}.*; context now [\\d,]+ of 200,000 \\(90%\\)$`,
        'm',
      ),
    );

    // Each task's prompt: the first carries what is recorded and how to use Baton; later ones the compiled context.
    const texts = readdirSync(prompts)
      .sort()
      .map((f) => readFileSync(join(prompts, f), 'utf8'));
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('## Decisions made (keep to them)');
    expect(texts[0]).toContain('Use argon2 (because memory-hard)');
    expect(texts[0]).toContain(`## Recording with Baton`);
    expect(texts[0]).toContain(`-w ${id} record decision`);
    for (const t of texts.slice(1)) {
      expect(t).toContain('## Resume context');
      expect(t).toContain('Use argon2');
    }
    // Each task's output is kept in the run folder.
    const logs = join(ws.repo, '.baton', 'runs', id, 'logs');
    expect(readdirSync(logs).sort()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^T1-s1-1\.log$/),
        expect.stringMatching(/^T3-s\d+-1\.log$/),
      ]),
    );
    expect(readFileSync(join(logs, 'T1-s1-1.log'), 'utf8')).toContain('"type":"result"');
  });
});

/**
 * A `baton run` whose agent is mid-task and has started a command of its own (`sleep 600`, its pid in a file; with
 * `FAKE_CHILD_IGNORES_TERM` one that only SIGKILL ends).
 */
async function agentMidTaskWithACommand(env: Record<string, string> = {}) {
  const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
  await ws.create();
  const pidFile = join(ws.home, 'agent-child.pid');
  const run = ws.spawnRun(['run', '--agent', 'claude-code', '--heartbeat', '100ms'], {
    FAKE_HANG_MS: '60000',
    FAKE_CHILD_PIDFILE: pidFile,
    ...env,
  });
  const agent = await until('the agent mid-task', async () => {
    const rows = (await ws.cli(['executors', 'list'])).json<
      { pid: number | null; resume_token: string | null }[]
    >();
    return rows.find((x) => x.resume_token && x.pid) ?? null;
  });
  const started = await until('the agent to start a command', async () =>
    existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : null,
  );
  return { ws, run, agent, started };
}

describe('baton run: real causes, exit codes, pauses and signals', () => {
  it('a missing or non-executable agent binary: exit 2, the real cause, nothing changed', async () => {
    const ws = agentWorkspace();
    await ws.create();
    const before = ws.events().length;
    const r = await ws.cli(['run', '--agent', 'claude-code'], { PATH: '/usr/bin:/bin' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('spawn claude ENOENT');
    expect(r.stderr).toContain('--agent-bin');
    expect(ws.events()).toHaveLength(before);
    const bad = await ws.cli(['run', '--agent', 'claude-code', '--agent-bin', '/nonexistent/claude']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('/nonexistent/claude was not found');
    const plain = join(tempDir('baton-bin-'), 'claude');
    writeFileSync(plain, '#!/bin/sh\n');
    const denied = await ws.cli(['run', '--agent', 'claude-code', '--agent-bin', plain]);
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain(`${plain} is not executable (${plain}: run \`chmod +x ${plain}\`)`);
    expect(ws.events()).toHaveLength(before);
  });

  it('an agent that cannot be executed: the task fails with the real cause and baton run exits 1', async () => {
    const ws = agentWorkspace();
    await ws.create();
    const dir = tempDir('baton-bin-');
    const bin = join(dir, 'claude');
    writeFileSync(bin, '#!/nonexistent/interpreter\n');
    chmodSync(bin, 0o755);
    const r = await ws.cli(['run', '--agent', 'claude-code', '--agent-bin', bin]);
    expect(r.code).toBe(1);
    const finished = ndjson(r.stdout).find((e) => e.event === 'task.finished');
    expect(finished).toMatchObject({ task_id: 'T1', outcome: 'error' });
    expect(String(finished?.detail)).toContain(`cannot run ${bin}`);
    expect(String(finished?.detail)).toContain('ENOENT');
  });

  it("an agent that is not the profile's kind (exit 0, no result), or crashes: the cause says what to check, the error first", async () => {
    const ws = agentWorkspace();
    await ws.create();
    const quiet = await ws.cli(['run', '--agent', 'claude-code', '--agent-bin', '/bin/true']);
    expect(quiet.code).toBe(1);
    const said = ndjson(quiet.stdout).find((e) => e.event === 'task.finished');
    expect(String(said?.detail)).toContain(
      'the agent exited with code 0 but gave no result: is /bin/true a claude-code CLI? Baton reads its stream-json output',
    );
    const dir = tempDir('baton-bin-');
    const bin = join(dir, 'claude');
    writeFileSync(bin, `#!${process.execPath}\nthrow new Error('out of disk space');\n`);
    chmodSync(bin, 0o755);
    const crashed = await ws.cli(['run', '--agent', 'claude-code', '--agent-bin', bin]);
    const detail = String(ndjson(crashed.stdout).find((e) => e.event === 'task.finished')?.detail);
    expect(detail.split('\n')[0]).toBe('Error: out of disk space');
    // nothing said at all: how it ended, in the task's failure and in the agent's exit event alike (the run says
    // this third failure in a row of T1 too)
    const mute = await ws.cli(['run', '--agent', 'claude-code', '--agent-bin', '/bin/false']);
    expect(ndjson(mute.stdout).find((e) => e.event === 'task.finished')?.detail).toBe(
      'the agent exited with code 1 (it failed 3 times in a row: the next run starts it in a fresh agent session, with the briefing)',
    );
    const exited = ws.events().filter((e) => e.type === 'agent.exited');
    expect(exited.at(-1)?.data).toMatchObject({ exit_code: 1, message: 'the agent exited with code 1' });
  });

  it('a requested pause past its timeout is forced by the driver itself, without a server', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude, BATON_PAUSE_TIMEOUT: '1s' });
    await ws.create();
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '100ms'], {
      FAKE_HANG_MS: '60000',
    });
    const agent = await until('the agent mid-task', async () => {
      const rows = (await ws.cli(['executors', 'list'])).json<
        { pid: number | null; resume_token: string | null }[]
      >();
      return rows.find((x) => x.resume_token && x.pid) ?? null;
    });
    const asked = await ws.cli(['pause', '--reason', 'lunch']);
    expect(asked.json<{ outcome: string }>().outcome).toBe('requested');
    expect(await run.exited).toBe(0);
    const report = ndjson(run.out.stdout).at(-1)!;
    expect(report).toMatchObject({ event: 'run.finished', status: 'paused', pause_trigger: 'pause' });
    expect(pidAlive(agent.pid as number)).toBe(false);
    const st = (await ws.cli(['status'])).json<{ warnings: string[]; workflow: { pause_reason: string } }>();
    expect(st.workflow.pause_reason).toBe('lunch');
    expect(st.warnings.join()).toMatch(/pause timeout of 1 s passed while T1 was in progress/);
  });

  it('an agent killed by someone else: what it started is stopped too, and the run says so and how to go on', async () => {
    const { ws, run, agent, started } = await agentMidTaskWithACommand();
    process.kill(agent.pid as number, 'SIGKILL');
    expect(await run.exited).toBe(1);
    await until('the command the agent started to be gone', async () => !pidAlive(started), 10_000);
    expect(`${run.out.stdout}${run.out.stderr}`).toContain(
      'the agent of T1 ended with processes of its own still running: they were stopped',
    );
    const id = (await ws.cli(['status'])).json<{ workflow: { id: string } }>().workflow.id;
    expect(run.out.stdout.trim().split('\n').at(-1)).toBe(
      `go on with \`baton run -w ${id} --agent claude-code\` (next: T1 First, again)`,
    );
  });

  it('a command the killed agent left that ignores SIGTERM gets SIGKILL before baton run exits', async () => {
    const { run, agent, started } = await agentMidTaskWithACommand({ FAKE_CHILD_IGNORES_TERM: '1' });
    process.kill(agent.pid as number, 'SIGKILL');
    await run.exited;
    // gone by the time the run exited (reaped by init just after, hence the short wait)
    await until('the command the agent started to be gone', async () => !pidAlive(started), 2_000);
    expect(`${run.out.stdout}${run.out.stderr}`).toContain(
      'the agent of T1 ended with processes of its own still running: they were stopped',
    );
  });

  it('Ctrl-C: the agent is stopped and the workflow left interrupted and resumable', async () => {
    const { ws, run, agent, started } = await agentMidTaskWithACommand();
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(pidAlive(agent.pid as number)).toBe(false);
    // what the agent started is stopped with it
    await until('the command the agent started to be gone', async () => !pidAlive(started), 10_000);
    expect(run.out.stdout).toContain('is interrupted');
    const st = (await ws.cli(['status'])).json<{
      workflow: { id: string; status: string; interrupt_reason: string };
    }>();
    expect(st.workflow).toMatchObject({
      status: 'interrupted',
      interrupt_reason: 'baton run was stopped (SIGINT)',
    });
    // the run's last line says how to go on; the task's stop is said once
    expect(run.out.stdout.trim().split('\n').at(-1)).toBe(
      `go on with \`baton run -w ${st.workflow.id} --agent claude-code\` (next: T1 First, from where it stopped)`,
    );
    expect(run.out.stderr.split('\n').filter((l) => l.includes('task T1 '))).toEqual([
      expect.stringMatching(/^baton run: task T1 started/),
      'baton run: task T1 stopped: baton run was stopped (SIGINT)',
    ]);
    // a person's stop, not a crash: its own trigger, and the next session is told so
    const snaps = (await ws.cli(['snapshots'])).json<{ snapshots: { trigger: string }[] }>().snapshots;
    expect(snaps.map((x) => x.trigger)).toEqual(['stopped']);
    const ended = ws.events().filter((e) => e.type === 'session.ended');
    expect(ended.map((e) => e.data.reason)).toEqual(['stopped']);
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).toContain('The previous session ended because: stopped: baton run was stopped (SIGINT).');
    expect(context).not.toContain('crash');
    const again = await ws.cli(['run', '--agent', 'claude-code']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ status: string }>().status).toBe('completed');
    // the run goes on in a new session: its opening names that session, as the session's own line does
    const opened = ndjson(again.stdout).filter(
      (e) => e.event === 'run.started' || e.event === 'session.started',
    );
    expect(opened).toMatchObject([
      { event: 'run.started', session_number: 2, resuming: true },
      { event: 'session.started', session_number: 2, reason: 'interrupted' },
    ]);
    // the agent's own session went on (its token kept through the stop)
    expect(opened[1]).toMatchObject({ agent_session: agent.resume_token });
  });

  it('outside a git repository: create and run each warn once, saying what is lost without git, and work', async () => {
    const dir = tempDir('baton-nogit-run-');
    const env = { BATON_HOME: tempDir('baton-home-'), BATON_URL: undefined, BATON_DATABASE_URL: undefined };
    const script = join(tempDir('baton-cmd-'), 'agent.sh');
    writeFileSync(script, '#!/bin/sh\ncat > /dev/null\necho done\n');
    chmodSync(script, 0o755);
    const b = (...args: string[]) => runCli(args, { cwd: dir, env });
    const warning = new RegExp(
      `^baton: warning: ${dir} is not a git repository: Baton keeps the workflow's log, snapshots and briefing, but its checkpoints record no commit \\(none can put your files back\\) and the briefing has no branch, changes or commits; \`git init\` and a first commit before the work to have them$`,
    );
    const created = await b('create', '--title', 'No git', '--task', 'T1:one', '--task', 'T2:two:T1');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr.trim().split('\n')).toEqual([expect.stringMatching(warning)]);
    const run = await b('run', '--agent', 'command', '--agent-bin', script);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/is completed/);
    expect(run.stderr.split('\n').filter((l) => l.includes('not a git repository'))).toEqual([
      expect.stringMatching(warning),
    ]);
  });

  it('Ctrl-C on an agent that ignores SIGTERM: SIGKILL after the grace time, said, and the workflow interrupted', async () => {
    const { ws, run, agent } = await agentMidTaskWithACommand({ FAKE_IGNORE_TERM: '1' });
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(pidAlive(agent.pid as number)).toBe(false);
    expect(run.out.stderr).toContain(
      'the agent of T1 did not stop within 5 s of SIGTERM: it was killed (SIGKILL)',
    );
    const st = (await ws.cli(['status'])).json<{ workflow: { status: string } }>();
    expect(st.workflow.status).toBe('interrupted');
  });

  it('a second Ctrl-C exits at once, saying what it leaves; the next command stops the agent', async () => {
    const { ws, run, agent, started } = await agentMidTaskWithACommand({ FAKE_IGNORE_TERM: '1' });
    run.child.kill('SIGINT');
    // the first one is under way: the agent's group got SIGTERM (the command it ran ended; the agent ignores it)
    await until('the first stop to signal the agent', async () => !pidAlive(started) || null);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.out.stderr).toContain('baton: SIGINT again: exiting now');
    const st = (await ws.cli(['status'])).json<{ workflow: { status: string } }>();
    expect(st.workflow.status).toBe('interrupted');
    expect(pidAlive(agent.pid as number)).toBe(false);
  });

  it('a closed terminal (SIGHUP) stops the agent too, and the workflow is left interrupted (exit 129)', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await ws.create();
    const run = ws.spawnRun(['run', '--agent', 'claude-code', '--heartbeat', '100ms'], {
      FAKE_HANG_MS: '60000',
    });
    const agent = await until('the agent mid-task', async () => {
      const rows = (await ws.cli(['executors', 'list'])).json<
        { pid: number | null; resume_token: string | null }[]
      >();
      return rows.find((x) => x.resume_token && x.pid) ?? null;
    });
    run.child.kill('SIGHUP');
    expect(await run.exited).toBe(129);
    expect(pidAlive(agent.pid as number)).toBe(false);
    const st = (await ws.cli(['status'])).json<{ workflow: { status: string; interrupt_reason: string } }>();
    expect(st.workflow).toMatchObject({
      status: 'interrupted',
      interrupt_reason: 'baton run was stopped (SIGHUP)',
    });
  });

  it("the agent's own hooks (baton init's) step back in a session baton run drives: no request, task or context twice", async () => {
    const out = join(tempDir('hooks-out-'), 'hooks.ndjson');
    const ws = agentWorkspace({
      BATON_AGENT_BIN: fakeClaude,
      FAKE_HOOKS: `"${process.execPath}" "${batonBin}" hook`,
      FAKE_HOOKS_OUT: out,
    });
    await ws.create();
    const r = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1']);
    expect(r.code, r.stderr).toBe(0);
    const hooks = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; stdout: string });
    expect(hooks.map((h) => h.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop']);
    // nothing injected (the run's prompt carries the context), nothing recorded
    expect(hooks.every((h) => h.stdout === '')).toBe(true);
    const types = ws.events().map((e) => e.type);
    expect(types).not.toContain('request.recorded');
    const st = (await ws.cli(['status'])).json<{ tasks: { id: string }[] }>();
    expect(st.tasks.map((t) => t.id)).toEqual(['T1', 'T2', 'T3']);
    // the hook log says why, where baton doctor reads it
    const doctor = (await ws.cli(['doctor'])).stdout;
    expect(doctor).toMatch(/driven by `baton run` \(workflow wf-/);
  });

  it("--verbose streams the agent's own output; --actor is who acts in the log and the run folder", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await ws.create();
    const id = (await ws.cli(['status'])).json<{ workflow: { id: string } }>().workflow.id;
    // Not --json: the lines a user reads (standard error is not a terminal here, so no status line).
    const r = await runCli(
      ['--actor', 'night-shift', 'run', '--agent', 'claude-code', '--max-tasks', '1', '--verbose'],
      { cwd: ws.repo, env: ws.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const err = r.stderr.split('\n');
    expect(err.some((l) => l.startsWith(`baton run: driving ${id} with claude-code (session 1)`))).toBe(true);
    const started = err.findIndex((l) => l.startsWith('baton run: task T1 started'));
    const done = err.findIndex((l) => /^baton run: task T1 done in \d+m\d{2}s(: .*)?$/.test(l));
    expect(started).toBeGreaterThanOrEqual(0);
    expect(done).toBeGreaterThan(started);
    // The agent's own stream-json lines, between the task's start and end.
    const own = err.slice(started + 1, done);
    expect(own.some((l) => l.includes('"type":"assistant"'))).toBe(true);
    expect(own.some((l) => l.includes('"type":"result"'))).toBe(true);
    expect(r.stdout.trim().split('\n')[0]).toBe(
      `workflow ${id} is paused (task_complete): 1 task done in this run (1 session in this run)`,
    );
    // Without --verbose the agent's output stays in its log only.
    const quiet = await runCli(['run', '--agent', 'claude-code', '--max-tasks', '1'], {
      cwd: ws.repo,
      env: ws.env,
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('"type":"assistant"');
    // The run's events are the actor's, mirrored in its own folder of the run folder.
    const run = join(ws.repo, '.baton', 'runs', id);
    const mine = readFileSync(
      join(run, 'events', 'night-shift', readdirSync(join(run, 'events', 'night-shift'))[0]!),
      'utf8',
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; actor: string });
    expect(mine.every((e) => e.actor === 'night-shift')).toBe(true);
    expect(mine.map((e) => e.type)).toEqual(
      expect.arrayContaining(['agent.launched', 'task.completed', 'usage.recorded']),
    );
    // Without --actor, what Baton did driving the agent is `baton`'s, what the agent reported (its tool calls) the
    // agent's; a person's commands (the workflow's creation) stay the user's.
    const of = (actor: string) =>
      readdirSync(join(run, 'events', actor)).flatMap((f) =>
        readFileSync(join(run, 'events', actor, f), 'utf8')
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { type: string }).type),
      );
    expect(readdirSync(join(run, 'events')).sort()).toEqual(['baton', 'claude-code', 'night-shift', 'user']);
    expect(of('baton')).toEqual(expect.arrayContaining(['agent.launched', 'task.started', 'task.completed']));
    expect(of('claude-code')).toContain('history.recorded');
    expect(of('claude-code')).not.toContain('task.completed');
    expect(of('user')).not.toContain('agent.launched');
  });
});
