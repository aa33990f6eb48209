import type { Kysely } from 'kysely';

/**
 * Stored photos without location: each photo keeps only its camera's make and model and when
 * it was taken (takenAt: EXIF DateTimeOriginal, with its offset when the camera gave one);
 * locationCleaned is 1 once the stored original holds no location or identifying metadata
 * (set on upload and import; existing photos by `cli.js migrate-photos --strip-location`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_images').addColumn('takenAt', 'text').execute();
  await db.schema.alterTable('catalog_images').addColumn('cameraMake', 'text').execute();
  await db.schema.alterTable('catalog_images').addColumn('cameraModel', 'text').execute();
  await db.schema
    .alterTable('catalog_images')
    .addColumn('locationCleaned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['locationCleaned', 'cameraModel', 'cameraMake', 'takenAt']) {
    await db.schema.alterTable('catalog_images').dropColumn(column).execute();
  }
}
