import type { Kysely } from 'kysely';

/**
 * Secrets the server signs with (the farmer app's install tokens): made once by whichever
 * instance needs one first and kept in the database, so every instance checks the same
 * signatures, and a restored backup keeps the tokens it issued valid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signing_keys').execute();
}
