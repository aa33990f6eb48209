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
  fs.mkdirSync(config.dataDir, { recursive: true });
  const database = new SQLite(sqlitePath(config.dataDir));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}
