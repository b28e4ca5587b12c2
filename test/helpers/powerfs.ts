import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './git-repo.js';

const script = fileURLToPath(new URL('./powerfs/powerfs.py', import.meta.url));
/** Debian's Python, where `python3-fusepy` installs (a pyenv or venv python on the PATH would not see it). */
const python = '/usr/bin/python3';

export interface CutStats {
  cut: number;
  mode: 'lose-all' | 'torn';
  entries_undone: number;
  files: number;
  writes_dropped: number;
  bytes_dropped: number;
}

/** Why the power-loss filesystem cannot run here, or null when it can. */
export function powerFsUnavailable(): string | null {
  const install = 'install it with `apt-get install fuse python3-fusepy` (.ci/run does)';
  if (!existsSync('/dev/fuse'))
    return `/dev/fuse does not exist (FUSE is not available in this kernel or container)`;
  if (spawnSync('fusermount', ['-V']).error) return `fusermount is missing: ${install}`;
  const py = spawnSync(python, ['-c', 'import fusepy'], { encoding: 'utf8' });
  if (py.error || py.status !== 0) return `${python} cannot import fusepy: ${install}`;
  return null;
}

/**
 * A mounted powerfs (test/helpers/powerfs/powerfs.py): an in-memory filesystem that keeps written data until
 * fsync/fdatasync (and names until the directory's fsync) and drops the rest at `cut()`. Processes using it must be
 * gone before a cut (SIGKILL them first: the power cut stops them too).
 */
export class PowerFs {
  private lines: string[] = [];
  private waiters: (() => void)[] = [];
  readonly cuts: CutStats[] = [];

  private constructor(
    readonly dir: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        this.lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
        this.waiters.splice(0).forEach((w) => w());
      }
    });
  }

  private async nextLine(timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!this.lines.length) {
      if (Date.now() > deadline || this.child.exitCode !== null)
        throw new Error(`powerfs did not answer (exit code ${this.child.exitCode})`);
      await new Promise<void>((ok) => {
        this.waiters.push(ok);
        setTimeout(ok, 100);
      });
    }
    return this.lines.shift()!;
  }

  static async mount(): Promise<PowerFs> {
    const reason = powerFsUnavailable();
    if (reason) throw new Error(`the power-loss test needs FUSE: ${reason}`);
    const dir = tempDir('baton-powerfs-');
    const child = spawn(python, ['-W', 'ignore', script, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const fs = new PowerFs(dir, child);
    try {
      const first = await fs.nextLine(15_000);
      if (!first.includes('"ready"')) throw new Error(first);
    } catch (e) {
      child.kill('SIGKILL');
      throw new Error(`powerfs did not mount at ${dir}: ${(e as Error).message}\n${err}`, { cause: e });
    }
    return fs;
  }

  /** Cuts the power: every unsynced write and name change is dropped (`tornSeed`: a random part of them is kept). */
  async cut(tornSeed?: number): Promise<CutStats> {
    const name = tornSeed === undefined ? '.power-cut' : `.power-cut-torn-${tornSeed}`;
    try {
      mkdirSync(join(this.dir, name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const stats = JSON.parse(await this.nextLine(15_000)) as CutStats;
    this.cuts.push(stats);
    return stats;
  }

  /** Unmounts and waits for the filesystem process to end. */
  async unmount(): Promise<void> {
    const exited = new Promise<void>((ok) =>
      this.child.exitCode !== null ? ok() : this.child.once('exit', () => ok()),
    );
    this.child.stdin.end();
    const timer = setTimeout(() => {
      spawnSync('fusermount', ['-u', '-z', this.dir]);
      this.child.kill('SIGKILL');
    }, 10_000);
    await exited;
    clearTimeout(timer);
  }
}
