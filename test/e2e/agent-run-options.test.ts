import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, fakeCodex, until } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';

interface Report {
  status: string;
  pause_trigger: string | null;
  tasks: { id: string; outcome: string }[];
  usage_limit: {
    resets_at: string | null;
    reset_words: string | null;
    auto_resumed: boolean;
    waits: number;
  } | null;
  stopped: string;
  next: string | null;
  workflow_id: string;
}

const setup = agentWorkspace;

/** An instant in UTC as a person reads it, with its seconds when it has some (never rounded to a later minute). */
const utcWords = (epochSeconds: number) =>
  new Date(epochSeconds * 1000)
    .toISOString()
    .slice(0, epochSeconds % 60 ? 19 : 16)
    .replace('T', ' ');

/** An instant on Berlin's clock and on UTC's, as a person reads them (independent of Baton's code). */
const berlinAndUtc = (epochSeconds: number) => {
  const berlin = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    ...(epochSeconds % 60 ? { second: '2-digit' as const } : {}),
    hourCycle: 'h23',
  }).format(new Date(epochSeconds * 1000));
  return `${berlin} (Europe/Berlin), which is ${utcWords(epochSeconds)} UTC`;
};

describe('baton run options', () => {
  it('a usage limit pauses the workflow with the reset time; without --auto-resume the run stops there', async () => {
    // the machine's clock is Berlin's: an epoch reset is said on it, readably, with its UTC (never the raw ISO time)
    const { cli, said, events, create, repo, env } = setup({
      BATON_AGENT_BIN: fakeClaude,
      TZ: 'Europe/Berlin',
    });
    await create();
    const resets = Math.floor(Date.now() / 1000) + 3600;
    const words = berlinAndUtc(resets);
    const r = await cli(['run', '--agent', 'claude-code'], { FAKE_USAGE_LIMIT: String(resets) });
    // not done, try again later: a script that goes on after `baton run` must not go on as if it were finished
    expect(r.code, r.stderr).toBe(75);
    const report = r.json<Report>();
    expect(report.status).toBe('paused');
    // the limit's own trigger, not a pause anyone asked for
    expect(report.pause_trigger).toBe('usage_limit');
    expect(report.stopped).toBe('usage limit');
    // the task the limit cut short is said with the run's tasks: not failed, in progress for the next run
    expect(report.tasks).toMatchObject([{ id: 'T1', outcome: 'usage_limit' }]);
    expect(report.usage_limit).toEqual({
      resets_at: new Date(resets * 1000).toISOString(),
      reset_words: words,
      auto_resumed: false,
      waits: 0,
    });
    const ev = events().find((e) => e.type === 'usage_limit.reached');
    expect(ev?.data.resets_at).toBe(new Date(resets * 1000).toISOString());
    expect(ev?.data.auto_resume_at).toBeNull();
    expect(events().find((e) => e.type === 'workflow.paused')?.data.reason).toBe(
      `usage limit, resets at ${words}`,
    );
    // `baton status` and the snapshots say it paused on a usage limit, and when it resets (the pause's reason)
    const status = (await said(['status'])).stdout;
    expect(status).toContain(`status: paused - usage limit, resets at ${words}\n`);
    expect(status).toContain(
      `warning: paused at once (usage limit, resets at ${words}) while T1 was in progress`,
    );
    // (the agent's stop is said for any machine that reads it: its instant in UTC)
    expect(status).toContain(
      `agent: stopped by a usage limit of Claude Code, session 1, resets at ${utcWords(resets)} UTC\n`,
    );
    expect((await said(['snapshots'])).stdout).toMatch(
      /^snap-\S+ +- +1 +usage_limit +0\/3 +\S+ +usage limit, resets at /m,
    );
    expect((await cli(['status'])).json<{ snapshots: { trigger: string }[] }>().snapshots).toMatchObject([
      { trigger: 'usage_limit' },
    ]);
    // On a terminal the run's last line says when, and the command that goes on then.
    const again = await runCli(['run', '--agent', 'claude-code'], {
      cwd: repo,
      env: { ...env, FAKE_USAGE_LIMIT: String(resets) },
    });
    expect(again.code, again.stderr).toBe(75);
    // Going on before the reset is allowed, and said: the agent may stop again at once.
    expect(again.stderr).toContain(`the usage limit this workflow hit resets at ${words} (in `);
    expect(again.stderr).toMatch(
      /\(in \d+m\d\ds\): going on now, the agent may stop again at once; add --auto-resume/,
    );
    expect(again.stdout).toContain(
      `usage limit (resets at ${words}): go on then with \`baton run -w ${report.workflow_id} --agent claude-code\`, or add --auto-resume to wait for it`,
    );
    expect(again.stdout + again.stderr).not.toContain(new Date(resets * 1000).toISOString());
  });

  it("a reset the agent's notice words is said in its words, with the instant in UTC", async () => {
    const { repo, env, create } = setup({ BATON_AGENT_BIN: fakeClaude, TZ: 'Europe/Berlin' });
    await create();
    const r = await runCli(['run', '--agent', 'claude-code'], {
      cwd: repo,
      // a zone without summer time, so the instant's hour is known whatever the date
      env: { ...env, FAKE_USAGE_LIMIT: "You've hit your session limit · resets 3:40pm (Asia/Tokyo)" },
    });
    expect(r.code, r.stderr).toBe(75);
    // said "paused" with the limit as its reason, not "paused (usage_limit)"
    expect(r.stderr).toMatch(
      /workflow paused: usage limit, resets at 3:40pm \(Asia\/Tokyo\), which is \d{4}-\d\d-\d\d 06:40 UTC\n/,
    );
    expect(r.stdout).toMatch(
      /usage limit \(resets at 3:40pm \(Asia\/Tokyo\), which is \d{4}-\d\d-\d\d 06:40 UTC\): go on then with `baton run -w wf-\w+ --agent claude-code`, or add --auto-resume/,
    );
  });

  it('--auto-resume waits for the reset time, resumes and finishes the workflow', async () => {
    const { cli, home, events, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    // a reset still ahead when the limit is read, on a loaded machine too (a reset passed meanwhile is gone on at once)
    const resets = Math.floor(Date.now() / 1000) + 6;
    const r = await cli(['run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_USAGE_LIMIT: String(resets),
      FAKE_LIMIT_ONCE: join(home, 'limit-reported'),
    });
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<Report>();
    expect(report.status).toBe('completed');
    expect(report.usage_limit?.auto_resumed).toBe(true);
    const types = events().map((e) => e.type);
    expect(types).toContain('usage_limit.reached');
    expect(types).toContain('workflow.resumed');
    const ev = events().find((e) => e.type === 'usage_limit.reached');
    expect(ev?.data.auto_resume_at).toBe(new Date(resets * 1000).toISOString());
  });

  it('--auto-resume waits more and more for a limit back after its reset, outside --max-sessions, then says it persists', async () => {
    const { cli, events, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    // the agent says its limit reset two minutes ago (a skewed clock, or the provider still limiting after it)
    const past = Math.floor(Date.now() / 1000) - 120;
    const began = Date.now();
    const r = await cli(['run', '--agent', 'claude-code', '--auto-resume', '--max-sessions', '3'], {
      FAKE_USAGE_LIMIT: String(past),
      BATON_RETRY_WAIT: '20ms',
    });
    // its reset passed: the first stop goes on at once (a clock a little off), which is no wait; the limit back with
    // nothing done since waits 20, 40, 80, 160, 320 ms, then 600 ms (30 times the first) seven times: never a tight loop
    expect(Date.now() - began).toBeGreaterThanOrEqual(4820);
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toMatch(/usage limit: resuming at .+ \(in 0m00s\)\n/);
    // the first wait is said as the first of twelve
    expect(r.stderr.split('\n').find((l) => l.includes('before going on'))).toMatch(
      /usage limit again with nothing done since \(resets at .+\): waiting 0m00s before going on \(wait 1 of 12, --auto-resume\)$/,
    );
    expect(r.stderr).toContain('(wait 12 of 12, --auto-resume)');
    expect(r.stderr).not.toContain('wait 13 of');
    // the waits are bounded by their own count, not by --max-sessions 3: a first try, one at once, and twelve more
    expect(events().filter((e) => e.type === 'agent.launched')).toHaveLength(14);
    const report = r.json<Report>();
    expect(report.status).toBe('paused');
    expect(report.stopped).toMatch(
      /^the usage limit persists after 12 waits \(0m0\ds in all\) with nothing done between: the workflow stays paused$/,
    );
    expect(report.usage_limit).toMatchObject({ auto_resumed: false, waits: 12 });
    // how to go on says what is true, and never advises the flag the run had
    expect(report.next).toMatch(
      /^the usage limit persists after 12 waits with nothing done between \(it said it resets at .+\): check the agent's plan and its usage, then go on with `baton run -w wf-\w+ --agent claude-code --auto-resume`$/,
    );
  });

  it('--auto-resume waits for a usage limit that names no reset time, says so, and goes on', async () => {
    const { cli, create, home } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const r = await cli(['run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_USAGE_LIMIT: "You've hit your usage limit. Upgrade to Pro or try again later.",
      FAKE_LIMIT_ONCE: join(home, 'limit-reported'),
      BATON_RETRY_WAIT: '1s',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'usage limit with no reset time in its notice: waiting 0m01s before going on (wait 1 of 12, --auto-resume)',
    );
    const report = r.json<Report>();
    expect(report.status).toBe('completed');
    expect(report.usage_limit).toMatchObject({ resets_at: null, auto_resumed: true, waits: 1 });
  });

  it("an overloaded API interrupts the run, the task in progress; the next run goes on in the agent's own session", async () => {
    const { cli, create, home } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const log = join(home, 'agent.log');
    const once = join(home, 'overloaded-once');
    const overloaded =
      'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    const env = { FAKE_USAGE_LIMIT: overloaded, FAKE_LIMIT_ONCE: once, FAKE_LOG: log };
    const r = await cli(['run', '--agent', 'claude-code'], env);
    // not the task's failure: not done, try again later
    expect(r.code, r.stderr).toBe(75);
    const report = r.json<Report & { api_error: string | null }>();
    expect(report.status).toBe('interrupted');
    expect(report.api_error).toBe('529 overloaded_error: Overloaded');
    expect(report.stopped).toBe("the agent's API failed (529 overloaded_error: Overloaded)");
    expect(report.tasks).toMatchObject([{ id: 'T1', outcome: 'api_error' }]);
    const status = (await cli(['status'])).json<{ tasks: { id: string; status: string }[] }>();
    expect(status.tasks.find((t) => t.id === 'T1')?.status).toBe('in_progress');
    // the next run goes on with T1 where the agent was, in its own session, and finishes
    const prompts = tempDir('baton-prompts-');
    const again = await cli(['run', '--agent', 'claude-code'], { ...env, FAKE_PROMPT_DIR: prompts });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<Report>().status).toBe('completed');
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { resume: string | null });
    expect(runs[1]?.resume).toMatch(/^[0-9a-f-]{36}$/);
    // told the turn ended on the API failing, to retry it; the overload is no open error for it to fix
    const [first] = readdirSync(prompts)
      .sort()
      .map((f) => readFileSync(join(prompts, f), 'utf8'));
    expect(first).toContain(
      '## Where your last run was cut off\n\nThe last turn ended on an API error (529 overloaded_error: Overloaded): the request it was on may not have been carried out; retry it. That was no fault of the task.',
    );
    expect(first).not.toContain('## Open errors');
  });

  it("an API rate limit per minute is an API failure, not a plan's limit: --auto-resume waits it out in the agent's own session", async () => {
    const { cli, create, home, events } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const log = join(home, 'agent.log');
    const burst =
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 40,000 input tokens per minute."}}';
    const words =
      '429 rate_limit_error: This request would exceed the rate limit for your organization of 40,000 input tokens per minute.';
    // without --auto-resume: the run stops as on any API failure that passes, never as paused by a usage limit
    const first = await cli(['run', '--agent', 'claude-code'], { FAKE_USAGE_LIMIT: burst, FAKE_LOG: log });
    expect(first.code, first.stderr).toBe(75);
    const report = first.json<Report & { api_error: string | null }>();
    expect(report.status).toBe('interrupted');
    expect(report.usage_limit).toBeNull();
    expect(report.api_error).toBe(words);
    expect(events().filter((e) => e.type === 'usage_limit.reached')).toHaveLength(0);
    // with it: a wait, then the agent's own session goes on, and the work is finished
    const again = await cli(['run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_USAGE_LIMIT: burst,
      FAKE_LIMIT_ONCE: join(home, 'burst-once'),
      FAKE_LOG: log,
      BATON_RETRY_WAIT: '1s',
    });
    expect(again.code, again.stderr).toBe(0);
    // a progress note (an NDJSON `note` with --json)
    expect(again.stdout).toContain(
      `task T1: the agent's API failed (${words}): waiting 0m01s before going on (wait 1 of 12, --auto-resume)`,
    );
    expect(again.json<Report>().status).toBe('completed');
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { resume: string | null });
    expect(runs[2]?.resume).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a connection dropped mid-answer (socket hang up) is an API failure, not the task's: --auto-resume waits it out", async () => {
    const { cli, create, home } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const dropped = {
      FAKE_USAGE_LIMIT: 'API Error: socket hang up',
      FAKE_LIMIT_ONCE: join(home, 'dropped-once'),
    };
    const r = await cli(['run', '--agent', 'claude-code', '--auto-resume'], {
      ...dropped,
      BATON_RETRY_WAIT: '20ms',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "task T1: the agent's API failed (API Error: socket hang up (the agent exited with code 1)): waiting 0m00s before going on (wait 1 of 12, --auto-resume)",
    );
    const report = r.json<Report>();
    expect(report.status).toBe('completed');
    expect(report.tasks.map((t) => [t.id, t.outcome])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
      ['T3', 'done'],
    ]);
  });

  it("Codex's 429 after its own retries is a rate burst, not a plan's usage limit: --auto-resume waits it out", async () => {
    const { cli, create, home, events } = setup({ BATON_AGENT_BIN: fakeCodex });
    await create();
    const burst = {
      FAKE_FAIL: 'exceeded retry limit, last status: 429 Too Many Requests, request id: req_8f2c1a',
      CODEX_HOME: tempDir('codex-home-'),
    };
    // without --auto-resume: interrupted as on any API failure that passes, never paused by a usage limit
    const first = await cli(['run', '--agent', 'codex'], burst);
    expect(first.code, first.stderr).toBe(75);
    const report = first.json<Report & { api_error: string | null }>();
    expect(report.status).toBe('interrupted');
    expect(report.usage_limit).toBeNull();
    expect(report.api_error).toMatch(/^exceeded retry limit, last status: 429 Too Many Requests/);
    expect(events().filter((e) => e.type === 'usage_limit.reached')).toHaveLength(0);
    // with it: a short wait, then the work goes on and is finished
    const again = await cli(['run', '--agent', 'codex', '--auto-resume'], {
      ...burst,
      FAKE_FAIL_ONCE: join(home, 'burst-once'),
      BATON_RETRY_WAIT: '20ms',
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      "task T1: the agent's API failed (exceeded retry limit, last status: 429 Too Many Requests",
    );
    expect(again.json<Report>().status).toBe('completed');
  });

  it('--retry-wait sets the first growing wait of --auto-resume, over BATON_RETRY_WAIT; a bad one is refused by name', async () => {
    const { cli, create, home } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const bad = await cli(['run', '--agent', 'claude-code', '--auto-resume', '--retry-wait', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'retry wait "0" must be positive (option --retry-wait, variable BATON_RETRY_WAIT)',
    );
    const r = await cli(['run', '--agent', 'claude-code', '--auto-resume', '--retry-wait', '20ms'], {
      FAKE_USAGE_LIMIT:
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      FAKE_LIMIT_ONCE: join(home, 'overloaded-once'),
      // the option wins: this wait would outlast the test
      BATON_RETRY_WAIT: '10m',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "task T1: the agent's API failed (529 overloaded_error: Overloaded): waiting 0m00s before going on (wait 1 of 12, --auto-resume)",
    );
    expect(r.json<Report>().status).toBe('completed');
  });

  it('--auto-resume stops waiting out an API failure after 12 waits with nothing done between, and says so', async () => {
    const { cli, create, events } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const r = await cli(['run', '--agent', 'claude-code', '--auto-resume', '--retry-wait', '20ms'], {
      FAKE_USAGE_LIMIT:
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    expect(r.code, r.stderr).toBe(75);
    expect(r.stdout).toContain('(wait 12 of 12, --auto-resume)');
    expect(events().filter((e) => e.type === 'agent.launched')).toHaveLength(13);
    const report = r.json<Report & { api_error: string | null }>();
    expect(report.status).toBe('interrupted');
    expect(report.stopped).toMatch(
      /^the agent's API failure \(529 overloaded_error: Overloaded\) persists after 12 waits \(0m0\ds in all\) with nothing done between$/,
    );
    expect(report.next).toMatch(
      // the command to go on with waits as this run did
      /^go on with `baton run -w wf-\w+ --agent claude-code --auto-resume --retry-wait 20ms` \(next: T1 /,
    );
  });

  it('--auto-resume on a workflow paused by a usage limit waits for the reset first; a signal stops the wait at once', async () => {
    const { cli, events, create, spawnRun } = setup({ BATON_AGENT_BIN: fakeClaude, TZ: 'Europe/Berlin' });
    await create();
    const resets = new Date((Math.floor(Date.now() / 1000) + 3600) * 1000).toISOString();
    const first = await cli(['run', '--agent', 'claude-code'], {
      FAKE_USAGE_LIMIT: String(Date.parse(resets) / 1000),
    });
    expect(first.code, first.stderr).toBe(75);
    const launched = events().filter((e) => e.type === 'agent.launched').length;
    const waiting = spawnRun(['run', '--agent', 'claude-code', '--auto-resume']);
    await until('the run to wait for the reset', async () =>
      waiting.out.stderr.includes('waiting for it (--auto-resume)'),
    );
    // when, and how long that is from now, as the line without --auto-resume says it
    expect(waiting.out.stderr).toContain(
      `the usage limit this workflow hit resets at ${berlinAndUtc(Date.parse(resets) / 1000)} (in 59m`,
    );
    waiting.child.kill('SIGINT');
    expect(await waiting.exited).toBe(130);
    // nothing was started before the reset, and the workflow stays paused for a later run
    expect(events().filter((e) => e.type === 'agent.launched')).toHaveLength(launched);
    expect(events().filter((e) => e.type === 'workflow.resumed')).toHaveLength(0);
    const status = (await cli(['status'])).json<{ workflow: { status: string } }>();
    expect(status.workflow.status).toBe('paused');
  });

  it('a signal stops a run that waits for a usage limit it met itself: paused, and how to go on', async () => {
    const { events, create, spawnRun } = setup({ BATON_AGENT_BIN: fakeClaude, TZ: 'Europe/Berlin' });
    await create();
    const resets = Math.floor(Date.now() / 1000) + 3600;
    const run = spawnRun(['--json', 'run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_USAGE_LIMIT: String(resets),
    });
    await until('the run to wait for the reset', async () =>
      run.out.stderr.includes(`usage limit: resuming at ${berlinAndUtc(resets)}`),
    );
    expect(run.out.stderr).toContain(`usage limit: resuming at ${berlinAndUtc(resets)} (in 59m`);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const report = run.out.stdout
      .split('\n')
      .filter((l) => l.includes('"run.finished"'))
      .map((l) => JSON.parse(l) as Report)[0];
    expect(report?.status).toBe('paused');
    expect(report?.stopped).toBe("baton run was stopped (SIGINT) while waiting for the usage limit's reset");
    expect(report?.usage_limit).toEqual({
      resets_at: new Date(resets * 1000).toISOString(),
      reset_words: berlinAndUtc(resets),
      auto_resumed: false,
      waits: 1,
    });
    // --json says how to go on as the terminal's last line does
    // the run had --auto-resume: the command that goes on has it, and it is not advised again
    expect(report?.next).toBe(
      `usage limit (resets at ${berlinAndUtc(resets)}): go on then with \`baton run -w ${report?.workflow_id} --agent claude-code --auto-resume\``,
    );
    expect(events().filter((e) => e.type === 'workflow.resumed')).toHaveLength(0);
  });

  it('a signal during the wait for a limit whose reset has passed: the run stops, and says to go on now', async () => {
    const { events, create, spawnRun } = setup({ BATON_AGENT_BIN: fakeClaude, TZ: 'Europe/Berlin' });
    await create();
    // the agent says its limit reset two minutes ago, and says so again: the run waits it out (an hour, first)
    const past = Math.floor(Date.now() / 1000) - 120;
    const run = spawnRun(['--json', 'run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_USAGE_LIMIT: String(past),
      BATON_RETRY_WAIT: '1h',
    });
    await until('the run to wait out the limit', async () =>
      run.out.stderr.includes('before going on (wait 1 of'),
    );
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const report = run.out.stdout
      .split('\n')
      .filter((l) => l.includes('"run.finished"'))
      .map((l) => JSON.parse(l) as Report)[0];
    expect(report?.status).toBe('paused');
    // what it was waiting for is said as it was: not a reset still to come
    expect(report?.stopped).toBe(
      `baton run was stopped (SIGINT) while waiting out the usage limit (its reset at ${berlinAndUtc(past)} has passed)`,
    );
    // nothing to wait for before going on: the command that resumes it, now
    expect(report?.next).toBe(
      `usage limit (its reset at ${berlinAndUtc(past)} has passed): go on with \`baton run -w ${report?.workflow_id} --agent claude-code --auto-resume\``,
    );
    expect(events().filter((e) => e.type === 'agent.launched')).toHaveLength(2);
  });

  it('--max-tasks N pauses with trigger task_complete after N tasks', async () => {
    const { cli, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const report = (await cli(['run', '--agent', 'claude-code', '--max-tasks', '2'])).json<Report>();
    expect(report.status).toBe('paused');
    expect(report.pause_trigger).toBe('task_complete');
    expect(report.tasks.map((t) => t.id)).toEqual(['T1', 'T2']);
    // session-status reads the executor row: local runtime, the last execution, no agent running now.
    const st = (await cli(['session-status'])).json<Record<string, unknown>>();
    expect(st).toMatchObject({ runtime: 'local', executor_status: 'stopped', is_agent_running: false });
    expect(st.agent_execution_id).toMatch(/^exec/);
    const bad = await cli(['run', '--agent', 'claude-code', '--max-tasks', 'zero']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--max-tasks');
  });

  it('with no workflow here, says to create one with its tasks (no agent session makes one for `baton run`)', async () => {
    const { cli, repo } = setup({ BATON_AGENT_BIN: fakeClaude });
    const r = await cli(['run', '--agent', 'claude-code']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `baton: no active workflow for \`baton run\` to drive in ${repo}: create one with its tasks (\`baton create --title "Add login" --task T1:Schema --task T2:API:T1\`), or pass -w <id>`,
    );
  });

  it('exits 1 when work is left that no task can take up (a blocked task), and says how to go on', async () => {
    const { cli, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    expect((await cli(['task', 'block', 'T1', '--reason', 'waiting for the schema review'])).code).toBe(0);
    const r = await cli(['run', '--agent', 'claude-code']);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('no task can run: T1 is blocked (waiting for the schema review)');
  });

  it('--max-duration pauses with trigger timeout once the run has gone on that long', async () => {
    const { cli, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const report = (await cli(['run', '--agent', 'claude-code', '--max-duration', '1ms'])).json<Report>();
    expect(report.status).toBe('paused');
    expect(report.pause_trigger).toBe('timeout');
    expect(report.tasks.length).toBeLessThan(3);
  });

  it('--max-duration already past with a task left in progress (a run that died) pauses at once, no agent started', async () => {
    const { cli, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    expect((await cli(['task', 'start', 'T1'])).code).toBe(0);
    // a pause requested there would wait for a task boundary no agent reaches (the pause timeout, 5 minutes)
    const r = await cli(['run', '--agent', 'claude-code', '--max-duration', '1ms']);
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<Report>();
    expect(report.status).toBe('paused');
    expect(report.pause_trigger).toBe('timeout');
    expect(report.tasks).toEqual([]);
    const status = (await cli(['status'])).json<{ workflow: { pause_reason: string } }>();
    expect(status.workflow.pause_reason).toMatch(
      /went past its maximum duration \(--max-duration \S+ since `baton run` began\)/,
    );
  }, 30_000);

  it('--max-duration counts from the run, not from the workflow: a workflow begun earlier is not paused at once', async () => {
    const { cli, create } = setup({ BATON_AGENT_BIN: fakeClaude });
    await create();
    expect((await cli(['run', '--agent', 'claude-code', '--max-tasks', '1'])).code).toBe(0);
    // the workflow has now been going for longer than the next run's limit
    // (4 s: room for a task of the fake agent on a loaded machine)
    await new Promise((r) => setTimeout(r, 4_100));
    const r = await cli(['run', '--agent', 'claude-code', '--max-duration', '4s']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Report>().tasks.length).toBeGreaterThan(0);
  }, 60_000);

  it('an agent that fails saying only its usual last words has them named as such, not taken for the cause', async () => {
    const { cli, create } = setup();
    await create();
    const script = join(tempDir('baton-cmd-'), 'agent.sh');
    writeFileSync(script, '#!/bin/sh\nwc -c > /dev/null\necho "Done with the task"\nexit 2\n');
    chmodSync(script, 0o755);
    const failed = await cli(['run', '--agent', 'command', '--agent-bin', script]);
    expect(failed.code).toBe(1);
    expect(failed.json<Report>().tasks).toMatchObject([
      { outcome: 'error', detail: 'the agent exited with code 2; its last output: "Done with the task"' },
    ]);
  });

  it('the command adapter runs any CLI: the prompt on stdin, exit 0 done, another exit fails the task', async () => {
    const { repo, cli, said, create, events } = setup();
    await create();
    const script = join(tempDir('baton-cmd-'), 'agent.sh');
    writeFileSync(
      script,
      '#!/bin/sh\nwc -c > /dev/null\necho "working on: $(printf %s "$BATON_PROMPT" | head -c 40)"\n' +
        '[ -n "$SAVE_PROMPT" ] && printf %s "$BATON_PROMPT" > "$SAVE_PROMPT"\n' +
        'if [ -f "$FAIL_FLAG" ]; then echo "cannot do it" >&2; exit 3; fi\necho done\n',
    );
    chmodSync(script, 0o755);
    const flag = join(repo, '..', `fail-${Date.now()}`);
    const ok = await cli(['run', '--agent', 'command', '--agent-bin', script, '--max-tasks', '1'], {
      FAIL_FLAG: flag,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json<Report>().tasks).toMatchObject([{ id: 'T1', outcome: 'done' }]);
    // --max-tasks 1: the task's completion and the pause after it are one snapshot
    const snaps = (await cli(['snapshots'])).json<{
      snapshots: { trigger: string; pause_reason: string }[];
    }>().snapshots;
    expect(snaps).toMatchObject([{ trigger: 'task_complete', pause_reason: '1 task done in this run' }]);
    expect(ok.json<Report>()).toMatchObject({ status: 'paused', pause_trigger: 'task_complete' });
    writeFileSync(flag, 'x');
    const failed = await cli(['run', '--agent', 'command', '--agent-bin', script], { FAIL_FLAG: flag });
    // A failed task is a failed run: exit 1, its real cause (the agent's standard error, and how it exited) printed
    // and reported.
    expect(failed.code).toBe(1);
    const report = failed.json<Report>();
    const cause = 'cannot do it (the agent exited with code 3)';
    expect(report.tasks).toMatchObject([{ id: 'T2', outcome: 'error', detail: cause }]);
    expect(report.stopped).toBe('task T2 failed');
    expect(events().some((e) => e.type === 'task.failed')).toBe(true);
    // The next session is told why: the briefing names the cause beside the task, and the retry's prompt says it.
    const context = (await cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).toContain(`[!] T2 Second (failed: ${cause}) after T1`);
    // T1's completion snapshot is the latest one, but no session ended because of it
    // what made it fail comes first, not a plain "continue"
    expect(context).toContain(
      `Task "T2: Second" failed (${cause}): find out why and fix it before running it again.\n`,
    );
    // `baton list` counts it
    expect((await said(['list'])).stdout).toMatch(/ 1\/3, 1 failed /);
    expect(context).not.toContain('ended because');
    const prompts = tempDir('baton-prompts-');
    const retry = await cli(['run', '--agent', 'command', '--agent-bin', script, '--max-tasks', '1'], {
      FAIL_FLAG: join(prompts, 'absent'),
      SAVE_PROMPT: join(prompts, 'prompt.txt'),
    });
    expect(retry.code, retry.stderr).toBe(0);
    expect(readFileSync(join(prompts, 'prompt.txt'), 'utf8')).toContain(
      `An earlier attempt at this task failed: ${cause}`,
    );
  });

  it('profiles from baton.config.json: adapter, bin and context window without any flag', async () => {
    const { repo, cli, create } = setup();
    await create();
    writeFileSync(
      join(repo, 'baton.config.json'),
      JSON.stringify({
        agents: { small: { adapter: 'claude-code', bin: fakeClaude, context_window: 100000 } },
      }),
    );
    const report = (
      await cli(['run', '--agent', 'small', '--max-sessions', '1'], { FAKE_CONTEXT_TOKENS: '90000' })
    ).json<Report>();
    // 90,000 tokens of the profile's 100,000: past 85%, so the workflow pauses with trigger exhaustion (and, with
    // one session allowed, the run stops there).
    expect(report.status).toBe('paused');
    expect(report.pause_trigger).toBe('exhaustion');
    const unknown = await cli(['run', '--agent', 'nosuch']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown agent nosuch');
    // the limits `baton submit` and the API set, for `baton run` too
    const many = await cli(['run', '--agent', 'small', '--max-sessions', '20000']);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/must be a whole number from 1 to 10000 \(option --max-sessions/);
    const tiny = await cli(['run', '--agent', 'small', '--context-window', '10']);
    expect(tiny.code).toBe(2);
    expect(tiny.stderr).toMatch(/--context-window/);
  });

  it('--agent codex drives a fake Codex replaying a real rollout as `codex exec --json`, resuming its thread', async () => {
    const { home, cli, create, events } = setup();
    await create();
    const log = join(home, 'codex.log');
    // the user's own writable roots stay in the list baton run gives Codex
    const codexHome = join(home, 'codex-home');
    mkdirSync(codexHome);
    writeFileSync(
      join(codexHome, 'config.toml'),
      '[sandbox_workspace_write]\nwritable_roots = ["/data/cache"]\n',
    );
    const r = await cli(['run', '--agent', 'codex', '--agent-bin', fakeCodex], {
      FAKE_LOG: log,
      CODEX_HOME: codexHome,
    });
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<Report>();
    expect(report.status).toBe('completed');
    expect(report.tasks.map((t) => t.outcome)).toEqual(['done', 'done', 'done']);
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { args: string[]; resume: string | null });
    expect(runs[0]?.args.slice(0, 2)).toEqual(['exec', '--json']);
    // the sandbox lets the agent's `baton record` write Baton's database, in the Baton home
    expect(runs[0]?.args.slice(2, 4)).toEqual([
      '-c',
      `sandbox_workspace_write.writable_roots=${JSON.stringify(['/data/cache', home])}`,
    ]);
    expect(runs[0]?.args).toContain('workspace-write');
    expect(runs[0]?.resume).toBeNull();
    const evs = events();
    // The second task resumes exactly the thread Codex reported for the first one.
    const saved = evs.filter((e) => e.type === 'agent.token_saved').map((e) => e.data.resume_token);
    expect(runs[1]?.resume).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved).toContain(runs[1]?.resume);
    const usage = evs.filter(
      (e) => e.type === 'record.added' && (e.data as { kind?: string }).kind === 'usage',
    );
    const history = evs.filter((e) => JSON.stringify(e.data).includes('tool exec_command sed'));
    expect(history.length + usage.length).toBeGreaterThan(0);
  });
  it('--agent codex: the context its rollout reports pauses the run at the task boundary, and a fresh thread goes on', async () => {
    const { home, cli, create, events } = setup();
    await create();
    const log = join(home, 'codex.log');
    const codexHome = join(home, 'codex-home');
    // 240,000 of Codex's 258,400 tokens in the last model call of the first thread
    const r = await cli(['run', '--agent', 'codex', '--agent-bin', fakeCodex, '--max-sessions', '2'], {
      FAKE_LOG: log,
      CODEX_HOME: codexHome,
      FAKE_CONTEXT_TOKENS: '240000',
    });
    expect(r.code, r.stderr).toBe(0);
    const evs = events();
    const paused = evs.find((e) => e.type === 'workflow.paused');
    expect(paused?.data).toMatchObject({ trigger: 'exhaustion' });
    expect(String(paused?.data.reason)).toContain('93% full (240000 of 258400 tokens)');
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { resume: string | null; prompt_chars: number });
    // the second session starts a new thread, fed with the compiled context, instead of resuming the full one
    expect(runs[1]?.resume).toBeNull();
    expect(r.json<Report>().stopped).toMatch(/--max-sessions 2 reached/);
  });

  it('--agent codex without its rollout (another CODEX_HOME): the run says once that its context was not measured', async () => {
    const { cli, create } = setup();
    await create();
    const r = await cli(['run', '--agent', 'codex', '--agent-bin', fakeCodex], {
      CODEX_HOME: tempDir('codex-empty-'),
      FAKE_ROLLOUT: 'none',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Report>().tasks.map((t) => t.outcome)).toEqual(['done', 'done', 'done']);
    // said for the first task's agent, not again for each task after it
    const said = r.stderr.match(
      /Codex's context was not measured: no rollout of thread [0-9a-f-]{36} under /g,
    );
    expect(said, r.stderr).toHaveLength(1);
  });
});
