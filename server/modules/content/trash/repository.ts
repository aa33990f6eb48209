import { sql, type Kysely, type Transaction } from 'kysely';
import { trashEntry, type TrashCollection } from '../../../../common/trash.js';
import { containsInsensitive } from '../../../db/dialect.js';
import { photoReads } from '../photos/index.js';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface DeletedRow {
  id: string;
  name: string;
  detail: string | null;
  deletedAt: string | null;
  deletedBy: string | null;
  deleterName: string | null;
  photoCount: number | string | bigint | null;
}

/**
 * The trash's tables share the soft-delete columns (isDeleted, deletedAt, deletedBy, version);
 * the queries are written once against them, the name and detail columns picked per table
 * from the registry (common/collections.ts).
 */
function from(db: Db, collection: TrashCollection) {
  return db.selectFrom(sql.table(collection).as('t') as unknown as 'rice_seed_varieties as t');
}

export const trashRepository = {
  /** Deleted rows, most recently deleted first, with the deleter's name and (pests, diseases) photo count. */
  async page(
    db: Db,
    collection: TrashCollection,
    search: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeletedRow[]; total: number }> {
    const {
      columns: { name, detail },
      photos,
    } = trashEntry(collection);
    let base = from(db, collection).where(sql.ref('t.isDeleted'), '=', 1);
    if (search !== '') {
      base = base.where((eb) =>
        eb.or([containsInsensitive(db, sql.ref(`t.${name}`), search), containsInsensitive(db, sql.ref(`t.${detail}`), search)]),
      );
    }
    const totalRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .leftJoin('accounts as deleter', (j) => j.on(sql.ref('deleter.id'), '=', sql.ref('t.deletedBy')))
      .select([
        sql<string>`t.id`.as('id'),
        sql<string>`${sql.ref(`t.${name}`)}`.as('name'),
        sql<string | null>`${sql.ref(`t.${detail}`)}`.as('detail'),
        sql<string | null>`t."deletedAt"`.as('deletedAt'),
        sql<string | null>`t."deletedBy"`.as('deletedBy'),
        'deleter.fullname as deleterName',
      ])
      .select(() => (photos ? photoReads.countColumn(db, sql.ref<string>('t.id')).as('photoCount') : sql<null>`null`.as('photoCount')))
      .orderBy(sql.ref('t.deletedAt'), 'desc')
      .orderBy(sql.ref('t.id'), 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows: rows as DeletedRow[], total: Number(totalRow.n) };
  },

  /** The deleted row with its name. */
  async findDeleted(
    db: Db,
    collection: TrashCollection,
    id: string,
  ): Promise<{ id: string; name: string; deletedAt: string | null; deletedBy: string | null } | undefined> {
    const {
      columns: { name },
    } = trashEntry(collection);
    const row = await from(db, collection)
      .select([
        sql<string>`t.id`.as('id'),
        sql<string>`${sql.ref(`t.${name}`)}`.as('name'),
        sql<string | null>`t."deletedAt"`.as('deletedAt'),
        sql<string | null>`t."deletedBy"`.as('deletedBy'),
      ])
      .where(sql.ref('t.id'), '=', id)
      .where(sql.ref('t.isDeleted'), '=', 1)
      .executeTakeFirst();
    return row as { id: string; name: string; deletedAt: string | null; deletedBy: string | null } | undefined;
  },

  /** A live row of the same collection whose name is the same, trimmed and ignoring case. */
  async liveWithName(
    db: Db,
    collection: TrashCollection,
    name: string,
    exceptId: string,
  ): Promise<{ id: string; name: string } | undefined> {
    const column = trashEntry(collection).columns.name;
    const row = await from(db, collection)
      .select([sql<string>`t.id`.as('id'), sql<string>`${sql.ref(`t.${column}`)}`.as('name')])
      .where(sql.ref('t.isDeleted'), '=', 0)
      .where(sql.ref('t.id'), '!=', exceptId)
      .where(sql`lower(trim(${sql.ref(`t.${column}`)}))`, '=', name.trim().toLowerCase())
      .limit(1)
      .executeTakeFirst();
    return row as { id: string; name: string } | undefined;
  },

  /**
   * Puts the row back as it was: the delete marks are cleared, the version moves on, and
   * updatedAt is now, so the farmer app's "changed since" sync brings the record back.
   */
  async restore(db: Db, collection: TrashCollection, id: string, now: string): Promise<number> {
    const result = await db
      .updateTable(collection as 'rice_seed_varieties')
      .set((eb) => ({ isDeleted: 0, deletedAt: null, deletedBy: null, updatedAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('isDeleted', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
};
