import type { Kysely } from 'kysely';

/**
 * scanner_models gains `inputQuantization`: for a model that takes its pixels as uint8 numbers,
 * JSON { scale, zeroPoint } from its input tensor (what a pixel number means to the model), which
 * the farmer app's payload carries; null for float32 pixels or a file that gives none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').addColumn('inputQuantization', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').dropColumn('inputQuantization').execute();
}
