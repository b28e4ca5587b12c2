#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (a faster start); older versions have no such cache.
module.enableCompileCache?.();
const { main } = await import('../dist/bin/cli.js');
process.exitCode = await main(process.argv.slice(2));
