import type { Kysely } from 'kysely';

/**
 * scanner_models gains `contractSearch`: JSON ContractSearch, Check file's trial of the ways to
 * prepare a photo on held-out photos (the sample's size, each contract's accuracy, best first),
 * kept with the model at upload beside the contract chosen; null for a plant check or when there
 * were too few photos to try on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').addColumn('contractSearch', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').dropColumn('contractSearch').execute();
}
