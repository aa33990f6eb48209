import { sql, type Kysely } from 'kysely';

/**
 * cache_stamps: one row per name, moved by every write of what the name covers, in the write's
 * transaction (server/platform/cache/stamps.ts). It takes the place of translation_stamps, whose
 * rows become the names `translations/<collection>/<lang>`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cache_stamps')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('stamp', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into cache_stamps (name, stamp) select 'translations/' || collection || '/' || lang, stamp from translation_stamps`.execute(
    db,
  );
  await db.schema.dropTable('translation_stamps').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('translation_stamps')
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('stamp', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_stamps_pk', ['collection', 'lang'])
    .execute();
  await db.schema.dropTable('cache_stamps').execute();
}
