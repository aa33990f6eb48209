import type { Expression, Kysely, Transaction } from 'kysely';
import type { Database } from '../../../../db/types.js';
import { chunks } from '../../../../db/dialect.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What other modules read of photos: subqueries their lists join on an entry's id, and look-ups
 * by entry or by photo. Only this module names the photo table.
 */
export const photoReads = {
  /** An entry's photo count, as a column of a query on the entry's table. */
  countColumn(db: Db, entryId: Expression<string>, status?: 'pending') {
    let q = db
      .selectFrom('catalog_images')
      .select((e) => e.fn.countAll<number>().as('c'))
      .where('catalog_images.entryId', '=', entryId);
    if (status) q = q.where('catalog_images.status', '=', status);
    return q;
  },

  /** A column of the entry's first photo, as a column of a query on the entry's table. */
  firstColumn(db: Db, entryId: Expression<string>, column: 'thumbKey' | 'status' | 'externalUrl') {
    return db
      .selectFrom('catalog_images')
      .select(`catalog_images.${column}`)
      .where('catalog_images.entryId', '=', entryId)
      .orderBy('catalog_images.position')
      .orderBy('catalog_images.createdAt')
      .orderBy('catalog_images.id')
      .limit(1);
  },

  /** The entry's photos linked after `since` (the farmer app's changes since its last sync), for an exists(). */
  linkedSince(db: Db, entryId: Expression<string>, since: string) {
    return db
      .selectFrom('catalog_images')
      .select('catalog_images.id')
      .where('catalog_images.entryId', '=', entryId)
      .where('catalog_images.linkedAt', '>', since);
  },

  /** Photo ids of each entry, in its order. */
  async idsOfEntries(db: Db, entryIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(entryIds.map((id) => [id, []]));
    for (const part of chunks(entryIds)) {
      const rows = await db
        .selectFrom('catalog_images')
        .select(['id', 'entryId'])
        .where('entryId', 'in', part)
        .orderBy('entryId')
        .orderBy('position')
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      for (const r of rows) out.get(r.entryId!)?.push(r.id);
    }
    return out;
  },

  /** Linked photos of the given entries, in order, with their variants (the farmer app's). */
  variantsOfEntries(db: Db, entryIds: string[]) {
    if (entryIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('catalog_images')
      .select(['id', 'entryId', 'position', 'status', 'displayKey', 'thumbKey', 'width', 'height', 'linkedAt'])
      .where('entryId', 'in', entryIds)
      .orderBy('entryId')
      .orderBy('position')
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  /** One photo's variants, with the entry and collection it is linked to. */
  variantsOf(db: Db, imageId: string) {
    return db
      .selectFrom('catalog_images')
      .select(['collection', 'entryId', 'displayKey', 'thumbKey', 'status'])
      .where('id', '=', imageId)
      .executeTakeFirst();
  },

  /** Photos' display and thumbnail variants by id, in any state (a pending change's staged ones too), in the order asked. */
  async variantsByIds(db: Db, ids: readonly string[]) {
    const rows: Array<{
      id: string;
      status: string;
      displayKey: string | null;
      thumbKey: string | null;
      width: number | null;
      height: number | null;
    }> = [];
    for (const part of chunks(ids)) {
      rows.push(
        ...(await db
          .selectFrom('catalog_images')
          .select(['id', 'status', 'displayKey', 'thumbKey', 'width', 'height'])
          .where('id', 'in', part)
          .execute()),
      );
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  },

  /** Photos by id, in any state (linked, retired, removed), for thumbnails. */
  async byIds(db: Db, ids: readonly string[]) {
    const out: Array<{
      id: string;
      thumbKey: string | null;
      originalKey: string | null;
      externalUrl: string | null;
      originalName: string | null;
      status: string;
    }> = [];
    for (const part of chunks(ids)) {
      out.push(
        ...(await db
          .selectFrom('catalog_images')
          .select(['id', 'thumbKey', 'originalKey', 'externalUrl', 'originalName', 'status'])
          .where('id', 'in', part)
          .execute()),
      );
    }
    return out;
  },

  /** Which of `ids` are still stored as the entry's: linked, retired by an edit, or (when asked) removed in Dataset health. */
  async storedOfEntry(db: Db, entryId: string, ids: readonly string[], options: { withRemoved: boolean }): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await db
        .selectFrom('catalog_images')
        .select('id')
        .where('id', 'in', part)
        .where((eb) =>
          eb.or([
            eb('entryId', '=', entryId),
            eb('retiredFrom', '=', entryId),
            ...(options.withRemoved ? [eb('removedFrom', '=', entryId)] : []),
          ]),
        )
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  },

  /** The account's staged photos among `ids` (a draft's photos that are still unsaved), with their thumbnails. */
  async stagedOf(db: Db, accountId: string, ids: readonly string[], collection?: string) {
    const out: Array<{ id: string; thumbKey: string | null }> = [];
    for (const part of chunks(ids)) {
      let q = db
        .selectFrom('catalog_images')
        .select(['id', 'thumbKey'])
        .where('id', 'in', part)
        .where('entryId', 'is', null)
        .where('uploadedBy', '=', accountId)
        .where('retiredFrom', 'is', null)
        .where('removedFrom', 'is', null);
      if (collection) q = q.where('collection', '=', collection);
      out.push(...(await q.execute()));
    }
    return out;
  },

  /** The photo a stored key belongs to (original, display or thumbnail), with what decides who may see it. */
  async byKey(db: Db, key: string) {
    for (const column of ['thumbKey', 'displayKey', 'originalKey'] as const) {
      const row = await db
        .selectFrom('catalog_images')
        .select(['id', 'entryId', 'retiredFrom', 'removedFrom', 'uploadedBy'])
        .where(column, '=', key)
        .executeTakeFirst();
      if (row) return row;
    }
    return undefined;
  },
};
