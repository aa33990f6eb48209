import { sql, type Kysely } from 'kysely';

/**
 * Every saved state of a variety, pest, disease and option list: a full snapshot (JSON text),
 * numbered per record, with its author, time and the audit entry that made it. A photo an edit
 * takes out of its entry is unlinked and remembers the entry (retiredFrom) instead of being
 * deleted, so a version that holds it can bring it back; the daily pruning deletes it once no
 * kept version refers to it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('record_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('documentId', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('recordVersion', 'integer', (c) => c.notNull())
    .addColumn('auditId', 'text')
    .addColumn('actorId', 'text')
    .addColumn('actorName', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index record_versions_record on record_versions (collection, "documentId", number)`.execute(db);
  await sql`create index record_versions_audit on record_versions ("auditId")`.execute(db);
  await db.schema.alterTable('catalog_images').addColumn('retiredFrom', 'text').execute();
  await sql`create index catalog_images_retired on catalog_images ("retiredFrom")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index catalog_images_retired`.execute(db);
  await db.schema.alterTable('catalog_images').dropColumn('retiredFrom').execute();
  await db.schema.dropTable('record_versions').execute();
}
