import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import {
  diskUsage,
  localPrebuild,
  manifest,
  npmEnv,
  packRepository,
  repoRoot,
  run,
} from '../helpers/package-install.js';

/**
 * The package as a user gets it: `npm pack`, then `npm install -g --omit=dev --prefix <dir> <tarball>`, then the CLI
 * from another directory and the library from a fresh project. better-sqlite3 takes its prebuilt-binary path, fed
 * from the repository's own build (no network here but the npm registry); BATON_PACKAGE_FROM_SOURCE=1
 * (`npm run test:package`) compiles it instead, as on a platform without a prebuilt binary.
 */
const fromSource = process.env.BATON_PACKAGE_FROM_SOURCE === '1';
const installFlags = ['--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'];
// npm 12 runs a dependency's install script (better-sqlite3's fetches or builds its binary) only when allowed: on the
// command line for a global install (as the README's install command does), in package.json for a project.
const globalFlags = ['--allow-scripts=better-sqlite3', ...installFlags];
const MB = 1024 * 1024;

describe(`the packed ${manifest.name} package`, () => {
  let work: string;
  let tarball: string;
  let prefix: string;
  let installEnv: NodeJS.ProcessEnv;

  beforeAll(
    async () => {
      work = tempDir('baton-package-');
      tarball = await packRepository(work);
      const prebuilds = join(work, 'prebuilds');
      mkdirSync(prebuilds);
      installEnv = npmEnv(fromSource ? {} : await localPrebuild(prebuilds));
      prefix = join(work, 'prefix');
      const r = await run('npm', ['install', '-g', ...globalFlags, '--prefix', prefix, tarball], {
        cwd: work,
        env: installEnv,
      });
      if (r.code !== 0) throw new Error(`npm install -g failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
    },
    fromSource ? 900_000 : 300_000,
  );

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is not named baton, and holds LICENSE, the CLI bundle, the vocabulary and the modules the library loads, no source maps and no eval code', async () => {
    expect(manifest.name).not.toBe('baton');
    const list = (await run('tar', ['-tzf', tarball], { cwd: work })).stdout.split('\n').filter(Boolean);
    expect(list).toContain('package/LICENSE');
    expect(list).toContain('package/bin/baton.js');
    expect(list).toContain('package/dist/bin/cli.cjs');
    expect(list).toContain('package/dist/bin/hook.cjs');
    expect(list).toContain('package/bin/compile-cache.cjs');
    expect(list).toContain('package/dist/index.js');
    expect(list).toContain('package/dist/index.d.ts');
    expect(list).toContain('package/vendor/o200k_base.cjs');
    expect(list).toContain('package/web/dist/index.html');
    expect(list.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(list.filter((f) => f.includes('/extraction/eval/'))).toEqual([]);
    expect(list.filter((f) => f.startsWith('package/dist/cli/'))).toEqual([]);
    expect(list.filter((f) => /\.test\.(js|d\.ts)$/.test(f))).toEqual([]);
    // of dist/'s tsc output, only what the library's entries load (tools/package-ignore.js): the dynamically imported
    // store and LangGraph saver, not the server or the MCP server, which the CLI's bundle holds
    expect(list).toContain('package/dist/storage/sqlite/sqlite-store.js');
    expect(list).toContain('package/dist/storage/postgres/index.js');
    expect(list).toContain('package/dist/integrations/langgraph/baton-saver.js');
    expect(list).toContain('package/dist/integrations/langgraph/baton-saver.d.ts');
    expect(list.filter((f) => /^package\/dist\/(server|mcp|crash-driver-[^/]*)\//.test(f))).toEqual([]);
    expect(list).not.toContain('package/dist/.npmignore');
  });

  it('installs without LangChain and, from a prebuilt SQLite driver, in at most 60 MB', () => {
    const modules = join(prefix, 'lib', 'node_modules', manifest.name, 'node_modules');
    const size = diskUsage(prefix);
    console.log(
      `installed size: ${(size / MB).toFixed(1)} MB${fromSource ? ' (better-sqlite3 compiled)' : ''}`,
    );
    for (const absent of ['@langchain', 'langsmith', 'js-tiktoken'])
      expect(() => diskUsage(join(modules, absent)), absent).toThrow(/ENOENT/);
    // Compiling better-sqlite3 leaves node-gyp's intermediate files (about 15 MB) in its build folder.
    // 57.9 MB on 2026-12-07 (60.1 MB before dist/ shipped only what the entries load); most of it is the dependencies
    // (the MCP SDK's server stack, zod, hono, pg, better-sqlite3's SQLite source)
    if (!fromSource) expect(size).toBeLessThanOrEqual(60 * MB);
  });

  it('runs baton from another directory: --version, create, status, context, pause, a mistyped command', async () => {
    const repo = makeRepo('baton-package-cli-');
    const env = npmEnv({ BATON_HOME: join(work, 'home') });
    const baton = (...args: string[]) => run(join(prefix, 'bin', 'baton'), args, { cwd: repo, env });
    try {
      const version = await baton('--version');
      expect(version).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
      // the `baton` an agent run by Baton finds on its PATH where it has none (its mode kept by the package)
      const onPath = join(prefix, 'lib', 'node_modules', manifest.name, 'bin', 'on-path', 'baton');
      expect(await run(onPath, ['--version'], { cwd: repo, env })).toMatchObject({
        code: 0,
        stdout: version.stdout,
      });
      const created = await baton(
        'create',
        '--title',
        'Ship it',
        '--task',
        'T1:Write code',
        '--task',
        'T2:Test it:T1',
      );
      expect(created.code, created.stderr).toBe(0);
      expect((await baton('task', 'start', 'T1')).code).toBe(0);
      const status = await baton('status');
      expect(status.stdout).toContain('Ship it');
      expect(status.stdout).toContain('status: in_progress');
      const pause = await baton('pause', '--reason', 'end of day');
      expect(pause.code, pause.stderr).toBe(0);
      expect((await baton('task', 'done', 'T1')).code).toBe(0);
      const paused = JSON.parse((await baton('--json', 'status')).stdout) as { workflow: { status: string } };
      expect(paused.workflow.status).toBe('paused');
      // The resume context is counted with the vocabulary in the installed package's vendor/.
      const context = JSON.parse((await baton('--json', 'context')).stdout) as {
        tokens: number;
        markdown: string;
      };
      expect(context.tokens).toBeGreaterThan(0);
      expect(context.markdown).toContain('T2');
      const typo = await baton('stauts');
      expect(typo.code).toBe(2);
      expect(typo.stderr).toBe("baton: unknown command 'stauts'. Did you mean 'baton status'?\n");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('says how to reinstall when the SQLite driver has no native binary (its install script did not run)', async () => {
    const binary = join(
      prefix,
      'lib',
      'node_modules',
      manifest.name,
      'node_modules',
      'better-sqlite3',
      'build',
      'Release',
      'better_sqlite3.node',
    );
    const repo = makeRepo('baton-package-nobinary-');
    renameSync(binary, `${binary}.away`);
    try {
      const r = await run(join(prefix, 'bin', 'baton'), ['status'], {
        cwd: repo,
        env: npmEnv({ BATON_HOME: join(work, 'home-nobinary') }),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `baton: the SQLite driver (better-sqlite3) has no native binary: its install script did not run; rebuild it in Baton's folder with \`cd ${join(prefix, 'lib', 'node_modules', manifest.name)} && npm rebuild better-sqlite3\` (see docs/install.md)\n`,
      );
    } finally {
      renameSync(`${binary}.away`, binary);
      rmSync(repo, { recursive: true, force: true });
    }
  });

  describe('in a fresh project', () => {
    let project: string;
    beforeAll(
      async () => {
        project = join(work, 'project');
        mkdirSync(project);
        writeFileSync(
          join(project, 'package.json'),
          JSON.stringify({
            name: 'consumer',
            private: true,
            type: 'module',
            allowScripts: { 'better-sqlite3': true },
          }),
        );
        const r = await run('npm', ['install', ...installFlags, tarball], { cwd: project, env: installEnv });
        if (r.code !== 0) throw new Error(`npm install failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
      },
      fromSource ? 900_000 : 300_000,
    );

    /** tsc on the project's files as a consumer's strict build runs it, into out/. */
    const typeCheck = (files: string[]) =>
      run(
        process.execPath,
        [
          join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--strict',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--skipLibCheck',
          '--typeRoots',
          join(repoRoot, 'node_modules', '@types'),
          '--types',
          'node',
          '--outDir',
          'out',
          ...files,
        ],
        { cwd: project },
      );

    it('runs with npx by the package name', async () => {
      const r = await run('npx', ['--no-install', manifest.name, '--version'], {
        cwd: project,
        env: npmEnv(),
      });
      expect(r).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
    });

    it(`is imported by name: opens a store, drives a workflow, reports errors with their codes`, async () => {
      const repo = makeRepo('baton-package-lib-');
      const script = `
        import { openBaton, BatonError, errorCodes, countTokens, PACKAGE_NAME } from '${manifest.name}';
        const client = await openBaton({ home: ${JSON.stringify(join(work, 'lib-home'))}, env: {} });
        const wf = await client.create({ title: 'From a program', tasks: [{ id: 'T1', title: 'Do it' }], cwd: ${JSON.stringify(repo)} });
        await client.task({ workflowId: wf.id }, 'start', 'T1');
        const status = await client.status({ workflowId: wf.id });
        let code = null;
        try { await client.task({ workflowId: wf.id }, 'start', 'T9'); } catch (e) { code = BatonError.isInstance(e) ? e.code : String(e); }
        await client.close();
        console.log(JSON.stringify({ name: PACKAGE_NAME, status: status.workflow.status, code, codes: errorCodes, tokens: countTokens('hello world') }));`;
      try {
        const r = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({
          name: manifest.name,
          status: 'in_progress',
          code: 'not_found',
          codes: expect.arrayContaining(['invalid_input', 'not_found', 'conflict']),
          tokens: 2,
        });
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    it("is typed: a TypeScript program, and docs/library.md's example, type-check and the example runs", async () => {
      writeFileSync(
        join(project, 'consumer.ts'),
        [
          `import { openBaton, BatonError, type BatonClient, type ErrorCode, type WorkflowState } from '${manifest.name}';`,
          `export async function open(): Promise<BatonClient> { return openBaton({ database: 'x.db', mirror: false }); }`,
          `export const code: ErrorCode = new BatonError('not_found', 'x').code;`,
          `// @ts-expect-error: not one of the error codes`,
          `export const wrong: ErrorCode = 'no_such_code';`,
          `export type Status = WorkflowState['status'];`,
        ].join('\n'),
      );
      const repo = makeRepo('baton-package-example-');
      const doc = readFileSync(join(repoRoot, 'docs', 'library.md'), 'utf8');
      const example = /```ts\n([\s\S]*?)```/.exec(doc)![1]!;
      expect(example).toContain("'/path/to/your/repository'");
      writeFileSync(
        join(project, 'example.ts'),
        example.replace("'/path/to/your/repository'", JSON.stringify(repo)),
      );
      const compiled = await typeCheck(['consumer.ts', 'example.ts']);
      try {
        expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
        const r = await run(process.execPath, [join(project, 'out', 'example.js')], {
          cwd: project,
          env: npmEnv({ BATON_HOME: join(work, 'example-home') }),
        });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^\d+ /); // the context's token count, then its markdown
        expect(r.stdout).toContain('Implement the API');
        expect(r.stderr).toContain('task T9 is not in workflow');
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    it('agent-baton/langgraph names the LangGraph packages to install, and works once they are', async () => {
      const load = `
        import('${manifest.name}/langgraph').then(
          async ({ BatonSaver }) => {
            const saver = BatonSaver.fromConnString(${JSON.stringify(join(work, 'lg.db'))});
            await saver.setup();
            await saver.end();
            console.log(JSON.stringify({ loaded: typeof BatonSaver }));
          },
          (e) => console.log(JSON.stringify({ code: e.code, message: e.message })),
        );`;
      const missing = await run(process.execPath, ['--input-type=module', '-e', load], { cwd: project });
      expect(JSON.parse(missing.stdout)).toEqual({
        code: 'unavailable',
        message: expect.stringContaining('npm install @langchain/core @langchain/langgraph-checkpoint'),
      });
      expect(missing.stdout).toContain('needs @langchain/core and @langchain/langgraph-checkpoint');
      const r = await run(
        'npm',
        ['install', ...installFlags, '@langchain/core@^1.1.48', '@langchain/langgraph-checkpoint@^1.2.2'],
        { cwd: project, env: installEnv },
      );
      expect(r.code, r.stderr).toBe(0);
      const loaded = await run(process.execPath, ['--input-type=module', '-e', load], { cwd: project });
      expect(JSON.parse(loaded.stdout)).toEqual({ loaded: 'function' });
      // its declarations reach the saver's and the store's: a mistyped option or method is an error, not `any`
      writeFileSync(
        join(project, 'saver.ts'),
        [
          `import { BatonSaver, type BatonSaverOptions } from '${manifest.name}/langgraph';`,
          `const options: BatonSaverOptions = { durability: 'normal' };`,
          `export const saver: BatonSaver = BatonSaver.fromConnString('x.db', options);`,
          `// @ts-expect-error: not a durability`,
          `export const wrong: BatonSaverOptions = { durability: 'sometimes' };`,
          `// @ts-expect-error: not a method of the saver`,
          `export const missing = saver.noSuchMethod();`,
        ].join('\n'),
      );
      const typed = await typeCheck(['saver.ts']);
      expect(typed.code, typed.stdout + typed.stderr).toBe(0);
    });
  });
});
