import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './tools/eslint-layers.js';

/**
 * Layer rules (docs/architecture.md): which src/ folder may import which is an allow-list in tools/eslint-layers.js;
 * the blocks below add which packages (database drivers, node:*) each may not use.
 */
const forbid = (group, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});

/** Every error Baton throws is a BatonError with a code (src/core/errors.ts). */
const onlyBatonErrors = {
  selector: 'ThrowStatement > NewExpression[callee.name=/^(Error|TypeError|RangeError)$/]',
  message: 'throw a BatonError with a code (invalidInput, notFound, conflict... from src/core/errors.ts)',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'web/dist/**', 'test-artifacts/**', 'vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  { files: ['**/*.test.ts', 'test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // CommonJS on purpose (bin/, for a start without the ES module loader; bin/compile-cache.cjs loads the hook's
  // CommonJS bundle): `require` is how they import
  {
    files: ['**/*.cjs', 'bin/baton.js', 'bin/on-path/baton'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The allow-list of layers (tools/eslint-layers.js): which src/ folder may import which.
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/allowed-imports': 'error' },
  },
  {
    // Every error Baton throws is a BatonError with a code (src/core/errors.ts): the edges map codes to exit codes,
    // HTTP statuses and MCP errors, so a plain Error would reach the user as "internal".
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', onlyBatonErrors],
    },
  },
  {
    // The server's responses are typed by their routes' schemas (the OpenAPI document the dashboard's types come
    // from): a cast would switch that check off. (The rule repeats the BatonError selector: a later block's
    // no-restricted-syntax replaces an earlier one's.)
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        onlyBatonErrors,
        ...[
          'TSAsExpression > TSNeverKeyword.typeAnnotation',
          'TSAsExpression > TSAnyKeyword.typeAnnotation',
          'TSAsExpression > TSAsExpression.expression > TSUnknownKeyword.typeAnnotation',
        ].map((selector) => ({
          selector,
          message:
            'no `as never`, `as any` or `as unknown as` in the server: type the value (or fix the schema) so the compiler checks each response against its route',
        })),
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: forbid(
      ['node:*', 'fs', 'path', 'child_process', 'os', 'better-sqlite3', 'pg'],
      'src/core is pure: no I/O, no node:* imports.',
    ),
  },
  {
    files: ['src/storage/**/*.ts'],
    ignores: ['src/storage/sqlite/**', 'src/storage/postgres/**'],
    rules: forbid(
      ['better-sqlite3', 'pg'],
      'storage/ is dialect-free; drivers live in storage/sqlite and storage/postgres.',
    ),
  },
  {
    files: ['src/storage/sqlite/**/*.ts'],
    rules: forbid(['pg'], 'storage/sqlite imports only better-sqlite3.'),
  },
  {
    files: ['src/storage/postgres/**/*.ts'],
    rules: forbid(['better-sqlite3'], 'storage/postgres imports only pg.'),
  },
  {
    files: ['src/service/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/storage/sqlite/**', '**/storage/postgres/**'],
      'the service knows the Store interface, never a driver.',
    ),
  },
  {
    files: ['src/git/**/*.ts', 'src/agents/**/*.ts', 'src/extraction/**/*.ts', 'src/executors/**/*.ts'],
    rules: forbid(['better-sqlite3', 'pg'], 'adapters talk to the outside world, not to a database.'),
  },
  {
    files: ['src/client/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg'],
      'the client speaks to the service (local) or over HTTP; it knows no edge and no store.',
    ),
  },
  {
    files: ['src/disk/**/*.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/storage/sqlite/**', '**/storage/postgres/**'],
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
      ['better-sqlite3', 'pg', '**/storage/sqlite/**', '**/storage/postgres/**'],
      'the library entry opens stores through storage/open-store and knows no other edge.',
    ),
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: forbid(
      ['better-sqlite3', 'pg', '**/storage/sqlite/**', '**/storage/postgres/**'],
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
