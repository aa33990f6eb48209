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

  /** The hashes copies are looked for among: photos of live diseases, and staged disease photos. */
  hashes(db: Kysely<Database>) {
    return db.selectFrom('catalog_images')
      .leftJoin('rice_local_diseases as d', 'd.id', 'catalog_images.entryId')
      .select(['catalog_images.id', 'catalog_images.phash'])
      .where('catalog_images.collection', '=', 'rice_local_diseases')
      .where('catalog_images.phash', 'is not', null)
      .where((eb) => eb.or([eb('catalog_images.entryId', 'is', null), eb('d.isDeleted', '=', 0)]))
      .execute();
  },

  /** Disease photos with these bytes (the index on sha256, migration 186). */
  withSha256(db: Kysely<Database>, sha256: string) {
    return db.selectFrom('catalog_images').select('id').where('sha256', '=', sha256).where('collection', '=', 'rice_local_diseases').limit(20).execute();
  },

  /** What a copy is shown with: its disease (none while staged), its uploader, its thumbnail. */
  describe(db: Kysely<Database>, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('catalog_images')
      .leftJoin('rice_local_diseases as d', 'd.id', 'catalog_images.entryId')
      .select(['catalog_images.id', 'catalog_images.entryId', 'catalog_images.uploadedBy', 'catalog_images.thumbKey', 'catalog_images.sha256', 'catalog_images.phash', 'd.name', 'd.isDeleted'])
      .where('catalog_images.id', 'in', [...ids])
      .execute();
  },
};
