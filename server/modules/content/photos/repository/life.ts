import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../../../db/types.js';
import type { CatalogImagesTable } from '../../../../db/types/content.js';
import { chunks } from '../../../../db/dialect.js';
import { moveStamps, PHOTOS_STAMP } from '../../../../platform/cache/stamps.js';

type Db = Kysely<Database> | Transaction<Database>;
export type PhotoRow = Selectable<CatalogImagesTable>;

/** Every write of photo rows moves their stamp after it, in its transaction (the kept copies index and photo set follow). */
export const photosWritten = (db: Db): Promise<void> => moveStamps(db, [PHOTOS_STAMP]);

/** The photo table's rows as they move between the states of ../states.ts. */
export const photosRepository = {
  async insert(db: Db, row: Insertable<CatalogImagesTable>): Promise<void> {
    await db.insertInto('catalog_images').values(row).execute();
    await photosWritten(db);
  },

  find(db: Db, id: string): Promise<PhotoRow | undefined> {
    return db.selectFrom('catalog_images').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** An entry's linked photos in its order. */
  ofEntry(db: Db, entryId: string): Promise<PhotoRow[]> {
    return db
      .selectFrom('catalog_images')
      .selectAll()
      .where('entryId', '=', entryId)
      .orderBy('position')
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  async countOfEntry(db: Db, entryId: string, status?: 'pending'): Promise<number> {
    let q = db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('entryId', '=', entryId);
    if (status) q = q.where('status', '=', status);
    return Number((await q.executeTakeFirstOrThrow()).n);
  },

  /** The photo an entry shows first. */
  firstOfEntry(db: Db, entryId: string) {
    return db
      .selectFrom('catalog_images')
      .select(['originalKey', 'externalUrl'])
      .where('entryId', '=', entryId)
      .orderBy('position')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  },

  /** Staged (never linked) photos of this collection uploaded by this account, among `ids`. */
  /** Staged photos of the uploader that no pending change holds (a change waiting for review keeps its photos). */
  async discardable(db: Db, collection: string, uploadedBy: string, ids: readonly string[]): Promise<PhotoRow[]> {
    const held = new Set<string>();
    for (const part of chunks(ids)) {
      for (const r of await db.selectFrom('review_photo_holds').select('imageId').where('imageId', 'in', part).execute())
        held.add(r.imageId);
    }
    return (await photosRepository.stagedOwned(db, collection, uploadedBy, ids)).filter((r) => !held.has(r.id));
  },

  async stagedOwned(db: Db, collection: string, uploadedBy: string, ids: readonly string[]): Promise<PhotoRow[]> {
    const rows: PhotoRow[] = [];
    for (const part of chunks(ids)) {
      rows.push(
        ...(await db
          .selectFrom('catalog_images')
          .selectAll()
          .where('id', 'in', part)
          .where('collection', '=', collection)
          .where('uploadedBy', '=', uploadedBy)
          .where('entryId', 'is', null)
          .where('removedFrom', 'is', null)
          .where('retiredFrom', 'is', null)
          .execute()),
      );
    }
    return rows;
  },

  /** Links one photo to its entry, at its place in the list (fails if it was linked meanwhile). */
  async link(
    db: Db,
    id: string,
    values: { entryId: string; position: number; originalKey: string | null; linkedAt: string },
  ): Promise<bigint> {
    const result = await db.updateTable('catalog_images').set(values).where('id', '=', id).where('entryId', 'is', null).executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) await photosWritten(db);
    return result.numUpdatedRows;
  },

  /** New places of photos, a few hundred per statement (an edit of a 2000-photo disease moves most). */
  async setPositions(db: Db, moves: ReadonlyArray<{ id: string; position: number }>): Promise<void> {
    for (const part of chunks(moves)) {
      const cases = sql.join(
        part.map((m) => sql`when ${m.id} then cast(${m.position} as integer)`),
        sql` `,
      );
      await db
        .updateTable('catalog_images')
        .set({ position: sql<number>`case "id" ${cases} end` })
        .where(
          'id',
          'in',
          part.map((m) => m.id),
        )
        .execute();
    }
    if (moves.length > 0) await photosWritten(db);
  },

  /** Photos an edit takes out: unlinked, their files kept for the versions that hold them. */
  async retire(db: Db, entryId: string, ids: readonly string[]): Promise<void> {
    for (const part of chunks(ids))
      await db
        .updateTable('catalog_images')
        .set({ entryId: null, retiredFrom: entryId })
        .where('id', 'in', part)
        .where('entryId', '=', entryId)
        .execute();
    if (ids.length > 0) await photosWritten(db);
  },

  /** Photos that were this entry's and are not now (retired by an edit, removed in Dataset health), among `ids`. */
  async former(db: Db, entryId: string, ids: readonly string[]): Promise<PhotoRow[]> {
    const rows: PhotoRow[] = [];
    for (const part of chunks(ids)) {
      rows.push(
        ...(await db
          .selectFrom('catalog_images')
          .selectAll()
          .where('id', 'in', part)
          .where((eb) => eb.or([eb('retiredFrom', '=', entryId), eb('removedFrom', '=', entryId)]))
          .execute()),
      );
    }
    return rows;
  },

  /** Photos that were the entry's linked to it again (their places set by setPositions). */
  async relink(db: Db, entryId: string, ids: readonly string[]): Promise<void> {
    for (const part of chunks(ids)) {
      await db
        .updateTable('catalog_images')
        .set({ entryId, retiredFrom: null, removedFrom: null, removedPosition: null, removedAt: null, removedBy: null })
        .where('id', 'in', part)
        .execute();
    }
    if (ids.length > 0) await photosWritten(db);
  },

  /** Photos an edit took out of the entry (kept for its versions). */
  retiredFrom(db: Db, entryId: string): Promise<PhotoRow[]> {
    return db.selectFrom('catalog_images').selectAll().where('retiredFrom', '=', entryId).execute();
  },

  /** A linked photo of this entry and collection, with its place. */
  linkedOne(db: Db, collection: string, entryId: string, imageId: string) {
    return db
      .selectFrom('catalog_images')
      .select(['id', 'position', 'originalKey'])
      .where('id', '=', imageId)
      .where('entryId', '=', entryId)
      .where('collection', '=', collection)
      .executeTakeFirst();
  },

  /** Unlinks the photo, remembering its entry and place; returns the rows changed (0: moved meanwhile). */
  async remove(db: Db, imageId: string, entryId: string, position: number, by: { at: string; actorId: string }): Promise<number> {
    const result = await db
      .updateTable('catalog_images')
      .set({ entryId: null, removedFrom: entryId, removedPosition: position, removedAt: by.at, removedBy: by.actorId })
      .where('id', '=', imageId)
      .where('entryId', '=', entryId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) await photosWritten(db);
    return Number(result.numUpdatedRows);
  },

  removedOne(db: Db, imageId: string) {
    return db
      .selectFrom('catalog_images')
      .select(['id', 'removedFrom'])
      .where('id', '=', imageId)
      .where('removedFrom', 'is not', null)
      .executeTakeFirst();
  },

  /** Links a removed photo back to its entry, after its photos; returns the rows changed. */
  async putBack(db: Db, imageId: string, entryId: string): Promise<number> {
    const last = await db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('entryId', '=', entryId)
      .executeTakeFirst();
    const result = await db
      .updateTable('catalog_images')
      .set({ entryId, position: Number(last?.p ?? -1) + 1, removedFrom: null, removedPosition: null, removedAt: null, removedBy: null })
      .where('id', '=', imageId)
      .where('removedFrom', '=', entryId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) await photosWritten(db);
    return Number(result.numUpdatedRows);
  },

  async delete(db: Db, ids: readonly string[]): Promise<void> {
    for (const part of chunks(ids)) await db.deleteFrom('catalog_images').where('id', 'in', part).execute();
    if (ids.length > 0) await photosWritten(db);
  },

  /** Staged photos older than the cut-off (never saved with an entry), but for those a draft or a pending change holds. */
  staleStaged(db: Db, before: string, limit: number): Promise<PhotoRow[]> {
    return db
      .selectFrom('catalog_images')
      .selectAll()
      .where('entryId', 'is', null)
      .where('removedFrom', 'is', null)
      .where('retiredFrom', 'is', null)
      .where('createdAt', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('catalog_draft_photos as d').select('d.imageId').whereRef('d.imageId', '=', 'catalog_images.id'))),
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('review_photo_holds as h').select('h.imageId').whereRef('h.imageId', '=', 'catalog_images.id'))),
      )
      .orderBy('createdAt')
      .limit(limit)
      .execute();
  },
};
