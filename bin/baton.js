#!/usr/bin/env node
// `baton hook <Event>` runs on every turn of an agent: it loads only the hook's own module, not the whole CLI.
const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  const { hookMain } = await import('../dist/cli/hook-entry.js');
  process.exitCode = await hookMain(argv.slice(1));
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(argv);
}
