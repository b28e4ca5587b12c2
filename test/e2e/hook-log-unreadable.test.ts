import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookWorkspace, agentHooks } from '../helpers/hook-workspace.js';
import { hookLogPath } from '../../src/integrations/hooks/hook-log.js';

// `baton doctor` shows what each hook last did from the hook log: a log it cannot read is said as such (a problem),
// never as "no hook has run here yet"; the next hook, which writes it anew, says in its note what it replaced.

type Json = Record<string, any>;

describe('a hook log that cannot be read', () => {
  it('baton doctor says so, and the hook that writes it anew says what it replaced', async () => {
    const { repo, baton, env } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const path = hookLogPath(env.BATON_HOME, repo);
    mkdirSync(dirname(path), { recursive: true });
    // a write cut short by hand or by another tool: not the JSON a hook writes
    writeFileSync(path, '{"version":1,"worktree":"');

    const doctor = await baton(['doctor']);
    expect(doctor.stdout).not.toContain('No hook has run here yet.');
    expect(doctor.stdout).toMatch(
      new RegExp(`^problem: cannot read the hook log ${path} \\(it is not JSON: .+\\)`, 'm'),
    );
    expect(doctor.code).toBe(1);

    const hook = agentHooks(baton, { cwd: repo, session_id: 'S1' });
    const start = await hook('SessionStart', { source: 'startup' });
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(/the hook log .+ could not be read \(it is not JSON: .+\): written anew/);
    const after = (await baton(['doctor', '--json'])).json<Json>();
    expect((after.problems as string[]).filter((p) => p.includes('hook log'))).toEqual([]);
    expect((after.last_hooks as Json[]).map((h) => h.event)).toEqual(['SessionStart']);
  });
});
