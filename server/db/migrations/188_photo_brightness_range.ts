import type { Kysely } from 'kysely';

/** A photo's brightness as a range: the 5th and 95th percentiles of its grey levels beside the median. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_images').addColumn('brightnessLow', 'real').execute();
  await db.schema.alterTable('catalog_images').addColumn('brightnessHigh', 'real').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_images').dropColumn('brightnessHigh').execute();
  await db.schema.alterTable('catalog_images').dropColumn('brightnessLow').execute();
}
