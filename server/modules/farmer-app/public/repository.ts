import { CATALOG_KIND_LIST } from '../../../../common/catalog.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { CatalogCollection } from '../../../db/types/content.js';
import { photoReads } from '../../content/photos/index.js';

type Collection = 'rice_seed_varieties' | CatalogCollection;

/** Read-only queries of the public content API. */
export const publicRepository = {
  /** Live rows, all of them or those created or updated after `since`. */
  changedVarieties(db: Kysely<Database>, since: string | undefined, recommended: boolean | undefined) {
    let q = db.selectFrom('rice_seed_varieties').selectAll().where('isDeleted', '=', 0);
    if (since) q = q.where((eb) => eb.or([eb('createdAt', '>', since), eb('updatedAt', '>', since)]));
    if (recommended !== undefined) q = q.where('recommendedInTarlac', '=', recommended ? 1 : 0);
    return q.orderBy('varietyName').execute();
  },

  /** Live entries changed after `since`, including those whose photos were linked since. */
  changedCatalog(db: Kysely<Database>, collection: CatalogCollection, since: string | undefined) {
    const t = collection as 'rice_local_pests';
    // Training classes (healthy leaves, not a rice plant…) are scanner data, never farmer content.
    let q = db.selectFrom(t).selectAll().where('isDeleted', '=', 0).where('isTrainingClass', '=', 0);
    if (since) {
      q = q.where((eb) => eb.or([
        eb('createdAt', '>', since),
        eb('updatedAt', '>', since),
        eb.exists(photoReads.linkedSince(db, eb.ref(`${t}.id`), since)),
      ]));
    }
    return q.orderBy('name').execute();
  },

  async deletedSince(db: Kysely<Database>, collection: Collection, since: string): Promise<string[]> {
    if (collection === 'rice_seed_varieties') {
      const rows = await db.selectFrom('rice_seed_varieties').select('id').where('isDeleted', '=', 1).where('deletedAt', '>', since).execute();
      return rows.map((r) => r.id);
    }
    // An entry that became a training class leaves the phone as a deleted one does.
    const rows = await db.selectFrom(collection as 'rice_local_pests').select('id')
      .where((eb) => eb.or([
        eb.and([eb('isDeleted', '=', 1), eb('deletedAt', '>', since)]),
        eb.and([eb('isTrainingClass', '=', 1), eb('updatedAt', '>', since)]),
      ])).execute();
    return rows.map((r) => r.id);
  },

  /** A display or thumbnail variant of an image that belongs to a live entry, or nothing. */
  async publicVariant(db: Kysely<Database>, imageId: string, variant: 'display' | 'thumbnail'): Promise<string | null> {
    const row = await photoReads.variantsOf(db, imageId);
    if (!row || !row.entryId || row.status !== 'ready') return null;
    if (!CATALOG_KIND_LIST.some((kind) => kind.collection === row.collection)) return null;
    const entry = await db.selectFrom(row.collection as 'rice_local_pests').select(['isDeleted', 'isTrainingClass']).where('id', '=', row.entryId).executeTakeFirst();
    if (!entry || entry.isDeleted || entry.isTrainingClass) return null;
    return variant === 'display' ? row.displayKey : row.thumbKey;
  },
};
