import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export const datasetRepository = {
  /** Live diseases (training classes included), oldest first. */
  diseases(db: Kysely<Database>) {
    return db.selectFrom('rice_local_diseases').select(['id', 'name']).where('isDeleted', '=', 0).orderBy('createdAt').orderBy('id').execute();
  },

  /** The saved photos of live diseases with their fingerprints, in each disease's order. */
  photos(db: Kysely<Database>) {
    return db.selectFrom('catalog_images')
      .innerJoin('rice_local_diseases as d', (j) => j.onRef('d.id', '=', 'catalog_images.entryId').on('d.isDeleted', '=', 0))
      .select(['catalog_images.id', 'catalog_images.entryId', 'catalog_images.sha256', 'catalog_images.phash', 'catalog_images.sharpness',
        'catalog_images.brightness', 'catalog_images.entropy', 'catalog_images.width', 'catalog_images.height', 'catalog_images.thumbKey',
        'catalog_images.linkedAt', 'catalog_images.createdAt'])
      .where('catalog_images.collection', '=', 'rice_local_diseases')
      .orderBy('catalog_images.entryId').orderBy('catalog_images.position')
      .execute();
  },
};
