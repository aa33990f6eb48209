import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m001 from './migrations/001_initial.js';
import { isPostgres } from './dialect.js';

/** Migrations are listed here in order; they run at every start and are idempotent. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // On PostgreSQL the bookkeeping tables live in the connection's own schema (search_path).
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
