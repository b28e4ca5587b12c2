import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopEngineIn } from '../helpers/docker-engine.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for this run's Docker engine: started there by the first test that needs it. */
    dockerRun: { dir: string };
  }
}

/**
 * The Docker tests share one engine per run, started lazily (test/helpers/docker-engine.ts): runs without a Docker
 * test pay nothing. This gives them a folder for it and stops the engine at the end, if one was started.
 */
export default function setup(project: TestProject) {
  // Short: the engine's sockets live under it (a unix socket path has at most 107 bytes).
  const dir = mkdtempSync(join(tmpdir(), 'bd-'));
  project.provide('dockerRun', { dir });
  return async () => {
    await stopEngineIn(join(dir, 'engine'));
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
