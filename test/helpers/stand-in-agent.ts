import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonBin } from './cli.js';
import { tempDir } from './git-repo.js';
import { hermeticEnv } from './hermetic-env.js';

type Json = Record<string, unknown>;

/**
 * A stand-in for Claude Code: a program named `claude` that runs one hook and stays alive, as the agent does. Returns
 * how to run a hook under a new one (its pid with the hook's stdout).
 */
export function standInAgent(repo: string, env: Record<string, string>) {
  const bin = tempDir('baton-agent-');
  const claude = join(bin, 'claude');
  writeFileSync(
    claude,
    `#!/bin/bash\n"${process.execPath}" "${batonBin}" hook "$1"\nexec sleep 600 >/dev/null 2>&1 </dev/null\n`,
  );
  chmodSync(claude, 0o755);
  return (event: string, fields: Json) =>
    new Promise<{ stdout: string; pid: number }>((resolve, reject) => {
      const child = spawn(claude, [event], { cwd: repo, env: hermeticEnv(env), stdio: 'pipe' });
      let stdout = '';
      let open = 2;
      const closed = () => --open === 0 && resolve({ stdout, pid: child.pid ?? -1 });
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stdout.on('end', closed);
      child.stderr.on('end', closed);
      child.stderr.resume();
      child.on('error', reject);
      child.stdin.end(JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }));
    });
}
