import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn } from '../helpers/git-repo.js';
import { team } from '../helpers/teammates.js';

// A person whose git email changed after their workflow began (a new employer's domain, a typo fixed) tells Baton the
// way git's own log is told, with a mailmap line mapping the old email to the new one: the workflow stays theirs (found
// by `current`, its git state read). Without it, the old email is another identity's, as another person's would be.

type Json = Record<string, unknown>;

describe('a git email changed since the workflow began', () => {
  it('is still the owner once git’s mailmap maps the old email to the new one', async () => {
    const { ana, hook, baton, follows } = await team('sqlite');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    expect(anas, a.stderr).toBeDefined();
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    gitIn(ana, 'config', 'user.email', 'ana@new.example');

    // not said yet: taken for another identity's, its git state not read, and the way out named
    const before = await baton(ana, 'status');
    expect(before.code).toBe(1);
    expect(before.stderr).toContain("another git identity's");
    expect(before.stderr).toContain('.mailmap');
    const cp0 = await baton(ana, 'checkpoint', '-w', anas, '--name', 'before', '--json');
    expect(cp0.json<{ checkpoint: Json }>().checkpoint).toMatchObject({ commit: null });

    writeFileSync(join(ana, '.mailmap'), 'Ana <ana@new.example> <ana@team.example>\n');
    const status = await baton(ana, 'status', '--json');
    expect(status.code, status.stderr).toBe(0);
    expect(status.json<{ workflow: { id: string } }>().workflow.id).toBe(anas);
    const cp = await baton(ana, 'checkpoint', '--name', 'after', '--json');
    expect(cp.code, cp.stderr).toBe(0);
    expect(cp.json<{ checkpoint: Json }>().checkpoint).toMatchObject({
      commit: gitIn(ana, 'rev-parse', 'HEAD').trim(),
    });
    const paused = await baton(ana, 'pause', '--force', '--json');
    expect(paused.json<{ yours: boolean }>().yours).toBe(true);
  });
});
