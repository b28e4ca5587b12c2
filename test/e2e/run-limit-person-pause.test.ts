import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, until } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

/** `baton run --json --auto-resume` meeting a usage limit whose reset is a minute ahead (the fake agent's env). */
async function limitedRun(more: Record<string, string> = {}) {
  const space = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
  await space.create();
  const run = space.spawnRun(['--json', 'run', '--agent', 'claude-code', '--auto-resume'], {
    FAKE_USAGE_LIMIT: String(Math.floor(Date.now() / 1000) + 60),
    FAKE_LIMIT_ONCE: join(space.home, 'limit-reported'),
    ...more,
  });
  /** The run ended (not done, the limit not waited out: EX_TEMPFAIL), paused by the person: it says `stopped`. */
  const pausedByPerson = async (stopped: string) => {
    expect(await run.exited).toBe(75);
    const report = JSON.parse(run.out.stdout.trim().split('\n').at(-1) ?? '') as {
      stopped: string;
      usage_limit: { auto_resumed: boolean };
    };
    expect(report.stopped).toBe(stopped);
    expect(report.usage_limit.auto_resumed).toBe(false);
    const s = (await space.cli(['status'])).json<{
      workflow: { status: string; pause_reason: string | null };
    }>();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    // the person's pause, not the limit's
    const pauses = space.events().filter((e) => e.type === 'workflow.paused');
    expect(pauses.at(-1)?.data.trigger).toBe('pause');
  };
  return { ...space, run, pausedByPerson };
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
    const { said, pausedByPerson } = await limitedRun({ FAKE_GATE: gate });
    await until('the task under way', async () => (await said(['status'])).stdout.includes('in progress'));
    const asked = await said(['pause', '--reason', 'lunch']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('pause requested');
    writeFileSync(gate, 'open');
    const started = Date.now();
    await pausedByPerson('paused as asked (lunch) when the usage limit stopped the agent');
    // well before the reset a minute ahead
    expect(Date.now() - started).toBeLessThan(45_000);
  });

  it('while the run waits for the reset: `baton pause` holds it, and the run stops', async () => {
    const { said, run, pausedByPerson } = await limitedRun();
    await until('the run waiting for the reset', async () =>
      run.out.stderr.includes('usage limit: resuming at'),
    );
    const held = await said(['pause', '--reason', 'lunch']);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).not.toContain('already paused');
    await pausedByPerson(
      "paused (lunch) while waiting for the usage limit's reset: the workflow stays paused",
    );
  });
});
