import { cliCoreSuite } from './cli-core-suite.js';

// The CLI's core walk-through over the local store; the same walk-through against a real `baton serve` is
// cli-core-server.test.ts, in `npm run test:slow`.
cliCoreSuite('local');
