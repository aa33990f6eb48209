import type { Kysely } from 'kysely';

/**
 * scanner_models gains `outputQuantization`: for a model whose class scores are 8-bit integers,
 * JSON { type: 'uint8' | 'int8', scale, zeroPoint } read from its output tensor (a score is
 * scale × (q − zeroPoint)); null for float32 scores.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').addColumn('outputQuantization', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').dropColumn('outputQuantization').execute();
}
