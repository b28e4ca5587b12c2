import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';

const CLAUDE = corpusPath('claude-code/spotter/short.jsonl');
const CODEX = corpusPath('codex/claude-code-transcripts/sample_codex_session.jsonl');

/** Who acted in each kind of event after `from` (the last of each kind). */
const actorsAfter = (events: { type: string; actor?: string }[], from: number) =>
  Object.fromEntries(events.slice(from).map((e) => [e.type, e.actor]));

describe("what is read from an agent's transcript is the agent's in the event log", () => {
  it.each([
    ['claude-code', CLAUDE],
    ['codex', CODEX],
  ])('`baton import` of a %s transcript by a person records it as the agent', async (agent, file) => {
    const ws = agentWorkspace();
    const created = await ws.create();
    expect(created.code).toBe(0);
    const id = created.json<{ id: string }>().id;
    const before = ws.events().length;
    const r = await ws.cli(['import', file]);
    expect(r.code, r.stderr).toBe(0);
    const events = ws.events();
    // the person created the workflow; what the transcript holds, and its import, are the agent's
    expect(events[0]?.actor).toBe('user');
    const read = events.slice(before);
    expect(read.map((e) => e.type)).toContain('transcript.imported');
    expect(read.some((e) => e.type === 'history.recorded' || e.type === 'request.recorded')).toBe(true);
    expect(new Set(read.map((e) => e.actor))).toEqual(new Set([agent]));
    expect(actorsAfter(events, before)['transcript.imported']).toBe(agent);
    // the run folder splits the log by actor: the agent's own folder holds it
    const runs = join(ws.repo, '.baton', 'runs', id);
    expect(existsSync(join(runs, 'events', agent))).toBe(true);
    expect(readdirSync(join(runs, 'events'))).toEqual(expect.arrayContaining(['user', agent]));
  });

  it("what `baton run` reads from its agent's whole output when it ends is the agent's, not Baton's", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    // the agent's command fails: the run reads that error from its output when it ends
    const r = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1'], {
      FAKE_COMMAND: 'false',
      FAKE_COMMAND_RUN: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const events = ws.events();
    const errors = events.filter((e) => e.type === 'error.recorded');
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors.map((e) => e.actor))).toEqual(new Set(['claude-code']));
    // driving it stays Baton's
    expect(events.find((e) => e.type === 'task.started')?.actor).toBe('baton');
  }, 60_000);
});

describe('through a `baton serve` child process (BATON_URL), the log names the same actors as on a database', () => {
  it("the agent's task list read from its transcript is the agent's too: tasks added, started and completed", async () => {
    const ws = agentWorkspace();
    expect((await ws.create()).code).toBe(0);
    const before = ws.events().length;
    const r = await ws.cli([
      'import',
      corpusPath(
        'claude-code/tomochang-aidev/.entire/metadata/c5f4a9cc-124d-4ca2-a57a-a111f631f14c/full.jsonl',
      ),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const tasks = ws
      .events()
      .slice(before)
      .filter((e) => e.type.startsWith('task.') || e.type.startsWith('agent_tasks.'));
    expect(tasks.map((e) => e.type)).toEqual(expect.arrayContaining(['task.added', 'task.completed']));
    expect(new Set(tasks.map((e) => e.actor))).toEqual(new Set(['claude-code']));
  });

  it("a person's commands are the user's, `--actor` the actor's, and an imported transcript the agent's", async () => {
    const repo = makeRepo();
    const server = await startServerProcess(tempDir('baton-server-home-'), { cwd: repo });
    try {
      // the CLI's own home differs from the server's: everything goes through the API
      const env = { BATON_HOME: tempDir('baton-home-'), BATON_URL: server.url, BATON_TOKEN: server.token };
      const baton = (...args: string[]) => runCli(['--json', ...args], { cwd: repo, env });
      const created = await baton('create', '--title', 'remote', '--task', 'T1:Work');
      expect(created.code, created.stderr).toBe(0);
      const id = created.json<{ id: string }>().id;
      const said = await baton(
        '--actor',
        'night-shift',
        'record',
        'decision',
        '--type',
        'approach',
        '--description',
        'Keep SQLite',
      );
      expect(said.code, said.stderr).toBe(0);
      const imported = await baton('import', CODEX);
      expect(imported.code, imported.stderr).toBe(0);
      const r = await server.api(`/api/workflows/${id}/events`);
      expect(r.status, server.report()).toBe(200);
      const events = ((await r.json()) as { events: { type: string; actor: string; data: unknown }[] })
        .events;
      expect(events.find((e) => e.type === 'workflow.created')?.actor).toBe('user');
      const decided = events.filter((e) => e.type === 'decision.recorded');
      expect(decided[0]?.actor).toBe('night-shift');
      const fromTranscript = events.filter((e) => events.indexOf(e) > events.indexOf(decided[0]!));
      expect(fromTranscript.map((e) => e.type)).toContain('transcript.imported');
      expect(new Set(fromTranscript.map((e) => e.actor))).toEqual(new Set(['codex']));
    } finally {
      await server.stop();
    }
  }, 60_000);
});
