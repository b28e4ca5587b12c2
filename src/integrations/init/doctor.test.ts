import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose, wiringOf } from './doctor.js';

describe('the hook events doctor says an agent does not know', () => {
  it("are Claude Code's only: a Codex hooks file naming another event is not said to be skipped whole", () => {
    const root = mkdtempSync(join(tmpdir(), 'baton-doctor-'));
    const env = { HOME: join(root, 'home'), PATH: join(root, 'no-bin') };
    mkdirSync(join(root, '.codex'), { recursive: true });
    const hook = (event: string) => [{ hooks: [{ type: 'command', command: `baton hook ${event}` }] }];
    writeFileSync(
      join(root, '.codex', 'hooks.json'),
      JSON.stringify({ hooks: { SessionStart: hook('SessionStart'), SessionEnd: hook('SessionEnd') } }),
    );
    const codex = wiringOf('codex', root, env);
    expect(codex.version).toBeNull();
    expect(codex.hooks.map((h) => [h.events, h.unknown])).toEqual([[['SessionStart', 'SessionEnd'], []]]);
    expect(
      diagnose(root, env, {}, ['codex'], join(root, 'baton-home')).problems.filter((p) =>
        /does not know/.test(p),
      ),
    ).toEqual([]);
  });
});

describe('a hook command that runs `npx -y baton`', () => {
  it('is said to run an npm package that is not Baton (what init through npx once wrote), with the fix', () => {
    const root = mkdtempSync(join(tmpdir(), 'baton-doctor-'));
    const env = { HOME: join(root, 'home'), PATH: join(root, 'no-bin') };
    mkdirSync(join(root, '.claude'), { recursive: true });
    const write = (pkg: string) =>
      writeFileSync(
        join(root, '.claude', 'settings.local.json'),
        JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: `npx -y ${pkg} hook Stop` }] }] },
        }),
      );
    const named = () =>
      diagnose(root, env, {}, ['claude-code'], join(root, 'baton-home')).problems.filter((p) =>
        /is not Baton/.test(p),
      );
    write('baton');
    expect(named()).toEqual([
      `Claude Code hooks in ${join(root, '.claude', 'settings.local.json')} run "npx -y baton hook Stop": the npm package \`baton\` is not Baton (\`agent-baton\`): run \`baton init\` again`,
    ]);
    write('agent-baton');
    expect(named()).toEqual([]);
  });
});
