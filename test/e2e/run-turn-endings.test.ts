import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, pidAlive, until } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

interface Report {
  status: string;
  tasks: { id: string; outcome: string; detail: string | null }[];
  api_error: string | null;
}
interface Summary {
  kind: string;
  text: string;
  turn_ended?: boolean;
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

/** The agent's summaries `baton run` recorded, oldest first (read from the event log's SQLite file). */
const summaries = (ws: ReturnType<typeof agentWorkspace>): Summary[] =>
  ws
    .events()
    .filter((e) => e.type === 'summary.recorded')
    .map((e) => e.data.summary as Summary);

describe('how a turn of a `baton run` agent ended, said truly', () => {
  it.each([
    {
      how: 'its turn limit',
      end: {
        subtype: 'error_max_turns',
        is_error: true,
        num_turns: 4,
        errors: ['Reached maximum number of turns (3)'],
      },
      said: "the agent stopped at its turn limit (Reached maximum number of turns (3), after 4 turns) before its task was done: give it more turns (a higher `--max-turns` in the agent profile's args, or none) and run it again to go on",
    },
    {
      how: 'an error during execution',
      end: { subtype: 'error_during_execution', is_error: true, errors: ['Tool permission stream closed'] },
      said: "the agent's run ended on an error during execution (error_during_execution): Tool permission stream closed",
    },
  ])('Claude Code stopping a run at $how says so, and calls it no API error', async ({ end, said }) => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const r = await ws.cli(['run', '--agent', 'claude-code'], { FAKE_END: JSON.stringify(end) });
    expect(r.code, r.stderr).toBe(1);
    const report = r.json<Report>();
    expect(report.api_error).toBeNull();
    expect(report.tasks).toEqual([
      expect.objectContaining({
        id: 'T1',
        outcome: 'error',
        detail: `${said} (the agent exited with code 1)`,
      }),
    ]);
    // no API error recorded for the turn, nor an error of the work's
    expect(summaries(ws).map((s) => s.kind)).toEqual(['last_message']);
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).not.toMatch(/API error/i);
    expect(context).toContain('### Errors Encountered: none');
    // the next session is told what happened, not to retry a request the API failed
    const first = await nextPrompt(ws);
    expect(first).toContain(`An earlier attempt at this task failed: ${said}`);
    expect(first).not.toMatch(/API error/i);
  });

  it('an agent killed after words that read as an end of its turn, before its result, was cut off there', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const pidFile = join(ws.home, 'agent.pid');
    const words = 'The schema is in place. Committing it next.';
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code'], {
      FAKE_LAST_MESSAGE: words,
      FAKE_CUT: pidFile,
    });
    const pid = await until('the agent to have said its last words', async () =>
      existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : null,
    );
    // the agent dies in the middle of its turn (the OOM killer, a person): `baton run` goes on living
    process.kill(pid, 'SIGKILL');
    expect(await run.exited).toBe(1);
    expect(pidAlive(pid)).toBe(false);
    const last = summaries(ws).find((s) => s.kind === 'last_message');
    expect(last).toMatchObject({ text: words, turn_ended: false });
    // the next run goes on in the agent's own session, told where its turn was cut off
    const first = await nextPrompt(ws);
    expect(first).toContain(
      '## Where your last run was cut off\n\nYour last run was cut off in the middle of its turn, before it finished (killed, or it crashed). Go on from where it stopped.',
    );
    expect(first).toContain(`\n\n${words}\n`);
  });
});
