import { describe, expect, it } from 'vitest';
import { hookWorkspace } from '../helpers/hook-workspace.js';

const line =
  "the next `baton run` starts a fresh agent session with the briefing below, not the agent's own conversation from before";

describe('what the next `baton run` does after `baton recover`', () => {
  it('says in one line, and in --json, that a fresh agent session starts with the briefing', async () => {
    const { baton } = hookWorkspace();
    await baton(['create', '--title', 'T', '--task', 'Y1:one', '--task', 'Y2:two:Y1']);
    await baton(['task', 'start', 'Y1']);
    await baton(['interrupt', '--reason', 'baton run was killed']);
    const r = await baton(['recover', '--option', 'live_state']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`\\nresumed wf-\\S+: session 2, from snapshot \\S+\\n${line.replace(/[`()]/g, '\\$&')}\\n`),
    );
    await baton(['pause', '--force']);
    expect((await baton(['recover', '--option', 'fresh', '--json'])).json()).toMatchObject({
      next_run: line,
    });
  });
});
