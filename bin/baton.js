#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (a faster start); for older versions the hook keeps its own.
module.enableCompileCache?.();
const require = module.createRequire(import.meta.url);
/** The hook's entry (CommonJS): with Node.js's compile cache, else Baton's (bin/compile-cache.cjs). */
const loadHook = async () => {
  const entry = require.resolve('../dist/bin/hook.cjs');
  return module.enableCompileCache ? require(entry) : require('./compile-cache.cjs').requireCached(entry);
};
const argv = process.argv.slice(2);
// `baton hook <Event>` runs on every turn of an agent: it loads only the hook's own entry, not the CLI (which answers
// `baton hook --help`, and `baton hook` typed at a terminal; an agent's `baton hook` takes the event from its payload).
const asked =
  argv.some((a) => a === '--help' || a === '-h') || (argv.length < 2 && process.stdin.isTTY === true);
if (argv[0] === 'hook' && !asked) {
  // a hook never fails the agent: an install it cannot load (a rebuild under way, files missing) is said, exit 0
  const loaded = await loadHook().catch((e) => e);
  if (loaded instanceof Error) {
    const why = `Baton's hook could not load (${loaded.message.split('\n')[0]}): reinstall Baton (or run \`npm run build\` in its folder), then run \`baton doctor\``;
    process.stdout.write(`${JSON.stringify({ systemMessage: why })}\n`);
    process.stderr.write(`baton: ${why}\n`);
  } else process.exitCode = await loaded.hookMain(argv.slice(1));
} else {
  const { main } = await import('../dist/bin/cli.js');
  process.exitCode = await main(argv);
}
