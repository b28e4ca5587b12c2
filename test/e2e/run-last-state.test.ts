import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, fakeCodex, until } from '../helpers/agent-workspace.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';

interface Summary {
  kind: string;
  text: string;
  source: string;
  turn_ended?: boolean;
  said_nothing?: boolean;
}
interface Snapshot {
  id: string;
  trigger: string;
}

/** The snapshots of the workflow, newest last, and the summaries one of them holds (`baton details`). */
async function summariesOf(ws: ReturnType<typeof agentWorkspace>, trigger: string) {
  const { snapshots } = (await ws.cli(['snapshots'])).json<{ snapshots: Snapshot[] }>();
  const snap = snapshots.filter((s) => s.trigger === trigger).at(-1);
  expect(snap, `a ${trigger} snapshot`).toBeDefined();
  const details = await ws.cli(['details', snap!.id, 'summaries']);
  expect(details.code, details.stderr).toBe(0);
  return details.json<Summary[]>();
}

/** The `### Last State` section of a briefing, up to the next section. */
/** `baton run` started, its agent inside a call of `command` that hangs (the task's log holds the call). */
async function insideCall(ws: ReturnType<typeof agentWorkspace>, command: string) {
  const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms'], {
    FAKE_COMMAND: command,
    FAKE_HANG_IN_CALL_MS: '60000',
  });
  const log = await until('the task to start', async () => {
    const started = run.out.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; log?: string })
      .find((e) => e.event === 'task.started');
    return started?.log ?? null;
  });
  await until('the agent to be inside its call', async () =>
    existsSync(log) ? readFileSync(log, 'utf8').includes('"tool_use"') : false,
  );
  return run;
}

/** The first prompt the agent of the next `baton run` (one task) is given. */
async function nextPrompt(ws: ReturnType<typeof agentWorkspace>): Promise<string> {
  const prompts = tempDir('baton-prompts-');
  const again = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1'], {
    FAKE_PROMPT_DIR: prompts,
  });
  expect(again.code, again.stderr).toBe(0);
  const [first] = readdirSync(prompts).sort();
  return readFileSync(join(prompts, first!), 'utf8');
}

const lastState = (markdown: string) =>
  /### Last State[^\n]*\n[\s\S]*?(?=\n### )/.exec(markdown)?.[0] ?? null;

describe("a session `baton run` drives feeds the briefing's Last State as the hooks do", () => {
  it("after a context-full pause, the next session's briefing has the agent's last message; a compaction it reported is kept", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const prompts = tempDir('baton-prompts-');
    const r = await ws.cli(
      ['run', '--agent', 'claude-code', '--context-window', '100000', '--max-sessions', '2'],
      {
        FAKE_CONTEXT_TOKENS: '90000',
        FAKE_PROMPT_DIR: prompts,
        FAKE_LAST_MESSAGE: 'Done: the schema is in db/schema.sql, migrations next.',
        FAKE_COMPACT: 'Current Work: writing the schema.',
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ status: string; pause_trigger: string }>()).toMatchObject({
      status: 'paused',
      pause_trigger: 'exhaustion',
    });
    // the briefing the second session was given: the first one's last word is its Last State
    const texts = readdirSync(prompts)
      .sort()
      .map((f) => readFileSync(join(prompts, f), 'utf8'));
    expect(texts).toHaveLength(2);
    expect(lastState(texts[1]!)).toMatch(
      /^### Last State \(the agent's last message, [^)]+\)\nDone: the schema is in db\/schema\.sql, migrations next\.\n$/,
    );
    // recorded where the hooks record them: the compaction's summary, then the last message, the turn ended on it
    const summaries = await summariesOf(ws, 'exhaustion');
    expect(summaries.map((s) => [s.kind, s.source])).toEqual([
      ['compaction', 'claude-code:baton run'],
      ['last_message', 'claude-code:baton run'],
      ['compaction', 'claude-code:baton run'],
      ['last_message', 'claude-code:baton run'],
    ]);
    expect(summaries[0]!.text).toMatch(
      /^This session is being continued .*\nCurrent Work: writing the schema\.$/s,
    );
    expect(summaries[1]).toMatchObject({
      text: 'Done: the schema is in db/schema.sql, migrations next.',
      turn_ended: true,
    });
    // the workflow as it stands says the same (`baton context`)
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(lastState(context)).toContain('Done: the schema is in db/schema.sql, migrations next.');
  });

  it.each([
    {
      how: 'SIGKILL of `baton run`: read from the task log',
      signal: 'SIGKILL' as const,
      source: 'task log',
      trigger: 'crash',
    },
    // a person's stop is not a crash (its own trigger), and cuts the agent off all the same
    {
      how: 'Ctrl-C: read as the run ends',
      signal: 'SIGINT' as const,
      source: 'baton run',
      trigger: 'stopped',
    },
  ])(
    'a crash while the agent runs `git commit` names the call that never returned ($how)',
    async ({ signal, source, trigger }) => {
      const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
      expect((await ws.create()).code).toBe(0);
      const run = await insideCall(ws, 'git commit -m "schema"');
      run.child.kill(signal);
      await run.exited;
      const status = await ws.cli(['status']);
      expect(status.json<{ workflow: { status: string } }>().workflow.status).toBe('interrupted');
      const summaries = await summariesOf(ws, trigger);
      const said =
        'The session was cut off before the agent said anything. The transcript ends before this call returned (check whether it ran): `Bash: git commit -m "schema"`';
      expect(summaries).toEqual([
        expect.objectContaining({
          kind: 'last_message',
          text: said,
          source: `claude-code:${source}`,
          turn_ended: false,
          said_nothing: true,
        }),
      ]);
      const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
      expect(lastState(context)).toMatch(
        /^### Last State \(cut off before the agent said anything, [^)]+\)\n/,
      );
      expect(lastState(context)).toContain(said);
      // the commit ran before the agent was cut off: git has it, no output reported it
      gitIn(ws.repo, 'commit', '--allow-empty', '-q', '-m', 'schema');
      const hash = gitIn(ws.repo, 'rev-parse', '--short', 'HEAD').trim();
      // the next run goes on in the agent's own session (which gets no briefing): its prompt says where it was cut
      const first = await nextPrompt(ws);
      expect(first).toContain('## Where your last run was cut off');
      expect(first).toContain('`Bash: git commit -m "schema"`');
      // and what git has that its conversation never saw return
      expect(first).toMatch(
        new RegExp(`^- \\[commit\\] ${hash}[0-9a-f]* schema \\(on the branch, though no agent's output`, 'm'),
      );
    },
  );

  it("a crash whose task log cannot be read: the briefing says so, with the log's path and the error", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const run = await insideCall(ws, 'git commit -m "schema"');
    const log = JSON.parse(run.out.stdout.split('\n').find((l) => l.includes('"task.started"')) ?? '{}') as {
      log: string;
    };
    run.child.kill('SIGKILL');
    await run.exited;
    // the log gone bad before recovery reads it (here a folder where the file was: reading it fails, EISDIR)
    rmSync(log.log);
    mkdirSync(log.log);
    const status = await ws.cli(['status']);
    expect(status.json<{ workflow: { status: string } }>().workflow.status).toBe('interrupted');
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).toContain(
      `the agent's last words are not in this briefing: cannot read the task log ${log.log}: EISDIR: illegal operation on a directory, read`,
    );
  });

  it('a pause forced while the agent is inside a call hands the next session that call as its Last State', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const run = await insideCall(ws, 'npm run test:integration');
    const paused = await ws.cli(['pause', '--force', '--reason', 'checking on it']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(await run.exited).toBe(0);
    // the session the next run starts is handed the call the agent was stopped in
    const first = await nextPrompt(ws);
    expect(lastState(first)).toContain(
      'The transcript ends before this call returned (check whether it ran): `Bash: npm run test:integration`',
    );
    // with the pause's own reason and warning
    expect(first).toContain('The previous session ended because: pause: checking on it.');
  });

  it("Codex: its last agent message (`exec --json`) is the Last State of the next session's briefing", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeCodex });
    expect((await ws.create()).code).toBe(0);
    const r = await ws.cli(['run', '--agent', 'codex', '--max-tasks', '1'], {
      CODEX_HOME: tempDir('codex-home-'),
    });
    expect(r.code, r.stderr).toBe(0);
    // the fake's last words: the `agent_message` of its output, kept in the task's log
    const logs = join(ws.repo, '.baton', 'runs', r.json<{ workflow_id: string }>().workflow_id, 'logs');
    const said = readFileSync(join(logs, 'T1-s1-1.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item?: { type: string; text?: string } })
      .filter((e) => e.item?.type === 'agent_message')
      .at(-1)?.item?.text;
    expect(said).toBeTruthy();
    const summaries = await summariesOf(ws, 'task_complete');
    expect(summaries.at(-1)).toMatchObject({
      kind: 'last_message',
      text: said!.trim(),
      source: 'codex:baton run',
      turn_ended: true,
    });
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(lastState(context)).toMatch(/^### Last State \(the agent's last message, /);
  });
});
