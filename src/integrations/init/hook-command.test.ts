import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonCommand, commandLine, guardedLine, unguarded } from './hook-command.js';

const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  name: string;
};

describe('the command init writes for a CLI run through npx', () => {
  it('runs that very install, never the package name through npx: Baton is not on the npm registry yet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-npx-'));
    const script = join(dir, '_npx', 'a1b2', 'node_modules', manifest.name, 'bin', 'baton.js');
    mkdirSync(join(script, '..'), { recursive: true });
    writeFileSync(script, '');
    const cmd = batonCommand({ PATH: join(dir, 'no-bin') }, script);
    expect(manifest.name).toBe('agent-baton');
    // `npx -y agent-baton` fails while the name is unpublished, and would run whoever publishes it first
    expect(cmd).toEqual({ program: process.execPath, args: [realpathSync(script)] });
    expect(commandLine(cmd, ['hook', 'Stop'])).not.toMatch(/^npx /);
  });
});

describe('the guard of a committed hook', () => {
  const baton = { program: 'baton', args: [] };
  it('is read back to the Baton command it runs, in the form written now and in the older one', () => {
    for (const event of ['Stop', 'SessionStart']) {
      const line = guardedLine(baton, ['hook', event], event, '.claude/settings.json');
      expect(unguarded(line)).toEqual({ run: `baton hook ${event}`, guarded: true });
    }
    expect(unguarded('command -v baton >/dev/null 2>&1 && baton hook Stop || cat >/dev/null')).toEqual({
      run: 'baton hook Stop',
      guarded: true,
    });
    expect(unguarded('baton hook Stop')).toEqual({ run: 'baton hook Stop', guarded: false });
  });
});
