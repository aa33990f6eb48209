import type { Kysely } from 'kysely';

/**
 * Attempt counters shared by every server instance (login and recovery throttles): one row per
 * key ('login-account:<id>', 'login-ip:<address>', …), counting within a window that ends at
 * resetAt. Kept in the database so a limit holds across instances and restarts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('resetAt', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('throttles_reset_idx').on('throttles').column('resetAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('throttles').ifExists().execute();
}
