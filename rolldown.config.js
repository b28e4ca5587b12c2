import { defineConfig } from 'rolldown';

/**
 * The `baton` command as a bundle (`npm run build`, after tsc): dist/cli/main.js and what it imports, with zod and
 * commander inside, so a command reads a few files instead of ~250 modules (`npm run bench -- startup`). Each command
 * module stays a separate chunk, loaded only when its command runs (src/cli/command-table.ts). The other
 * dependencies (the SQLite and PostgreSQL drivers, the server's and MCP's packages) stay in node_modules and load on
 * demand, each by its CommonJS entry. The chunks sit two levels below the package root, like every dist/<folder>/
 * module, so the paths that modules resolve from their own location (vendor/, package.json, web/dist) hold in both.
 *
 * `baton hook <Event>` has its own entry, run by bin/baton.js without the CLI: a hook runs on every turn of an agent,
 * and loads the store side (hook-run) only when the event needs it, the transcript import only when it imports. Both
 * bundles are CommonJS (dist/bin/cli.cjs, dist/bin/hook.cjs and their .cjs chunks) so that a Node.js without a compile
 * cache of its own (before 22.1) can keep V8's compiled code between processes (bin/compile-cache.cjs): compiling was
 * a large part of each hook (`npm run bench -- hooks`) and of each command, and Node.js's ES module loader costs a
 * command more again. Their external dynamic imports (the drivers, dockerode) become `require`. Baton's core
 * (src/core) does nothing when a module of it is loaded but define things (no I/O, nothing registered), so the hook
 * declares it free of side effects: what the hook's entry imports of it through its index (the error type, a few
 * names) comes without the rest of the core, whose schemas cost every hook tens of milliseconds to build, even a
 * PostToolUse of Read that needs none of it (test/e2e/hook-load.test.ts).
 */
/** Modules whose loading has no effect but their exports. */
const pureCore = { test: /[\\/]dist[\\/]core[\\/]/, sideEffects: false };
const bundled = /^(zod|commander)(\/|$)/;
const output = {
  dir: 'dist/bin',
  format: 'cjs',
  entryFileNames: '[name].cjs',
  chunkFileNames: '[name]-[hash].cjs',
  dynamicImportInCjs: false,
  sourcemap: false,
};
const external = (id) => !id.startsWith('.') && !id.startsWith('/') && !bundled.test(id);

export default defineConfig([
  { input: { cli: 'dist/cli/main.js' }, platform: 'node', external, output },
  {
    input: { hook: 'dist/cli/hook-entry.js' },
    platform: 'node',
    external,
    treeshake: { moduleSideEffects: [pureCore] },
    output,
  },
]);
