import { PostgresAdapter, sql, type Expression, type Kysely, type SqlBool } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Escapes LIKE wildcards so user input is matched literally. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains" that behaves the same on SQLite and PostgreSQL. */
export function containsInsensitive(db: Kysely<any>, column: Expression<unknown>, term: string): Expression<SqlBool> {
  const pattern = likePattern(term.toLowerCase());
  return isPostgres(db)
    ? sql<SqlBool>`${column} ilike ${pattern} escape '\\'`
    : sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
}
