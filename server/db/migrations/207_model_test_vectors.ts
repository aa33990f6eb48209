import type { Kysely } from 'kysely';

/**
 * scanner_models gains `testVectors`: JSON [{ jpegBase64, top: [[index, score], …] }], a few
 * photos at the model's input size with the scores the console's scorer gave them, made when an
 * evaluation under the model's current pixel contract finishes; null until then, and again when
 * the contract changes. The farmer app checks after a download that it gets the same scores.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').addColumn('testVectors', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scanner_models').dropColumn('testVectors').execute();
}
