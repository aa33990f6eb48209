import type { Kysely } from 'kysely';

/** What the Firebase import last took from each exported document, so a re-run changes nothing. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_records')
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('docId', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('importedAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_records_pk', ['collection', 'docId'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_records').ifExists().execute();
}
