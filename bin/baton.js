#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (a faster start); older versions have no such cache.
module.enableCompileCache?.();
const argv = process.argv.slice(2);
// `baton hook <Event>` runs on every turn of an agent: it loads only the hook's own entry, not the CLI.
if (argv[0] === 'hook') {
  const { hookMain } = await import('../dist/bin/hook.js');
  process.exitCode = await hookMain(argv.slice(1));
} else {
  const { main } = await import('../dist/bin/cli.js');
  process.exitCode = await main(argv);
}
