import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/types.js';

const DISEASES = 'rice_local_diseases';

/** The disease photos the training set and Dataset health read. */
export const trainingPhotoReads = {
  /** The stored originals of those diseases' saved photos. */
  originals(db: Kysely<Database>, diseaseIds: string[]) {
    if (diseaseIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('catalog_images')
      .select([
        'id',
        'entryId',
        'position',
        'originalKey',
        'sha256',
        'width',
        'height',
        'createdAt',
        'linkedAt',
        'takenAt',
        'cameraMake',
        'cameraModel',
        'locationCleaned',
        'phash',
        'sharpness',
        'brightness',
        'entropy',
      ])
      .where('collection', '=', DISEASES)
      .where('entryId', 'in', diseaseIds)
      .where('originalKey', 'is not', null)
      .orderBy('entryId')
      .orderBy('position')
      .execute();
  },

  /**
   * Staged photos that open pending changes (review before publishing) add to those diseases,
   * as the change's record's: the training set's "pending" option.
   */
  pendingOriginals(db: Kysely<Database>, diseaseIds: string[]) {
    if (diseaseIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('review_photo_holds as h')
      .innerJoin('pending_changes as c', 'c.id', 'h.changeId')
      .innerJoin('catalog_images', 'catalog_images.id', 'h.imageId')
      .select([
        'catalog_images.id',
        'c.recordId as entryId',
        'catalog_images.position',
        'catalog_images.originalKey',
        'catalog_images.sha256',
        'catalog_images.width',
        'catalog_images.height',
        'catalog_images.createdAt',
        'catalog_images.linkedAt',
        'catalog_images.takenAt',
        'catalog_images.cameraMake',
        'catalog_images.cameraModel',
        'catalog_images.locationCleaned',
        'catalog_images.phash',
        'catalog_images.sharpness',
        'catalog_images.brightness',
        'catalog_images.entropy',
      ])
      .where('c.collection', '=', DISEASES)
      .where('c.state', 'in', ['pending', 'approved'])
      .where('c.recordId', 'in', diseaseIds)
      .where('catalog_images.entryId', 'is', null)
      .where('catalog_images.originalKey', 'is not', null)
      .orderBy('c.recordId')
      .orderBy('catalog_images.createdAt')
      .orderBy('catalog_images.id')
      .execute();
  },

  /** The saved photos of live diseases with their fingerprints, in each disease's order. */
  ofLiveDiseases(db: Kysely<Database>) {
    return db
      .selectFrom('catalog_images')
      .innerJoin('rice_local_diseases as d', (j) => j.onRef('d.id', '=', 'catalog_images.entryId').on('d.isDeleted', '=', 0))
      .select([
        'catalog_images.id',
        'catalog_images.entryId',
        'catalog_images.sha256',
        'catalog_images.phash',
        'catalog_images.sharpness',
        'catalog_images.brightness',
        'catalog_images.brightnessLow',
        'catalog_images.brightnessHigh',
        'catalog_images.entropy',
        'catalog_images.width',
        'catalog_images.height',
        'catalog_images.thumbKey',
        'catalog_images.linkedAt',
        'catalog_images.createdAt',
      ])
      .where('catalog_images.collection', '=', DISEASES)
      .orderBy('catalog_images.entryId')
      .orderBy('catalog_images.position')
      .execute();
  },

  /** Staged photos that disease edits waiting for review (or approved, not yet published) add, as their disease's (Dataset health's "pending" option). */
  pendingOfLiveDiseases(db: Kysely<Database>) {
    return db
      .selectFrom('review_photo_holds as h')
      .innerJoin('pending_changes as c', 'c.id', 'h.changeId')
      .innerJoin('catalog_images', 'catalog_images.id', 'h.imageId')
      .innerJoin('rice_local_diseases as d', (j) => j.onRef('d.id', '=', 'c.recordId').on('d.isDeleted', '=', 0))
      .select([
        'catalog_images.id',
        'c.recordId as entryId',
        'catalog_images.sha256',
        'catalog_images.phash',
        'catalog_images.sharpness',
        'catalog_images.brightness',
        'catalog_images.brightnessLow',
        'catalog_images.brightnessHigh',
        'catalog_images.entropy',
        'catalog_images.width',
        'catalog_images.height',
        'catalog_images.thumbKey',
        'catalog_images.linkedAt',
        'catalog_images.createdAt',
      ])
      .where('c.collection', '=', DISEASES)
      .where('c.state', 'in', ['pending', 'approved'])
      .where('catalog_images.entryId', 'is', null)
      .orderBy('c.recordId')
      .orderBy('catalog_images.createdAt')
      .orderBy('catalog_images.id')
      .execute();
  },

  /** The hashes copies are looked for among: photos of live diseases, and staged disease photos. */
  hashes(db: Kysely<Database>) {
    return db
      .selectFrom('catalog_images')
      .leftJoin('rice_local_diseases as d', 'd.id', 'catalog_images.entryId')
      .select(['catalog_images.id', 'catalog_images.phash'])
      .where('catalog_images.collection', '=', DISEASES)
      .where('catalog_images.phash', 'is not', null)
      .where((eb) => eb.or([eb('catalog_images.entryId', 'is', null), eb('d.isDeleted', '=', 0)]))
      .where('catalog_images.removedFrom', 'is', null)
      .where('catalog_images.retiredFrom', 'is', null)
      .execute();
  },

  /** Disease photos with these bytes (the index on sha256, migration 186). */
  withSha256(db: Kysely<Database>, sha256: string) {
    return db.selectFrom('catalog_images').select('id').where('sha256', '=', sha256).where('collection', '=', DISEASES).limit(20).execute();
  },

  /** What a copy is shown with: its disease (none while staged), its uploader, its thumbnail. */
  describe(db: Kysely<Database>, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('catalog_images')
      .leftJoin('rice_local_diseases as d', 'd.id', 'catalog_images.entryId')
      .select([
        'catalog_images.id',
        'catalog_images.entryId',
        'catalog_images.uploadedBy',
        'catalog_images.thumbKey',
        'catalog_images.sha256',
        'catalog_images.phash',
        'd.name',
        'd.isDeleted',
      ])
      .where('catalog_images.id', 'in', [...ids])
      .execute();
  },

  /** Photos taken out of their diseases, newest first, with the disease and who took them out. */
  removed(db: Kysely<Database>, limit: number) {
    return db
      .selectFrom('catalog_images')
      .leftJoin('rice_local_diseases as d', 'd.id', 'catalog_images.removedFrom')
      .leftJoin('accounts as a', 'a.id', 'catalog_images.removedBy')
      .select([
        'catalog_images.id',
        'catalog_images.removedFrom',
        'catalog_images.removedAt',
        'catalog_images.thumbKey',
        'd.name',
        'a.fullname',
      ])
      .where('catalog_images.removedFrom', 'is not', null)
      .orderBy('catalog_images.removedAt', 'desc')
      .limit(limit)
      .execute();
  },
};
