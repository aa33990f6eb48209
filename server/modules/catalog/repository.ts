import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/types.js';
import type { CatalogCollection, CatalogImagesTable, CatalogTable } from '../../db/types/content.js';
import { chunks, containsInsensitive } from '../../db/dialect.js';
import type { Fingerprint } from '../photos/pixels/fingerprint.js';

type Db = Kysely<Database> | Transaction<Database>;
export type CatalogRow = Selectable<CatalogTable>;
export type CatalogImageRow = Selectable<CatalogImagesTable>;

/** Both catalog tables have the same shape; queries are written once against either. */
function table(collection: CatalogCollection): 'rice_local_pests' {
  return collection as 'rice_local_pests';
}

export interface ListRow extends CatalogRow {
  mainThumbKey: string | null;
  mainStatus: string | null;
  mainExternalUrl: string | null;
  imageCount: number | string | bigint;
  pendingImageCount: number | string | bigint;
}

/** Live entries of the list's search: name, scientific name, local name or description contain the term. */
function searched(db: Db, collection: CatalogCollection, search: string | undefined) {
  const t = table(collection);
  const base = db.selectFrom(t).where(`${t}.isDeleted`, '=', 0);
  const term = search?.trim();
  if (!term) return base;
  return base.where((eb) => eb.or([
    containsInsensitive(db, eb.ref(`${t}.name`), term),
    containsInsensitive(db, eb.ref(`${t}.scientificName`), term),
    containsInsensitive(db, eb.ref(`${t}.localName`), term),
    containsInsensitive(db, eb.ref(`${t}.description`), term),
  ]));
}

export const catalogRepository = {
  /** The list as searched, in its order, after the (createdAt, id) where the previous batch ended; with each entry's photo count. */
  async exportBatch(db: Db, collection: CatalogCollection, search: string, after: { createdAt: string; id: string } | null, limit: number): Promise<Array<CatalogRow & { imageCount: number }>> {
    const t = table(collection);
    let q = searched(db, collection, search);
    if (after) q = q.where((eb) => eb.or([eb(`${t}.createdAt`, '<', after.createdAt), eb.and([eb(`${t}.createdAt`, '=', after.createdAt), eb(`${t}.id`, '<', after.id)])]));
    const rows = await q.selectAll(t)
      .select((eb) => eb.selectFrom('catalog_images').select((e) => e.fn.countAll<number>().as('c')).whereRef('catalog_images.entryId', '=', `${t}.id`).as('imageCount'))
      .orderBy(`${t}.createdAt`, 'desc').orderBy(`${t}.id`, 'desc').limit(limit).execute();
    return rows.map((r) => ({ ...r, imageCount: Number(r.imageCount ?? 0) }));
  },

  async list(db: Db, collection: CatalogCollection, options: { search?: string | undefined; offset: number; limit: number }): Promise<{ rows: ListRow[]; total: number }> {
    const t = table(collection);
    const base = searched(db, collection, options.search);
    const totalRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll(t)
      .select((eb) => [
        eb.selectFrom('catalog_images').select('thumbKey').whereRef('catalog_images.entryId', '=', `${t}.id`)
          .orderBy('position').limit(1).as('mainThumbKey'),
        eb.selectFrom('catalog_images').select('status').whereRef('catalog_images.entryId', '=', `${t}.id`)
          .orderBy('position').limit(1).as('mainStatus'),
        eb.selectFrom('catalog_images').select('externalUrl').whereRef('catalog_images.entryId', '=', `${t}.id`)
          .orderBy('position').limit(1).as('mainExternalUrl'),
        eb.selectFrom('catalog_images').select((e) => e.fn.countAll<number>().as('c')).whereRef('catalog_images.entryId', '=', `${t}.id`).as('imageCount'),
        eb.selectFrom('catalog_images').select((e) => e.fn.countAll<number>().as('c')).whereRef('catalog_images.entryId', '=', `${t}.id`)
          .where('catalog_images.status', '=', 'pending').as('pendingImageCount'),
      ])
      .orderBy(`${t}.createdAt`, 'desc')
      .orderBy(`${t}.id`, 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return { rows: rows as unknown as ListRow[], total: Number(totalRow.n) };
  },

  find(db: Db, collection: CatalogCollection, id: string): Promise<CatalogRow | undefined> {
    return db.selectFrom(table(collection)).selectAll().where('id', '=', id).executeTakeFirst();
  },

  findLive(db: Db, collection: CatalogCollection, id: string): Promise<CatalogRow | undefined> {
    return db.selectFrom(table(collection)).selectAll().where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
  },

  findLiveByName(db: Db, collection: CatalogCollection, name: string): Promise<CatalogRow | undefined> {
    return db.selectFrom(table(collection)).selectAll().where('name', '=', name).where('isDeleted', '=', 0).executeTakeFirst();
  },

  async insert(db: Db, collection: CatalogCollection, row: Insertable<CatalogTable>): Promise<void> {
    await db.insertInto(table(collection)).values(row).execute();
  },

  /** Optimistic update: only when the stored version is still the one the user edited. */
  async updateVersioned(db: Db, collection: CatalogCollection, id: string, version: number, values: Updateable<CatalogTable>): Promise<bigint> {
    const result = await db.updateTable(table(collection))
      .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
      .where('id', '=', id).where('version', '=', version).where('isDeleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows;
  },

  async softDelete(db: Db, collection: CatalogCollection, id: string, by: string, now: string): Promise<bigint> {
    const result = await db.updateTable(table(collection))
      .set((eb) => ({ isDeleted: 1, deletedAt: now, deletedBy: by, updatedAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', id).where('isDeleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows;
  },

  imagesOf(db: Db, entryId: string): Promise<CatalogImageRow[]> {
    return db.selectFrom('catalog_images').selectAll().where('entryId', '=', entryId).orderBy('position').orderBy('createdAt').execute();
  },

  findImage(db: Db, id: string): Promise<CatalogImageRow | undefined> {
    return db.selectFrom('catalog_images').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** How many stored photos still may hold location metadata. */
  async countUncleaned(db: Db): Promise<number> {
    const row = await db.selectFrom('catalog_images').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locationCleaned', '=', 0).where('originalKey', 'is not', null).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next stored photos that may hold location metadata, in id order after `afterId`. */
  uncleaned(db: Db, afterId: string, limit: number) {
    return db.selectFrom('catalog_images').select(['id', 'originalKey'])
      .where('locationCleaned', '=', 0).where('originalKey', 'is not', null).where('id', '>', afterId)
      .orderBy('id').limit(limit).execute();
  },

  /** Records a photo's cleaned original: its new hash and size, the facts it kept. */
  async markCleaned(db: Db, id: string, fields: { sha256: string; sizeBytes: number; takenAt: string | null; cameraMake: string | null; cameraModel: string | null }): Promise<void> {
    await db.updateTable('catalog_images').set({ ...fields, locationCleaned: 1 }).where('id', '=', id).execute();
  },

  async countUnfingerprinted(db: Db): Promise<number> {
    const row = await db.selectFrom('catalog_images').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('phash', 'is', null).where('originalKey', 'is not', null).where('status', '!=', 'failed').executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next stored photos without a fingerprint, in id order after `afterId`. */
  unfingerprinted(db: Db, afterId: string, limit: number) {
    return db.selectFrom('catalog_images').select(['id', 'originalKey'])
      .where('phash', 'is', null).where('originalKey', 'is not', null).where('status', '!=', 'failed').where('id', '>', afterId)
      .orderBy('id').limit(limit).execute();
  },

  async setFingerprint(db: Db, id: string, values: Fingerprint): Promise<void> {
    await db.updateTable('catalog_images').set(values).where('id', '=', id).execute();
  },

  async insertImage(db: Db, row: Insertable<CatalogImagesTable>): Promise<void> {
    await db.insertInto('catalog_images').values(row).execute();
  },

  /** Staged (never linked) photos of this collection uploaded by this account, among `ids`. */
  async stagedOwned(db: Db, collection: CatalogCollection, uploadedBy: string, ids: string[]): Promise<CatalogImageRow[]> {
    const rows: CatalogImageRow[] = [];
    for (const part of chunks(ids)) {
      rows.push(...await db.selectFrom('catalog_images').selectAll()
        .where('id', 'in', part).where('collection', '=', collection).where('uploadedBy', '=', uploadedBy).where('entryId', 'is', null).where('removedFrom', 'is', null).where('retiredFrom', 'is', null)
        .execute());
    }
    return rows;
  },

  /** Links one photo to its entry, at its place in the list (fails if it was linked meanwhile). */
  async linkImage(db: Db, id: string, values: { entryId: string; position: number; originalKey: string | null; linkedAt: string }): Promise<bigint> {
    const result = await db.updateTable('catalog_images').set(values).where('id', '=', id).where('entryId', 'is', null).executeTakeFirst();
    return result.numUpdatedRows;
  },

  /** New places of photos, a few hundred per statement (an edit of a 2000-photo disease moves most). */
  async setPositions(db: Db, moves: Array<{ id: string; position: number }>): Promise<void> {
    for (const part of chunks(moves)) {
      const cases = sql.join(part.map((m) => sql`when ${m.id} then cast(${m.position} as integer)`), sql` `);
      await db.updateTable('catalog_images').set({ position: sql<number>`case "id" ${cases} end` }).where('id', 'in', part.map((m) => m.id)).execute();
    }
  },

  /** Photos an edit takes out: unlinked, their files kept for the versions that hold them. */
  async retireImages(db: Db, entryId: string, ids: string[]): Promise<void> {
    for (const part of chunks(ids)) await db.updateTable('catalog_images').set({ entryId: null, retiredFrom: entryId }).where('id', 'in', part).where('entryId', '=', entryId).execute();
  },

  /** Photos that were this entry's and are not now (retired by an edit, removed in Dataset health), among `ids`. */
  async formerImages(db: Db, entryId: string, ids: string[]): Promise<CatalogImageRow[]> {
    const rows: CatalogImageRow[] = [];
    for (const part of chunks(ids)) {
      rows.push(...await db.selectFrom('catalog_images').selectAll().where('id', 'in', part)
        .where((eb) => eb.or([eb('retiredFrom', '=', entryId), eb('removedFrom', '=', entryId)])).execute());
    }
    return rows;
  },

  /** Photos that were the entry's linked to it again (their places set by setPositions). */
  async relinkImages(db: Db, entryId: string, ids: string[]): Promise<void> {
    for (const part of chunks(ids)) {
      await db.updateTable('catalog_images').set({ entryId, retiredFrom: null, removedFrom: null, removedPosition: null, removedAt: null, removedBy: null })
        .where('id', 'in', part).execute();
    }
  },

  async deleteImages(db: Db, ids: string[]): Promise<void> {
    for (const part of chunks(ids)) await db.deleteFrom('catalog_images').where('id', 'in', part).execute();
  },

  async markReady(db: Db, id: string, values: { displayKey: string; thumbKey: string; width: number; height: number } & Fingerprint): Promise<CatalogImageRow | undefined> {
    await db.updateTable('catalog_images').set({ ...values, status: 'ready' }).where('id', '=', id).where('status', '=', 'pending').execute();
    return db.selectFrom('catalog_images').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async markFailed(db: Db, id: string): Promise<void> {
    await db.updateTable('catalog_images').set({ status: 'failed' }).where('id', '=', id).where('status', '=', 'pending').execute();
  },

  /** Pending photos no instance holds a live claim on, oldest first. */
  pendingIds(db: Db, now: string, limit = 1000): Promise<Array<{ id: string }>> {
    return db.selectFrom('catalog_images').select('id').where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', now)]))
      .orderBy('createdAt').limit(limit).execute();
  },

  /** Takes a pending photo for one instance until `until`; false when another holds it or it is done. */
  async claim(db: Db, id: string, instance: string, now: string, until: string): Promise<boolean> {
    const result = await db.updateTable('catalog_images').set({ claimedBy: instance, claimedUntil: until })
      .where('id', '=', id).where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', now), eb('claimedBy', '=', instance)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async release(db: Db, id: string, instance: string): Promise<void> {
    await db.updateTable('catalog_images').set({ claimedBy: null, claimedUntil: null }).where('id', '=', id).where('claimedBy', '=', instance).execute();
  },

  /** Staged photos older than the cut-off (never saved with an entry), but for those a draft holds. */
  staleStaged(db: Db, before: string, limit: number): Promise<CatalogImageRow[]> {
    return db.selectFrom('catalog_images').selectAll().where('entryId', 'is', null).where('removedFrom', 'is', null).where('retiredFrom', 'is', null).where('createdAt', '<', before)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('catalog_draft_photos as d').select('d.imageId').whereRef('d.imageId', '=', 'catalog_images.id'))))
      .orderBy('createdAt').limit(limit).execute();
  },

  async countPending(db: Db, entryId: string): Promise<number> {
    const row = await db.selectFrom('catalog_images').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('entryId', '=', entryId).where('status', '=', 'pending').executeTakeFirstOrThrow();
    return Number(row.n);
  },
};
