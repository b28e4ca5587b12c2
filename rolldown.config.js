import { defineConfig } from 'rolldown';

/**
 * The `baton` command as a bundle (`npm run build`, after tsc): dist/cli/main.js and what it imports, with zod and
 * commander inside, so a command reads a few files instead of ~250 modules (`npm run bench -- startup`). Each command
 * module stays a separate chunk, loaded only when its command runs (src/cli/command-table.ts). The other
 * dependencies (the SQLite and PostgreSQL drivers, the server's and MCP's packages) stay in node_modules and load on
 * demand. The chunks sit two levels below the package root, like every dist/<folder>/ module, so the paths that
 * modules resolve from their own location (vendor/, package.json, web/dist) hold in both.
 *
 * `baton hook <Event>` has its own entry, run by bin/baton.js without the CLI: a hook runs on every turn of an agent,
 * and loads the store side (hook-run) only when the event needs it, the transcript import only when it imports. It
 * is CommonJS (dist/bin/hook.cjs and its .cjs chunks) so that a Node.js without a compile cache of its own (before
 * 22.1) can keep V8's compiled code between hooks (bin/compile-cache.cjs): compiling the hook's code was a large part
 * of each hook (`npm run bench -- hooks`). Its external dynamic imports (dockerode) become `require`. Baton's core
 * (src/core) does nothing when a module of it is loaded but define things (no I/O, nothing registered), so the hook
 * declares it free of side effects: what the hook's entry imports of it through its index (the error type, a few
 * names) comes without the rest of the core, whose schemas cost every hook tens of milliseconds to build, even a
 * PostToolUse of Read that needs none of it (test/e2e/hook-load.test.ts).
 */
/** Modules whose loading has no effect but their exports. */
const pureCore = { test: /[\\/]dist[\\/]core[\\/]/, sideEffects: false };
const bundled = /^(zod|commander)(\/|$)/;
const external = (id) => !id.startsWith('.') && !id.startsWith('/') && !bundled.test(id);

export default defineConfig([
  {
    input: { cli: 'dist/cli/main.js' },
    platform: 'node',
    external,
    output: { dir: 'dist/bin', format: 'esm', chunkFileNames: '[name]-[hash].js', sourcemap: false },
  },
  {
    input: { hook: 'dist/cli/hook-entry.js' },
    platform: 'node',
    external,
    treeshake: { moduleSideEffects: [pureCore] },
    output: {
      dir: 'dist/bin',
      format: 'cjs',
      entryFileNames: '[name].cjs',
      chunkFileNames: '[name]-[hash].cjs',
      dynamicImportInCjs: false,
      sourcemap: false,
    },
  },
]);
