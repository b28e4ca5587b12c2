import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAgentOutput } from '../../src/agents/runtime/index.js';
import { launchAgent } from '../../src/core/index.js';
import { TaskLogFiles } from '../../src/disk/task-logs.js';
import { LocalExecutor } from '../../src/executors/local/local-executor.js';
import { recoverAtStartup } from '../../src/service/runtime/index.js';
import { executorRow } from '../helpers/executor-row.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

/**
 * A run killed between the agent naming its session (its first line, in the task log) and Baton saving that as the
 * resume token: recovery reads the token from the log, so the agent's own session still goes on after the crash.
 */
const claudeLines = () => {
  const corpus = new URL('../fixtures/corpus/stream-json/claude-agent-sdk-gleam/', import.meta.url);
  const init = readFileSync(new URL('golden/basic_query.ndjson', corpus), 'utf8').split('\n')[0]!;
  const toolUse = readFileSync(new URL('assistant_message.json', corpus), 'utf8').replace(/\s*\n\s*/g, ' ');
  return { session: (JSON.parse(init) as { session_id: string }).session_id, text: `${init}\n${toolUse}\n` };
};

async function lostRun(agent: 'claude-code' | 'codex', output: string, rowToken: string | null = null) {
  const svc = makeService(sqliteStore(), {
    logs: new TaskLogFiles(tempDir('baton-runs-')),
    readAgentOutput: async (text, o) => readAgentOutput(text, o),
  });
  const repo = makeRepo();
  const wf = await svc.create({ title: 'lost', tasks: [{ id: 'T1', title: 'one' }], worktree: repo });
  await svc.startTask({ workflowId: wf.id }, 'T1');
  await svc.runner.run(wf.id, (d) =>
    launchAgent(d, { agent, executor_id: 'ex-1', resume_token: null, fallback: null }),
  );
  const row = executorRow(wf.id, repo, {
    agent,
    execution_id: 'exec-1',
    resume_token: rowToken,
    owner: 'gone:1:1:baton run',
  });
  await svc.store.executors!.insert(row);
  const log = svc.options.logs!.open(wf, 'T1', 1);
  log.write('stdout', output);
  await log.close();
  const report = await recoverAtStartup(svc, {
    factory: { forRow: () => new LocalExecutor() },
    autoResume: 'waiting',
    isOwnerAlive: () => false,
  });
  return { svc, id: wf.id, report };
}

describe("a run killed before it saved the agent's session id", () => {
  it('Claude Code: recovery takes the session id from the task log as the resume token', async () => {
    const { session, text } = claudeLines();
    const { svc, id, report } = await lostRun('claude-code', text);
    expect(report.executors[0]).toMatchObject({ interrupted: true, session_state: 'waiting_for_input' });
    expect(await svc.store.executors!.get('ex-1')).toMatchObject({
      resume_token: session,
      session_state: 'waiting_for_input',
      error_message: null,
    });
    const state = await svc.resolve({ workflowId: id });
    expect(state.status).toBe('interrupted');
    expect(state.agent?.resume_token).toBe(session);
    // the agent's last words are read from the same log (its call under way)
    expect(state.summaries?.last_message).toMatchObject({
      source: 'claude-code:task log',
      turn_ended: false,
    });
  });

  it('Codex: the thread id at the start of a log longer than what is read of its end', async () => {
    const thread = '019a0000-0000-7000-8000-00000000abcd';
    const said = JSON.stringify({
      type: 'item.completed',
      item: { id: 'm', type: 'reasoning', text: 'x'.repeat(1000) },
    });
    const text = [
      JSON.stringify({ type: 'thread.started', thread_id: thread }),
      JSON.stringify({ type: 'turn.started' }),
      ...Array.from({ length: 9000 }, () => said),
      '',
    ].join('\n');
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    const { svc, id } = await lostRun('codex', text);
    expect((await svc.store.executors!.get('ex-1'))?.resume_token).toBe(thread);
    expect((await svc.resolve({ workflowId: id })).agent?.resume_token).toBe(thread);
  });

  it('killed between saving the token on the executor row and in the workflow: the workflow gets it too', async () => {
    const { svc, id } = await lostRun('claude-code', '[stderr] nothing yet\n', 'tok-row');
    expect((await svc.store.executors!.get('ex-1'))?.resume_token).toBe('tok-row');
    expect((await svc.resolve({ workflowId: id })).agent?.resume_token).toBe('tok-row');
  });

  it('a log that names no session leaves the row without a token, and says so', async () => {
    const { svc, report } = await lostRun('claude-code', '[stderr] could not start\n');
    expect(report.executors[0]).toMatchObject({ interrupted: true, reason: 'missing_resume_token' });
    expect((await svc.store.executors!.get('ex-1'))?.resume_token).toBeNull();
  });
});
