import type { Kysely } from 'kysely';

/**
 * GIFs were stored as uploaded or imported, their XMP, comments and appended bytes included, yet
 * marked cleaned. Marked not cleaned again, `cli.js migrate-photos --strip-location` cleans them
 * (photo-privacy.ts cleans GIFs now) and the training-set ZIP cleans them on the way out until then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('catalog_images').set({ locationCleaned: 0 })
    .where('locationCleaned', '=', 1)
    .where('originalKey', 'is not', null)
    .where((eb) => eb.or([eb('mimeType', '=', 'image/gif'), eb(eb.fn('lower', ['originalKey']), 'like', '%.gif')]))
    .execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: a photo marked not cleaned is cleaned again, which changes nothing in a clean one.
}
