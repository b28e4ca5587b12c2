import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentProcess, isRunning, sameProcess } from './agent-process.js';

/** A program named `name` that starts a child (`sleep`) and waits: the child's id is its first line. */
async function tree(name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-proc-'));
  const program = join(dir, name);
  writeFileSync(program, '#!/bin/bash\nsleep 600 &\necho $!\nwait\n');
  chmodSync(program, 0o755);
  const parent = spawn(program, [], { stdio: ['ignore', 'pipe', 'ignore'] });
  const child = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
  // until the forked shell has become `sleep`, it still carries the program's name
  while (readFileSync(`/proc/${child}/comm`, 'utf8').trim() !== 'sleep')
    await new Promise((r) => setTimeout(r, 10));
  const exited = new Promise((r) => parent.once('exit', r));
  const kill = async () => {
    process.kill(child, 'SIGKILL');
    parent.kill('SIGKILL');
    await exited;
  };
  return { parent: parent.pid ?? -1, child, kill };
}

describe.runIf(process.platform === 'linux')('the agent process that ran a hook', () => {
  it('is the nearest ancestor named claude or codex, and runs until it is killed', async () => {
    for (const name of ['claude', 'codex']) {
      const t = await tree(name);
      const found = agentProcess(t.child);
      expect(found?.pid).toBe(t.parent);
      expect(isRunning(found!)).toBe(true);
      // the same id with another start time is another process (an id reused)
      expect(isRunning({ pid: found!.pid, started: found!.started + 1 })).toBe(false);
      expect(sameProcess(found, agentProcess(t.child))).toBe(true);
      await t.kill();
      expect(isRunning(found!)).toBe(false);
    }
  });

  it('is none when no near ancestor is an agent', async () => {
    const t = await tree('worker');
    try {
      // sleep, then `worker`, then this test's worker and runner: none is Claude Code or Codex
      expect(agentProcess(t.child)).toBeNull();
    } finally {
      await t.kill();
    }
  });
});
