import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';

export const trainingRepository = {
  /** Live diseases and training classes (one, or all) in name order, then by id. */
  diseases(db: Kysely<Database>, id?: string) {
    let q = db
      .selectFrom('rice_local_diseases')
      .select(['id', 'name', 'localName', 'scientificName', 'isTrainingClass', 'notRicePlant', 'createdAt'])
      .where('isDeleted', '=', 0);
    if (id) q = q.where('id', '=', id);
    return q.orderBy('createdAt').orderBy('id').execute();
  },
};
