import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { keepAlive } from './pg-pool.js';
import { preparedStatementsPool, registerPreparedStatements } from './prepared-statements.js';
import { registerSqliteFile } from './read-workers.js';
import type { Database } from './types.js';

// int8 (counts, bigserial) arrives from pg as text; our values fit safely in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface DbConfig {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** SQLite: threads that run long reads beside the server's own (read-workers.ts); none when unset. */
  sqliteReadWorkers?: number | undefined;
  /** PostgreSQL: connections of the prepared statements' pool; POSTGRES_POOL_SIZE when unset. */
  postgresReadConnections?: number | undefined;
  /** PostgreSQL: this instance's name in pg_stat_activity (application_name). */
  instanceId?: string | undefined;
}

export function sqlitePath(dataDir: string): string {
  return path.join(dataDir, 'palayan.sqlite');
}

/** PostgreSQL: connections of the queries' pool (and of the prepared statements' when not configured). */
const POSTGRES_POOL_SIZE = 10;

/**
 * The pool Kysely runs its queries on, which closes the prepared statements' pool with it.
 * An idle connection that broke (the database restarted) is dropped; the pool opens another.
 */
class PoolWithStatements extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly statements: pg.Pool,
  ) {
    super(config);
  }

  override async end(): Promise<void> {
    await Promise.all([super.end(), this.statements.end()]);
  }
}

/** Up to this much of the database file is read through a memory map. */
const SQLITE_MMAP_BYTES = 1024 * 1024 * 1024;

export function createDb(config: DbConfig): Kysely<Database> {
  if (config.databaseUrl) {
    const name = `palayan:${config.instanceId ?? process.pid}`.slice(0, 63);
    const statements = preparedStatementsPool(config.databaseUrl, config.postgresReadConnections ?? POSTGRES_POOL_SIZE, name);
    const pool = new PoolWithStatements(
      { connectionString: config.databaseUrl, max: POSTGRES_POOL_SIZE, application_name: name },
      statements,
    );
    keepAlive(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    registerPreparedStatements(db, statements);
    return db;
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = sqlitePath(config.dataDir);
  // Readable by the server's user only; SQLite gives the -wal and -shm files the same mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const database = withFunctions(new SQLite(file));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // Reads map the file instead of copying each page through a read call: the search index is
  // read page by page on every search, and its pages are shared with the OS cache, not copied.
  database.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  let closeReaders: () => Promise<void> = async () => undefined;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database, () => closeReaders()) }) });
  closeReaders = registerSqliteFile(db, file, config.sqliteReadWorkers ?? 0);
  return db;
}

/**
 * SQLite's lower() and LIKE fold ASCII letters only: `unicode_lower` folds every letter as
 * JavaScript does (É, Ñ, Â), so searches find Filipino, Kapampangan and Ilocano text whatever
 * its case, as PostgreSQL's ilike does (dialect.ts containsInsensitive).
 */
function withFunctions(database: SQLite.Database): SQLite.Database {
  database.function(
    'unicode_lower',
    { deterministic: true },
    (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value) as string | null,
  );
  return database;
}

/** A worker thread's connection to the server's SQLite file: reads only (read-workers.ts). */
export function openSqliteReader(file: string): Kysely<Database> {
  const database = withFunctions(new SQLite(file, { readonly: true, fileMustExist: true }));
  database.pragma('busy_timeout = 5000');
  // No memory map: a connection that does not write unmaps the whole file whenever another one
  // commits, and mapping it again costs a page fault for every page read after (and the
  // process's other threads a TLB flush); read calls into its page cache cost less.
  database.pragma('mmap_size = 0');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/**
 * Kysely prepares every query again; on a hot path (the session check of every request)
 * preparing costs more than running. Statements are reused by their SQL text. One connection
 * runs one query at a time (Kysely's single-connection lock), so a statement is never busy.
 */
function withStatementCache(database: SQLite.Database, beforeClose: () => Promise<void> = async () => undefined, max = 500) {
  const cache = new Map<string, Statement>();
  return {
    close: async () => {
      await beforeClose();
      database.close();
    },
    prepare(text: string): Statement {
      // A transaction takes the write lock when it begins: one that read first and wrote later
      // would fail at once (no waiting) when another process, e.g. the import command, wrote in between.
      const sql = text === 'begin' ? 'begin immediate' : text;
      // A commit that failed for a full disk (SQLITE_FULL) or an I/O error has already rolled
      // the transaction back; Kysely's rollback would then fail with "no transaction is active"
      // and that error would replace the real one.
      if (sql === 'rollback' && !database.inTransaction) return NO_OP;
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = withPlainRows(database.prepare(sql));
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/** What Kysely's SQLite driver uses of a statement. */
type Statement = Pick<SQLite.Statement, 'reader' | 'all' | 'run' | 'iterate'>;

const NO_OP = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: function* none() {
    /* nothing to read */
  },
} as unknown as Statement;

/**
 * Rows read as arrays and made into objects here: better-sqlite3 sets each column of a row
 * object from native code, which costs more than reading the row. Same objects: the columns in
 * order, a later column of the same name over an earlier one.
 */
function withPlainRows(stmt: SQLite.Statement): Statement {
  if (!stmt.reader) return stmt;
  const names = stmt.columns().map((c) => c.name);
  stmt.raw(true);
  const toObject = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i += 1) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    all: (...params: unknown[]) => (stmt.all(...params) as unknown[][]).map(toObject),
    run: (...params: unknown[]) => stmt.run(...params),
    iterate: function* rows(...params: unknown[]) {
      for (const values of stmt.iterate(...params) as IterableIterator<unknown[]>) yield toObject(values);
    },
  } as Statement;
}
