import type { LangGraphTables, LangGraphTablesOptions } from './langgraph-tables.js';
import { isPostgresUrl } from './open-store.js';
import { sqliteDriverError } from './sqlite-driver-error.js';

/** Opens (and migrates) the LangGraph tables of the database a SQLite path or a postgres:// URL names. */
export async function openLangGraphTables(
  database: string,
  options: LangGraphTablesOptions = {},
): Promise<LangGraphTables> {
  if (isPostgresUrl(database)) {
    const { PostgresLangGraphTables } = await import('./postgres/postgres-langgraph-tables.js');
    return PostgresLangGraphTables.open(database, options);
  }
  const { SqliteLangGraphTables } = await import('./sqlite/sqlite-langgraph-tables.js');
  try {
    return new SqliteLangGraphTables(database, options);
  } catch (e) {
    throw sqliteDriverError(e);
  }
}
