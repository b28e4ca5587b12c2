import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-table.js';
import { fakeClaude } from '../helpers/agent-workspace.js';
import { batonBin } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';

/**
 * Every command of the README's shell blocks, run as written (through bash, with `baton` on the PATH) in the state
 * the README describes, each expected to succeed. A README change that adds, removes or reorders a block fails here
 * until this test says how to run it.
 */
const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
  m[1]!
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean),
);

const work = tempDir('baton-readme-');
const bin = join(work, 'bin');
mkdirSync(bin);
mkdirSync(join(work, 'user'));
symlinkSync(batonBin, join(bin, 'baton'));
symlinkSync(fakeClaude, join(bin, 'claude')); // `baton run --agent claude-code` runs `claude` from the PATH
// HOME too: `baton init` writes the user's ~/.claude.json (its MCP entry), never the real one in a test.
const env = hermeticEnv({
  PATH: `${bin}:${process.env.PATH}`,
  BATON_HOME: join(work, 'home'),
  HOME: join(work, 'user'),
  CODEX_HOME: undefined,
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(line: string, cwd: string) {
  const r = spawnSync('bash', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runAll(lines: string[], cwd: string) {
  for (const line of lines) {
    const r = sh(line, cwd);
    expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
  }
}

describe('the README, command by command', () => {
  it('has the blocks this test knows how to run', () => {
    expect(blocks.map((b) => b[0]!.split(/\s+#/)[0]!.trim())).toEqual([
      'npm install -g --allow-scripts=better-sqlite3 agent-baton',
      'baton init',
      'baton status',
      'baton create --title "Add login" --task "T1:Write schema" --task "T2:Implement API:T1" --task "T3:Write tests:T2"',
      'baton run --agent claude-code',
      'baton serve',
      'npm ci',
    ]);
    expect(readme.length).toBeLessThan(8 * 1024);
  });

  it('install: the command test/package/install.test.ts runs against the packed tarball', () => {
    const test = readFileSync(fileURLToPath(new URL('../package/install.test.ts', import.meta.url)), 'utf8');
    expect(blocks[0]).toEqual(['npm install -g --allow-scripts=better-sqlite3 agent-baton']);
    expect(test).toContain(`['--allow-scripts=better-sqlite3', ...installFlags]`);
    expect(test).toContain(`['install', '-g', ...globalFlags, '--prefix', prefix, tarball]`);
  });

  it('the two-minute path: baton init, then status, context, pause and resume after the agent worked', () => {
    const repo = makeRepo('baton-readme-init-');
    // `baton init` comes with branch continuity; until it is merged the command is unknown here.
    const init = sh(blocks[1]![0]!, repo);
    if ('init' in COMMANDS) expect(init.code, init.stderr).toBe(0);
    else expect(init).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'init'") });
    // "Then use your agent as usual": what the hooks record, done here by hand.
    const worked = makeRepo('baton-readme-worked-');
    runAll(
      [
        'baton create --title "Agent work" --task "T1:One" --task "T2:Two:T1"',
        'baton task start T1',
        'baton task done T1',
      ],
      worked,
    );
    runAll(blocks[2]!, worked);
    expect(sh('baton --json status', worked).stdout).toContain('"status": "in_progress"');
  });

  const tracked = makeRepo('baton-readme-track-');

  it('tracking the work by hand', () => {
    runAll(blocks[3]!, tracked);
    const status = JSON.parse(sh('baton --json status', tracked).stdout) as { checkpoints: unknown[] };
    expect(status.checkpoints).toHaveLength(1);
  });

  it('running the agent through the remaining tasks', () => {
    runAll(blocks[4]!, tracked);
    const { workflows } = JSON.parse(sh('baton --json list', tracked).stdout) as {
      workflows: { status: string; worktree: string }[];
    };
    expect(workflows.find((w) => w.worktree === tracked)?.status).toBe('completed');
  });

  it('the dashboard: baton serve, then baton token', async () => {
    const [serve, token] = blocks[5]!;
    // A free port instead of 7420 (BATON_PORT, as docs/server.md says), so parallel test runs never collide.
    const server = spawn('bash', ['-c', `exec ${serve!}`], {
      cwd: tracked,
      env: { ...env, BATON_PORT: '0' },
    });
    try {
      const listening = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`baton serve did not start:\n${out}`)), 60_000);
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        server.on('exit', (code) => reject(new Error(`baton serve exited ${code}:\n${out}`)));
      });
      const r = sh(token!, tracked);
      expect(r.code, r.stderr).toBe(0);
      const page = await fetch(`${listening}/`);
      expect(page.status).toBe(200);
      const api = await fetch(`${listening}/api/workflows`, {
        headers: { authorization: `Bearer ${r.stdout.trim()}` },
      });
      expect(api.status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });

  it('contributing: npm ci, npm test and npm run test:slow are what .ci/run runs', () => {
    expect(blocks[6]!.map((l) => l.split(/\s+#/)[0]!.trim())).toEqual([
      'npm ci',
      'npm test',
      'npm run test:slow',
    ]);
    const ci = readFileSync(fileURLToPath(new URL('../../.ci/run', import.meta.url)), 'utf8');
    expect(ci).toMatch(/^npm ci /m);
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toMatch(/^npm run test:slow$/m);
  });

  it('links only to pages that exist', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const arriving: string[] = [];
    const pages = [
      'README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      for (const m of readFileSync(join(root, page), 'utf8').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^https?:/.test(m[1]!)) continue;
        const target = normalize(join(dirname(page), m[1]!));
        if (!existsSync(join(root, target)) && !arriving.includes(target)) broken.push(`${page} -> ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
