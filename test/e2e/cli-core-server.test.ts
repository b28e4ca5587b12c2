import { cliCoreSuite } from './cli-core-suite.js';

// The CLI's core walk-through against a real `baton serve` (BATON_URL): every command over the HTTP client.
cliCoreSuite('server');
