import type { Kysely } from 'kysely';

/**
 * A disease photo taken out of its disease from Dataset health (a copy, a conflict, a poor
 * photo) is unlinked, not deleted: it remembers the disease and place it had, when and by whom,
 * so it can be put back. Staged-photo clean-up and the uploader's own staged photos leave it be.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_images').addColumn('removedFrom', 'text').execute();
  await db.schema.alterTable('catalog_images').addColumn('removedPosition', 'integer').execute();
  await db.schema.alterTable('catalog_images').addColumn('removedAt', 'text').execute();
  await db.schema.alterTable('catalog_images').addColumn('removedBy', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['removedBy', 'removedAt', 'removedPosition', 'removedFrom']) {
    await db.schema.alterTable('catalog_images').dropColumn(column).execute();
  }
}
