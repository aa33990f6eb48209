import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './types.js';

/** SQLite: a large page cache (256 MB) for this connection while a bulk load runs, so a random-key index stays in memory. */
export async function widenCacheForBulkLoad(db: Kysely<Database>): Promise<void> {
  if (!isPostgres(db)) await sql`pragma cache_size = -262144`.execute(db);
}

/** PostgreSQL: fresh planner statistics for a table after a bulk load (SQLite needs none). */
export async function analyzeAfterBulkLoad(db: Kysely<Database>, table: keyof Database & string): Promise<void> {
  if (isPostgres(db)) await sql`analyze ${sql.table(table)}`.execute(db);
}
