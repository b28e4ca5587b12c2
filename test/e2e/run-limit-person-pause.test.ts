import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, until } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

interface Status {
  workflow: { status: string; pause_reason: string | null };
}

/**
 * `baton run --auto-resume` waits out a usage limit and resumes the workflow at the reset. A person's pause is theirs
 * all the same: asked before the limit stopped the agent, or while the run waits for the reset, the workflow stays
 * paused with their reason, and the run stops instead of going on at the reset (it went on, the person's reason
 * replaced by the limit's, or their `baton pause` answered "already paused").
 */
describe('a person pausing a run that waits out a usage limit', () => {
  it('asked before the limit: the pause is theirs and the run does not wait for the reset', async () => {
    const gate = join(tempDir('baton-gate-'), 'gate');
    const { cli, said, spawnRun, create, home, events } = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const run = spawnRun(['--json', 'run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_GATE: gate,
      // a reset far ahead: the run would wait for it a whole minute
      FAKE_USAGE_LIMIT: String(Math.floor(Date.now() / 1000) + 60),
      FAKE_LIMIT_ONCE: join(home, 'limit-reported'),
    });
    await until('the task under way', async () => (await said(['status'])).stdout.includes('in progress'));
    const asked = await said(['pause', '--reason', 'lunch']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('pause requested');
    writeFileSync(gate, 'open');
    const started = Date.now();
    // not done, and the limit not waited out: EX_TEMPFAIL, as for any run a usage limit paused
    expect(await run.exited).toBe(75);
    expect(Date.now() - started).toBeLessThan(45_000);
    const report = JSON.parse(run.out.stdout.trim().split('\n').at(-1) ?? '') as {
      stopped: string;
      usage_limit: { auto_resumed: boolean };
    };
    expect(report.stopped).toBe('paused as asked (lunch) when the usage limit stopped the agent');
    expect(report.usage_limit.auto_resumed).toBe(false);
    const s = (await cli(['status'])).json<Status>();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    // the person's pause, not the limit's
    expect(
      events()
        .filter((e) => e.type === 'workflow.paused')
        .at(-1)?.data.trigger,
    ).toBe('pause');
  });

  it('while the run waits for the reset: `baton pause` holds it, and the run stops', async () => {
    const { cli, said, spawnRun, create, home, events } = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await create();
    const run = spawnRun(['--json', 'run', '--agent', 'claude-code', '--auto-resume'], {
      FAKE_USAGE_LIMIT: String(Math.floor(Date.now() / 1000) + 60),
      FAKE_LIMIT_ONCE: join(home, 'limit-reported'),
    });
    await until('the run waiting for the reset', async () =>
      run.out.stderr.includes('usage limit: resuming at'),
    );
    const held = await said(['pause', '--reason', 'lunch']);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).not.toContain('already paused');
    expect(await run.exited).toBe(75);
    const report = JSON.parse(run.out.stdout.trim().split('\n').at(-1) ?? '') as {
      stopped: string;
      usage_limit: { auto_resumed: boolean };
    };
    expect(report.stopped).toBe(
      "paused (lunch) while waiting for the usage limit's reset: the workflow stays paused",
    );
    expect(report.usage_limit.auto_resumed).toBe(false);
    const s = (await cli(['status'])).json<Status>();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    // the person's pause, not the limit's
    expect(
      events()
        .filter((e) => e.type === 'workflow.paused')
        .at(-1)?.data.trigger,
    ).toBe('pause');
  });
});
