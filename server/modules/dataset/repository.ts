import type { Kysely, Transaction } from 'kysely';
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
        'catalog_images.brightness', 'catalog_images.brightnessLow', 'catalog_images.brightnessHigh', 'catalog_images.entropy', 'catalog_images.width', 'catalog_images.height', 'catalog_images.thumbKey',
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
      .where('catalog_images.removedFrom', 'is', null).where('catalog_images.retiredFrom', 'is', null)
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

  /** A photo of a live disease, with its place (the removal's check). */
  photoOf(db: Transaction<Database>, diseaseId: string, imageId: string) {
    return db.selectFrom('catalog_images').select(['id', 'position', 'originalKey']).where('id', '=', imageId).where('entryId', '=', diseaseId)
      .where('collection', '=', 'rice_local_diseases').executeTakeFirst();
  },

  liveDisease(db: Transaction<Database>, id: string) {
    return db.selectFrom('rice_local_diseases').select(['id', 'name', 'version']).where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
  },

  async photoCount(db: Transaction<Database>, diseaseId: string): Promise<number> {
    const row = await db.selectFrom('catalog_images').select((eb) => eb.fn.countAll<number>().as('n')).where('entryId', '=', diseaseId).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Unlinks the photo, remembering its disease and place; returns the rows changed (0: moved meanwhile). */
  async unlink(db: Transaction<Database>, imageId: string, diseaseId: string, position: number, by: { at: string; actorId: string }): Promise<number> {
    const result = await db.updateTable('catalog_images')
      .set({ entryId: null, removedFrom: diseaseId, removedPosition: position, removedAt: by.at, removedBy: by.actorId })
      .where('id', '=', imageId).where('entryId', '=', diseaseId).executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Links a removed photo back to its disease, after its photos; returns the rows changed. */
  async relink(db: Transaction<Database>, imageId: string, diseaseId: string): Promise<number> {
    const last = await db.selectFrom('catalog_images').select((eb) => eb.fn.max('position').as('p')).where('entryId', '=', diseaseId).executeTakeFirst();
    const result = await db.updateTable('catalog_images')
      .set({ entryId: diseaseId, position: Number(last?.p ?? -1) + 1, removedFrom: null, removedPosition: null, removedAt: null, removedBy: null })
      .where('id', '=', imageId).where('removedFrom', '=', diseaseId).executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** The photo a disease now shows first (its stored main image follows it). */
  firstPhoto(db: Transaction<Database>, diseaseId: string) {
    return db.selectFrom('catalog_images').select(['originalKey', 'externalUrl']).where('entryId', '=', diseaseId).orderBy('position').limit(1).executeTakeFirst();
  },

  /** The disease's photos changed: its main image follows the first photo, and its version moves on (an open edit form then sees a newer one). */
  async touchDisease(db: Transaction<Database>, diseaseId: string, values: { mainImageUrl: string | null; updatedAt: string }): Promise<void> {
    await db.updateTable('rice_local_diseases').set((eb) => ({ ...values, version: eb('version', '+', 1) })).where('id', '=', diseaseId).execute();
  },

  removedOne(db: Transaction<Database>, imageId: string) {
    return db.selectFrom('catalog_images').select(['id', 'removedFrom']).where('id', '=', imageId).where('removedFrom', 'is not', null).executeTakeFirst();
  },

  /** Photos taken out of their diseases, newest first, with the disease and who took them out. */
  removed(db: Kysely<Database>, limit: number) {
    return db.selectFrom('catalog_images')
      .leftJoin('rice_local_diseases as d', 'd.id', 'catalog_images.removedFrom')
      .leftJoin('accounts as a', 'a.id', 'catalog_images.removedBy')
      .select(['catalog_images.id', 'catalog_images.removedFrom', 'catalog_images.removedAt', 'catalog_images.thumbKey', 'd.name', 'a.fullname'])
      .where('catalog_images.removedFrom', 'is not', null)
      .orderBy('catalog_images.removedAt', 'desc').limit(limit).execute();
  },
};
