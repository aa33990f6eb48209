import { sql, type Kysely } from 'kysely';

/**
 * An unsaved pest or disease (the add form) kept on the server as its account's draft: the
 * fields, and every chosen photo in order with its staged photo once uploaded and the file's
 * name, size and date (to match the files again when the form is continued). Staged photos a
 * draft holds are not cleaned up while the draft lasts (DRAFT_RETENTION_DAYS).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_drafts')
    .addColumn('accountId', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_drafts_pk', ['accountId', 'collection'])
    .execute();
  await db.schema
    .createTable('catalog_draft_photos')
    .addColumn('accountId', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('imageId', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'double precision', (c) => c.notNull())
    .addColumn('lastModified', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_draft_photos_pk', ['accountId', 'collection', 'position'])
    .execute();
  await sql`create index catalog_draft_photos_image on catalog_draft_photos ("imageId")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_draft_photos').execute();
  await db.schema.dropTable('catalog_drafts').execute();
}
