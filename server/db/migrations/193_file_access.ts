import { sql, type Kysely } from 'kysely';

/**
 * A stored file is served only to whom it is for: the photo table's keys are looked up on each
 * request (indexed here), and profile pictures uploaded but not yet saved are listed so they
 * can be served to their owner alone and removed when never saved.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index catalog_images_original_key on catalog_images ("originalKey")`.execute(db);
  await sql`create index catalog_images_display_key on catalog_images ("displayKey")`.execute(db);
  await sql`create index catalog_images_thumb_key on catalog_images ("thumbKey")`.execute(db);
  await db.schema
    .createTable('staged_avatars')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('accountId', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
  await sql`create index staged_avatars_created on staged_avatars ("createdAt")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staged_avatars').execute();
  await sql`drop index catalog_images_thumb_key`.execute(db);
  await sql`drop index catalog_images_display_key`.execute(db);
  await sql`drop index catalog_images_original_key`.execute(db);
}
