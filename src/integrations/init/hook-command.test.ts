import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonCommand, commandLine } from './hook-command.js';

const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  name: string;
};

describe('the command init writes for a CLI run through npx', () => {
  it('names the package Baton is published as (npm has an unrelated package called "baton")', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-npx-'));
    const script = join(dir, '_npx', 'a1b2', 'node_modules', manifest.name, 'bin', 'baton.js');
    mkdirSync(join(script, '..'), { recursive: true });
    writeFileSync(script, '');
    const cmd = batonCommand({ PATH: join(dir, 'no-bin') }, script);
    expect(manifest.name).toBe('agent-baton');
    expect(commandLine(cmd, ['hook', 'Stop'])).toBe('npx -y agent-baton hook Stop');
  });
});
