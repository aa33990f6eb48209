import type { Kysely } from 'kysely';

/**
 * The farmers' languages. languages: the ones the department translates into (Filipino from the
 * start). translations: one farmer-facing field of one record in one language, with the English
 * it was made from (its text and sha256): when the English changes, the translation is marked
 * "English changed since" until it is updated or confirmed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('languages')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .addColumn('updatedBy', 'text')
    .execute();
  const now = new Date().toISOString();
  await db
    .insertInto('languages')
    .values({ code: 'fil', name: 'Filipino', enabled: 1, createdAt: now, updatedAt: now, updatedBy: null })
    .execute();

  await db.schema
    .createTable('translations')
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('recordId', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('sourceText', 'text', (c) => c.notNull())
    .addColumn('sourceHash', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .addColumn('updatedBy', 'text')
    .addPrimaryKeyConstraint('translations_pk', ['collection', 'recordId', 'field', 'lang'])
    .execute();
  await db.schema.createIndex('translations_lang').on('translations').columns(['lang', 'collection', 'recordId']).execute();
  // Moved by every write of a collection's translations in a language, in its transaction: a
  // reader may keep that collection's texts in memory while the stamp it read them at is current.
  await db.schema
    .createTable('translation_stamps')
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('stamp', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_stamps_pk', ['collection', 'lang'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('translation_stamps').execute();
  await db.schema.dropTable('translations').execute();
  await db.schema.dropTable('languages').execute();
}
