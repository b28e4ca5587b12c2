import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hermeticEnv } from './hermetic-env.js';

export const batonBin = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: <T = Record<string, unknown>>() => T;
}

/** Runs the built `baton` binary as a real child process. */
export function runCli(
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined>; input?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [batonBin, ...args], {
      cwd: opts.cwd,
      env: hermeticEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    // a command that exits before reading its input closes the pipe: its exit code and output say the rest
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        json: <T>() => {
          try {
            return JSON.parse(stdout) as T;
          } catch {
            // NDJSON (`baton run --json` prints progress events): the last line is the result.
            const last = stdout.trim().split('\n').at(-1);
            if (last)
              try {
                return JSON.parse(last) as T;
              } catch {
                // fall through to the error below
              }
            throw new Error(`baton ${args.join(' ')} printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
          }
        },
      }),
    );
  });
}
