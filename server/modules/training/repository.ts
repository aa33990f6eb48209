import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export const trainingRepository = {
  /** Live diseases and training classes (one, or all) in name order, then by id. */
  diseases(db: Kysely<Database>, id?: string) {
    let q = db.selectFrom('rice_local_diseases')
      .select(['id', 'name', 'localName', 'scientificName', 'isTrainingClass', 'createdAt'])
      .where('isDeleted', '=', 0);
    if (id) q = q.where('id', '=', id);
    return q.orderBy('createdAt').orderBy('id').execute();
  },

  /** The stored originals of those diseases' saved photos. */
  originals(db: Kysely<Database>, diseaseIds: string[]) {
    if (diseaseIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('catalog_images')
      .select(['id', 'entryId', 'position', 'originalKey', 'sha256', 'width', 'height', 'createdAt', 'linkedAt', 'takenAt', 'cameraMake', 'cameraModel', 'locationCleaned',
        'phash', 'sharpness', 'brightness', 'entropy'])
      .where('collection', '=', 'rice_local_diseases')
      .where('entryId', 'in', diseaseIds)
      .where('originalKey', 'is not', null)
      .orderBy('entryId').orderBy('position')
      .execute();
  },
};
