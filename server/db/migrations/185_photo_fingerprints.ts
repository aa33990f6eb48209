import type { Kysely } from 'kysely';

/**
 * Each photo's fingerprint (server/platform/fingerprint.ts): its 64-bit perceptual hash as 16 hex
 * digits, and the measures its quality flags come from: sharpness (variance of the Laplacian),
 * median brightness, grey-level entropy. Made with the thumbnails; photos stored before this
 * get theirs from `cli.js fingerprint-photos`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_images').addColumn('phash', 'text').execute();
  await db.schema.alterTable('catalog_images').addColumn('sharpness', 'real').execute();
  await db.schema.alterTable('catalog_images').addColumn('brightness', 'real').execute();
  await db.schema.alterTable('catalog_images').addColumn('entropy', 'real').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['entropy', 'brightness', 'sharpness', 'phash']) {
    await db.schema.alterTable('catalog_images').dropColumn(column).execute();
  }
}
