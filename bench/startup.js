import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt } from './stats.js';

const bin = fileURLToPath(new URL('../bin/baton.js', import.meta.url));
const library = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** A git worktree with one small workflow: three tasks, one running, a decision and an error recorded. */
function smallDatabase(dir, env) {
  const repo = join(dir, 'repo');
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(join(repo, 'README.md'), 'bench\n');
  const g = ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com'];
  execFileSync('git', [...g, 'add', '.']);
  execFileSync('git', [...g, 'commit', '-qm', 'init']);
  const baton = (...args) =>
    execFileSync(process.execPath, [bin, ...args], { cwd: repo, env, stdio: 'pipe' });
  baton(
    'create',
    '--title',
    'Add login',
    '--task',
    'T1:Schema',
    '--task',
    'T2:API:T1',
    '--task',
    'T3:Tests:T2',
  );
  baton('task', 'start', 'T1');
  baton(
    'record',
    'decision',
    '--type',
    'library',
    '--description',
    'Use argon2',
    '--rationale',
    'memory-hard',
  );
  baton(
    'record',
    'error',
    '--type',
    'TypeError',
    '--message',
    'x is undefined',
    '--resolution',
    'unresolved',
  );
  baton('checkpoint', '--name', 'schema');
  return repo;
}

/**
 * Wall time of whole processes, as a person at a terminal waits for them: a bare `node -e 0` and each `baton`
 * command, interleaved round by round so that every one meets the same moments of a shared machine.
 */
export async function benchStartup({ quick = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-startup-'));
  try {
    const env = { ...process.env, BATON_HOME: join(dir, 'home') };
    delete env.BATON_URL;
    const repo = smallDatabase(dir, env);
    const cases = [
      { key: 'node', label: 'node -e 0 (bare Node.js start, the baseline)', args: ['-e', '0'] },
      { key: 'version', label: 'baton --version', args: [bin, '--version'], target: 2 },
      { key: 'status', label: 'baton status (a small SQLite database)', args: [bin, 'status'], target: 3 },
      { key: 'help', label: 'baton --help (loads every command module)', args: [bin, '--help'] },
      {
        key: 'context',
        label: 'baton context (compiles a resume context: reads the o200k vocabulary)',
        args: [bin, 'context'],
      },
      {
        key: 'library',
        label: "import('agent-baton') (the library entry)",
        args: ['--input-type=module', '-e', `await import(${JSON.stringify(library)})`],
      },
    ];
    const times = Object.fromEntries(cases.map((c) => [c.key, []]));
    const rounds = quick ? 7 : 15;
    for (let round = 0; round < rounds + 1; round++) {
      for (const c of cases) {
        const t0 = process.hrtime.bigint();
        const r = spawnSync(process.execPath, c.args, { cwd: repo, env, stdio: 'pipe' });
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (r.status !== 0) throw new Error(`${c.label} failed: ${r.stderr}`);
        if (round > 0) times[c.key].push(ms); // round 0 warms the file cache
      }
    }
    const base = median(times.node);
    return cases.map((c) => {
      const m = median(times[c.key]);
      const ratio = m / base;
      const note =
        c.key === 'node'
          ? `median of ${rounds}`
          : `${ratio.toFixed(2)}x node -e 0${c.target ? ` (target: at most ${c.target}x, ${ratio <= c.target ? 'met' : 'NOT met'})` : ''}`;
      return { name: c.label, value: `${fmt(m, 0)} ms`, note };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
