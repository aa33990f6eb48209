import type { Kysely } from 'kysely';

/**
 * GIFs stored before photo-privacy.ts cleaned GIFs may hold XMP, comments and appended bytes while
 * marked cleaned. Marked not cleaned, `cli.js migrate-photos --strip-location` cleans them, and
 * the training-set ZIP cleans them on the way out until then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('catalog_images')
    .set({ locationCleaned: 0 })
    .where('locationCleaned', '=', 1)
    .where('originalKey', 'is not', null)
    .where((eb) => eb.or([eb('mimeType', '=', 'image/gif'), eb(eb.fn('lower', ['originalKey']), 'like', '%.gif')]))
    .execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: a photo marked not cleaned is cleaned again, which changes nothing in a clean one.
}
