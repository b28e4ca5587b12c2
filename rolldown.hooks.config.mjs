/**
 * `npm run build:hooks`: the part of `baton hook` that needs the store, bundled into a few files. A hook runs on
 * every turn of an agent, and Node's ES module loader pays for every file it loads (about 140 for this path):
 * bundled, the hook loads a handful. Chunks keep the lazy parts lazy (the transcript import, PostgreSQL). Native and
 * optional packages stay outside. `dist/cli/hook-entry.js` loads this bundle (and dist/cli/hook-run.js without it).
 */
export default {
  input: 'dist/cli/hook-run.js',
  platform: 'node',
  external: [/^better-sqlite3($|\/)/, /^pg($|\/)/, /^js-tiktoken($|\/)/],
  output: { dir: 'dist/hook-bundle', format: 'esm', chunkFileNames: '[name]-[hash].js' },
  logLevel: 'warn',
};
