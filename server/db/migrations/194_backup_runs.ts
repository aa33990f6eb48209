import type { Kysely } from 'kysely';

/**
 * Scheduled backups: one row a run, its id the schedule slot it fills, so with several
 * instances the first to insert it makes that backup and the others skip it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('backup_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('startedAt', 'text', (c) => c.notNull())
    .addColumn('finishedAt', 'text')
    .addColumn('ok', 'integer')
    .addColumn('location', 'text')
    .addColumn('files', 'integer')
    .addColumn('bytes', 'double precision')
    .addColumn('error', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('backup_runs').execute();
}
