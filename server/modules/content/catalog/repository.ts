import { CATALOG_SEARCHED_FIELDS } from '../../../../common/catalog-fields.js';
import { catalogSortDir, type CatalogSort } from '../../../../common/schemas/catalog.js';
import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { CatalogCollection, CatalogTable } from '../../../db/types/content.js';
import { chunks, containsInsensitive, isPostgres } from '../../../db/dialect.js';
import { photoReads } from '../photos/index.js';
import { translationsRecords } from '../translations/index.js';

type Db = Kysely<Database> | Transaction<Database>;
export type CatalogRow = Selectable<CatalogTable>;

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

/** Live entries of the list's search: name, scientific name, local name or description contain the term, or a translation does. */
function searched(db: Db, collection: CatalogCollection, search: string | undefined) {
  const t = table(collection);
  const base = db.selectFrom(t).where(`${t}.isDeleted`, '=', 0);
  const term = search?.trim();
  if (!term) return base;
  return base.where((eb) =>
    eb.or([
      ...CATALOG_SEARCHED_FIELDS.map((key) => containsInsensitive(db, eb.ref(`${t}.${key as 'name'}`), term)),
      eb(`${t}.id`, 'in', translationsRecords.matching(db, collection, term)),
    ]),
  );
}

export const catalogRepository = {
  /** The list as searched, in its order, after the (createdAt, id) where the previous batch ended; with each entry's photo count. */
  async exportBatch(
    db: Db,
    collection: CatalogCollection,
    search: string,
    after: { createdAt: string; id: string } | null,
    limit: number,
  ): Promise<Array<CatalogRow & { imageCount: number }>> {
    const t = table(collection);
    let q = searched(db, collection, search);
    if (after)
      q = q.where((eb) =>
        eb.or([
          eb(`${t}.createdAt`, '<', after.createdAt),
          eb.and([eb(`${t}.createdAt`, '=', after.createdAt), eb(`${t}.id`, '<', after.id)]),
        ]),
      );
    const rows = await q
      .selectAll(t)
      .select((eb) => photoReads.countColumn(db, eb.ref(`${t}.id`)).as('imageCount'))
      .orderBy(`${t}.createdAt`, 'desc')
      .orderBy(`${t}.id`, 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, imageCount: Number(r.imageCount ?? 0) }));
  },

  async list(
    db: Db,
    collection: CatalogCollection,
    options: { search?: string | undefined; offset: number; limit: number; sort?: CatalogSort; dir?: 'asc' | 'desc' },
  ): Promise<{ rows: ListRow[]; total: number }> {
    const t = table(collection);
    const sort = options.sort ?? 'added';
    const dir = options.dir ?? catalogSortDir(sort);
    const base = searched(db, collection, options.search);
    const totalRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll(t)
      .select((eb) => [
        photoReads.firstColumn(db, eb.ref(`${t}.id`), 'thumbKey').as('mainThumbKey'),
        photoReads.firstColumn(db, eb.ref(`${t}.id`), 'status').as('mainStatus'),
        photoReads.firstColumn(db, eb.ref(`${t}.id`), 'externalUrl').as('mainExternalUrl'),
        photoReads.countColumn(db, eb.ref(`${t}.id`)).as('imageCount'),
        photoReads.countColumn(db, eb.ref(`${t}.id`), 'pending').as('pendingImageCount'),
      ])
      .orderBy(
        (eb) =>
          sort === 'name'
            ? sql`lower(${eb.ref(`${t}.name`)})`
            : sort === 'photos'
              ? photoReads.countColumn(db, eb.ref(`${t}.id`))
              : sort === 'updated'
                ? sql`coalesce(${eb.ref(`${t}.updatedAt`)}, ${eb.ref(`${t}.createdAt`)})`
                : eb.ref(`${t}.createdAt`),
        dir,
      )
      .orderBy(`${t}.id`, dir)
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return { rows: rows as unknown as ListRow[], total: Number(totalRow.n) };
  },

  find(db: Db, collection: CatalogCollection, id: string): Promise<CatalogRow | undefined> {
    return db.selectFrom(table(collection)).selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Stored entries among `ids`, deleted ones included (their versions stay readable). */
  async findMany(db: Db, collection: CatalogCollection, ids: readonly string[]): Promise<CatalogRow[]> {
    const rows: CatalogRow[] = [];
    for (const part of chunks(ids)) rows.push(...(await db.selectFrom(table(collection)).selectAll().where('id', 'in', part).execute()));
    return rows;
  },

  findLive(db: Db, collection: CatalogCollection, id: string): Promise<CatalogRow | undefined> {
    return db.selectFrom(table(collection)).selectAll().where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
  },

  /**
   * Holds a save of this name (trimmed, case-insensitive) in the collection until the
   * transaction ends, so a second save of it checks for duplicates after the first one's commit.
   * SQLite: the one connection already runs one write transaction at a time.
   */
  async lockName(db: Transaction<Database>, collection: CatalogCollection, name: string): Promise<void> {
    if (isPostgres(db))
      await sql`select pg_advisory_xact_lock(748202, hashtext(${`${collection}\n${name.trim().toLowerCase()}`}))`.execute(db);
  },

  /** A live entry other than `exceptId` whose name is `name`, trimmed and ignoring case. */
  withName(
    db: Db,
    collection: CatalogCollection,
    name: string,
    exceptId: string | null,
  ): Promise<{ id: string; name: string } | undefined> {
    let query = db
      .selectFrom(table(collection))
      .select(['id', 'name'])
      .where('isDeleted', '=', 0)
      .where(sql<string>`lower(trim(name))`, '=', name.trim().toLowerCase());
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return query.orderBy('createdAt').limit(1).executeTakeFirst();
  },

  findLiveByName(db: Db, collection: CatalogCollection, name: string): Promise<CatalogRow | undefined> {
    return db.selectFrom(table(collection)).selectAll().where('name', '=', name).where('isDeleted', '=', 0).executeTakeFirst();
  },

  async insert(db: Db, collection: CatalogCollection, row: Insertable<CatalogTable>): Promise<void> {
    await db.insertInto(table(collection)).values(row).execute();
  },

  /** Optimistic update: only when the stored version is still the one the user edited. */
  async updateVersioned(
    db: Db,
    collection: CatalogCollection,
    id: string,
    version: number,
    values: Updateable<CatalogTable>,
  ): Promise<bigint> {
    const result = await db
      .updateTable(table(collection))
      .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('version', '=', version)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows;
  },

  /** Live farmer-facing entries (training classes are scanner data), all or these ids: what translators translate. */
  async farmerFacing(db: Db, collection: CatalogCollection, ids?: readonly string[]): Promise<CatalogRow[]> {
    const base = () => db.selectFrom(table(collection)).selectAll().where('isDeleted', '=', 0).where('isTrainingClass', '=', 0);
    if (!ids) return base().orderBy('name').execute();
    const rows: CatalogRow[] = [];
    for (const part of chunks(ids)) rows.push(...(await base().where('id', 'in', part).execute()));
    return rows;
  },

  /** A translation saved: the entry's edit version moves from `version` (0 when it moved since), and its updatedAt. */
  async touch(db: Db, collection: CatalogCollection, id: string, version: number, now: string): Promise<number> {
    const result = await db
      .updateTable(table(collection))
      .set({ version: version + 1, updatedAt: now })
      .where('id', '=', id)
      .where('version', '=', version)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** The entry's main image, as its photos' order now makes it (the same command moved its version). */
  async setMainImage(db: Db, collection: CatalogCollection, id: string, mainImageUrl: string | null): Promise<void> {
    await db.updateTable(table(collection)).set({ mainImageUrl }).where('id', '=', id).execute();
  },

  /** Every live entry's updatedAt moves (the farmer app syncs them again); their edit versions stay. */
  async touchAll(db: Db, collection: CatalogCollection, now: string): Promise<void> {
    await db.updateTable(table(collection)).set({ updatedAt: now }).where('isDeleted', '=', 0).execute();
  },

  async softDelete(db: Db, collection: CatalogCollection, id: string, by: string, now: string): Promise<bigint> {
    const result = await db
      .updateTable(table(collection))
      .set((eb) => ({ isDeleted: 1, deletedAt: now, deletedBy: by, updatedAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows;
  },
};
