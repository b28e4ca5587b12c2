import { readTestOutput } from '../../src/extraction/session/test-output.js';

/** What a runner's output reports, as the readers' tests compare it (null when it reports no result). */
export const counts = (output: string) => {
  const r = readTestOutput(output);
  return (
    r && { runner: r.runner, passed: r.passed, failed: r.failed, skipped: r.skipped, failing: r.failing }
  );
};

/** An output of several lines. */
export const lines = (...l: string[]) => l.join('\n');
