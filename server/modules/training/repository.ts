import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export const trainingRepository = {
  /** Live diseases (one, or all) in name order. */
  diseases(db: Kysely<Database>, id?: string) {
    let q = db.selectFrom('rice_local_diseases').select(['id', 'name', 'scientificName']).where('isDeleted', '=', 0);
    if (id) q = q.where('id', '=', id);
    return q.orderBy('name').orderBy('id').execute();
  },

  /** The stored originals of those diseases' saved photos, in their order. */
  originals(db: Kysely<Database>, diseaseIds: string[]) {
    if (diseaseIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('catalog_images')
      .select(['id', 'entryId', 'position', 'originalKey', 'originalName', 'sizeBytes', 'createdAt', 'linkedAt'])
      .where('collection', '=', 'rice_local_diseases')
      .where('entryId', 'in', diseaseIds)
      .where('originalKey', 'is not', null)
      .orderBy('entryId').orderBy('position')
      .execute();
  },
};
