import { defineConfig } from 'rolldown';

/**
 * The `baton` command as a bundle (`npm run build`, after tsc): dist/cli/main.js and what it imports, with zod and
 * commander inside, so a command reads a few files instead of ~250 modules (`npm run bench -- startup`). Each command
 * module stays a separate chunk, loaded only when its command runs (src/cli/command-table.ts). The other
 * dependencies (the SQLite and PostgreSQL drivers, the server's and MCP's packages) stay in node_modules and load on
 * demand. The chunks sit two levels below the package root, like every dist/<folder>/ module, so the paths that
 * modules resolve from their own location (vendor/, package.json, web/dist) hold in both.
 */
const bundled = /^(zod|commander)(\/|$)/;

export default defineConfig({
  input: { cli: 'dist/cli/main.js' },
  platform: 'node',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !bundled.test(id),
  output: { dir: 'dist/bin', format: 'esm', chunkFileNames: '[name]-[hash].js', sourcemap: false },
});
