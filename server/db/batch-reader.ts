import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { sqlitePath, type DbConfig } from './connection.js';

/**
 * A connection of its own for reading a large result as a series of batches (the History
 * CSV export): each batch is one statement, so no transaction stays open while a slow client
 * downloads, and the pool (or SQLite's one writing connection) stays free for requests.
 * SQLite: a read-only connection, each statement prepared once. PostgreSQL: one client.
 */
export interface BatchReader {
  /** The rows of `query` run with `params` in place of its parameters, as objects. */
  rows<R>(query: CompiledQuery<R>, params: readonly unknown[]): Promise<R[]>;
  /** The same, each row an array of its columns' values (no object per row). */
  arrays(query: CompiledQuery, params: readonly unknown[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

export async function openBatchReader(config: DbConfig): Promise<BatchReader> {
  return config.databaseUrl ? openPostgresReader(config.databaseUrl) : openSqliteReader(config.dataDir);
}

async function openPostgresReader(connectionString: string): Promise<BatchReader> {
  const client = new pg.Client({ connectionString });
  // Ended by the database meanwhile: the next read fails instead of the process.
  client.on('error', () => undefined);
  await client.connect();
  return {
    async rows<R>(query: CompiledQuery<R>, params: readonly unknown[]) {
      return (await client.query<R & pg.QueryResultRow>({ text: query.sql, values: params as unknown[] })).rows;
    },
    async arrays(query, params) {
      return (await client.query<unknown[]>({ text: query.sql, values: params as unknown[], rowMode: 'array' })).rows;
    },
    close: () => client.end(),
  };
}

function openSqliteReader(dataDir: string): BatchReader {
  const reader = new SQLite(sqlitePath(dataDir), { readonly: true, fileMustExist: true });
  const prepared = new Map<string, SQLite.Statement>();
  const statement = (sql: string, raw: boolean): SQLite.Statement => {
    const key = raw ? `raw:${sql}` : sql;
    let stmt = prepared.get(key);
    if (!stmt) {
      stmt = reader.prepare(sql).raw(raw);
      prepared.set(key, stmt);
    }
    return stmt;
  };
  return {
    rows: async <R>(query: CompiledQuery<R>, params: readonly unknown[]) => statement(query.sql, false).all(...params) as R[],
    arrays: async (query, params) => statement(query.sql, true).all(...params) as unknown[][],
    close: async () => {
      reader.close();
    },
  };
}
