/** Whether a database setting names a PostgreSQL server (else it is a SQLite file's path). */
export const isPostgresUrl = (database: string) => /^postgres(ql)?:\/\//.test(database);
