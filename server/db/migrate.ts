import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Migrations are the files of server/db/migrations, applied in name order (NNN_name.ts),
 * each written once with Kysely's schema builder for both engines. They run at every start.
 */
const provider: MigrationProvider = {
  async getMigrations() {
    const dir = path.join(import.meta.dirname, 'migrations');
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{3}_.+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
      .sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.(ts|js)$/, '')] = (await import(/* @vite-ignore */ pathToFileURL(path.join(dir, file)).href)) as Migration;
    }
    return migrations;
  },
};

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // On PostgreSQL the bookkeeping tables live in the connection's own schema (search_path).
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  // Areas own number ranges (010, 040, 050…) and land in any order: a database that already
  // ran a higher number still applies a lower one that arrives later.
  const migrator = new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
