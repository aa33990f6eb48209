import type { Kysely } from 'kysely';

/**
 * The thumbnail queue is shared by every server instance: an instance claims a pending photo
 * (claimedBy, claimedUntil) before making its variants, so no photo is processed twice, and a
 * claim that outlives its lease (the instance died) is taken over by another instance.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_images').addColumn('claimedBy', 'text').execute();
  await db.schema.alterTable('catalog_images').addColumn('claimedUntil', 'text').execute();
  await db.schema.createIndex('catalog_images_pending_idx').on('catalog_images').columns(['status', 'claimedUntil']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('catalog_images_pending_idx').ifExists().execute();
  await db.schema.alterTable('catalog_images').dropColumn('claimedUntil').execute();
  await db.schema.alterTable('catalog_images').dropColumn('claimedBy').execute();
}
