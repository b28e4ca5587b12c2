import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layer rules (docs/architecture.md): each layer imports only downward.
 * core <- storage <- service <- adapters (git, agents, executors, extraction) <- edges (cli, server, mcp, integrations)
 */
const forbid = (group, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'web/dist/**', 'test-artifacts/**', 'vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  { files: ['**/*.test.ts', 'test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: forbid(
      [
        'node:*',
        'fs',
        'path',
        'child_process',
        'os',
        '**/storage/**',
        '**/service/**',
        '**/cli/**',
        '**/server/**',
        '**/git/**',
        'better-sqlite3',
        'pg',
      ],
      'src/core is pure: no I/O, no node:* imports, nothing from outer layers.',
    ),
  },
  {
    files: ['src/storage/**/*.ts'],
    ignores: ['src/storage/sqlite/**', 'src/storage/postgres/**'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/service/**', '**/cli/**', '**/server/**'],
      'storage/ is dialect-free; drivers live in storage/sqlite and storage/postgres.',
    ),
  },
  {
    files: ['src/storage/sqlite/**/*.ts'],
    rules: forbid(
      ['pg', '**/service/**', '**/cli/**', '**/server/**'],
      'storage/sqlite imports only better-sqlite3.',
    ),
  },
  {
    files: ['src/storage/postgres/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', '**/service/**', '**/cli/**', '**/server/**'],
      'storage/postgres imports only pg.',
    ),
  },
  {
    files: ['src/service/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/cli/**', '**/server/**', '**/mcp/**'],
      'the service knows the Store interface, never a driver or an edge.',
    ),
  },
  {
    files: ['src/git/**/*.ts', 'src/agents/**/*.ts', 'src/extraction/**/*.ts', 'src/executors/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/cli/**', '**/server/**', '**/mcp/**', '**/storage/**'],
      'adapters talk to the outside world, not to storage or edges.',
    ),
  },
  {
    files: ['src/client/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/storage/**', '**/cli/**', '**/server/**', '**/mcp/**'],
      'the client speaks to the service (local) or over HTTP; it knows no edge and no store.',
    ),
  },
  {
    files: ['src/disk/**/*.ts'],
    rules: forbid(
      [
        'better-sqlite3',
        'pg',
        '**/storage/sqlite/**',
        '**/storage/postgres/**',
        '**/cli/**',
        '**/server/**',
        '**/mcp/**',
        '**/client/**',
      ],
      'disk/ mirrors the log through the Store interface; it knows no driver and no edge.',
    ),
  },
  {
    files: ['src/cli/**/*.ts', 'src/server/**/*.ts', 'src/mcp/**/*.ts', 'src/integrations/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/storage/sqlite/**', '**/storage/postgres/**'],
      'edges call the service; opening a store goes through storage/open-store.',
    ),
  },
  {
    // The library entry (agent-baton) and the recipe it shares with the CLI: no driver, no other edge.
    files: ['src/index.ts', 'src/open-baton.ts'],
    rules: forbid(
      [
        'better-sqlite3',
        'pg',
        '**/storage/sqlite/**',
        '**/storage/postgres/**',
        '**/cli/**',
        '**/server/**',
        '**/mcp/**',
      ],
      'the library entry opens stores through storage/open-store and knows no other edge.',
    ),
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/storage/sqlite/**', '**/storage/postgres/**', '**/cli/**', '**/mcp/**'],
      'the server is an edge: it calls the client/service, never the CLI, the MCP edge or a driver.',
    ),
  },
  {
    // The dashboard runs in the browser and talks to the server over HTTP only: from src/ it takes types alone
    // (the response schemas), never code.
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', 'node:*', 'better-sqlite3', 'pg', 'hono', '@hono/*'],
              allowTypeImports: true,
              message:
                'web/ is a browser app: it imports only types from src/ and talks to the server over HTTP.',
            },
          ],
        },
      ],
    },
  },
);
