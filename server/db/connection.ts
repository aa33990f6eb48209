import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './types.js';

// int8 (counts, bigserial) arrives from pg as text; our values fit safely in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface DbConfig {
  dataDir: string;
  databaseUrl?: string | undefined;
}

export function sqlitePath(dataDir: string): string {
  return path.join(dataDir, 'palayan.sqlite');
}

export function createDb(config: DbConfig): Kysely<Database> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = sqlitePath(config.dataDir);
  // Readable by the server's user only; SQLite gives the -wal and -shm files the same mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/**
 * Kysely prepares every query again; on a hot path (the session check of every request)
 * preparing costs more than running. Statements are reused by their SQL text. One connection
 * runs one query at a time (Kysely's single-connection lock), so a statement is never busy.
 */
function withStatementCache(database: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SQLite.Statement {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = database.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
