import * as vitest from 'vitest';

/**
 * The LangGraph validation suite calls `describe`, `it`, `expect`... as globals (Jest style). Installing them here
 * keeps `globals: false` for the rest of the project.
 */
const names = [
  'describe',
  'it',
  'test',
  'expect',
  'beforeAll',
  'afterAll',
  'beforeEach',
  'afterEach',
] as const;
for (const name of names) (globalThis as Record<string, unknown>)[name] = vitest[name];
