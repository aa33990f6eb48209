import { CompiledQuery, PostgresAdapter, sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { preparedStatementsOf } from './prepared-statements.js';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Escapes LIKE wildcards so user input is matched literally. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains" that behaves the same on SQLite and PostgreSQL, for every letter (not ASCII only). */
export function containsInsensitive(db: Kysely<any>, column: Expression<unknown>, term: string): Expression<SqlBool> {
  const pattern = likePattern(term.toLowerCase());
  return isPostgres(db)
    ? sql<SqlBool>`${column} ilike ${pattern} escape '\\'`
    : sql<SqlBool>`unicode_lower(${column}) like ${pattern} escape '\\'`;
}

/**
 * Every column of table T, named: `allColumns<T>()([...])` fails to type-check while one is
 * missing, so a statement that lists them stays whole when a migration adds a column.
 */
export function allColumns<T>() {
  return <const C extends readonly (keyof T & string)[]>(
    columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, C[number]> }),
  ): C => columns;
}

let preparedCount = 0;

/**
 * A query written once as SQL text (with ? placeholders; PostgreSQL gets $1, $2… in their
 * place), run with new values each time. For hot paths where building and compiling a Kysely
 * query costs more than running it. The text is the engine's own, so it is typed by R alone.
 * `prepared`: on PostgreSQL, outside a transaction, a prepared statement with one plan for any
 * values (db/prepared-statements.ts); for statements that name their columns, as a prepared
 * `select *` fails once a column is added.
 */
export function fixedQuery<R>(text: string | { sqlite: string; postgres: string }, options: { prepared?: boolean } = {}) {
  const sqliteText = typeof text === 'string' ? text : text.sqlite;
  let n = 0;
  const postgresText = (typeof text === 'string' ? text : text.postgres).replace(/\?/g, () => `$${++n}`);
  const name = options.prepared ? `palayan_${(preparedCount += 1)}` : undefined;
  return async (db: Kysely<any>, params: readonly unknown[]): Promise<R[]> => {
    const statements = name ? preparedStatementsOf(db) : undefined;
    if (statements) return (await statements.query({ name, text: postgresText, values: [...params] })).rows as R[];
    const result = await db.executeQuery<R>(CompiledQuery.raw(isPostgres(db) ? postgresText : sqliteText, [...params]));
    return result.rows;
  };
}

/** Big `in (...)` lists and multi-row statements are split so both engines stay well inside their parameter limits. */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Reads that must agree with one another (counts of several tables) in one snapshot, whatever
 * commits meanwhile: a repeatable-read transaction on PostgreSQL; on SQLite every transaction
 * reads one snapshot. For reads only: a write goes through runCommand (platform/writes/command.ts).
 */
export function inSnapshot<DB, T>(db: Kysely<DB>, read: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(read);
}

/** A unique-constraint violation on either engine (a concurrent write took the same key). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}
