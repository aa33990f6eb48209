import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/types.js';
import type { VarietiesTable } from '../../db/types/content.js';
import { likePattern } from '../../db/dialect.js';

export type VarietyRow = Selectable<VarietiesTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The fields the search box looks in (the issue: name, release name, year, location, breeding code, breeder origin). */
export const SEARCHED_FIELDS = ['varietyName', 'releaseName', 'yearRelease', 'location', 'breedingCode', 'breederOrigin'] as const;

/** One lower-cased text of the searched fields, stored beside the record (migration 010). */
export function searchTextOf(values: Partial<Record<(typeof SEARCHED_FIELDS)[number], string | null | undefined>>): string {
  return SEARCHED_FIELDS.map((f) => values[f] ?? '').join('\n').toLowerCase();
}

type WritableFields = Omit<Insertable<VarietiesTable>, 'searchText'>;

/**
 * Live (not deleted) rows that match the search. searchText is kept by this repository and,
 * for rows other writers touch, by database triggers (migration 011), so the filter reads
 * only the covering index (isDeleted, createdAt, id, searchText).
 */
function matching(db: Db, search: string) {
  let q = db.selectFrom('rice_seed_varieties').where('isDeleted', '=', 0);
  if (search !== '') {
    const pattern = likePattern(search.toLowerCase());
    q = q.where(sql<boolean>`"searchText" like ${pattern} escape '\\'`);
  }
  return q;
}

export const varietiesRepository = {
  async count(db: Db, search: string): Promise<number> {
    const row = await matching(db, search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** A page of live rows, newest first (served by the (isDeleted, createdAt, id) index). */
  page(db: Db, search: string, limit: number, offset: number): Promise<VarietyRow[]> {
    return matching(db, search).selectAll()
      .orderBy('createdAt', 'desc').orderBy('id', 'desc')
      .limit(limit).offset(offset)
      .execute();
  },

  findLive(db: Db, id: string): Promise<VarietyRow | undefined> {
    return db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
  },

  /** Live records with this name, compared trimmed and case-insensitively (used by the seed). */
  async liveNames(db: Db): Promise<Set<string>> {
    const rows = await db.selectFrom('rice_seed_varieties').select('varietyName').where('isDeleted', '=', 0).execute();
    return new Set(rows.map((r) => r.varietyName.trim().toLowerCase()));
  },

  async insert(db: Db, values: WritableFields): Promise<void> {
    await db.insertInto('rice_seed_varieties').values({ ...values, searchText: searchTextOf(values) }).execute();
  },

  /** Updates only when the stored version is the one the user edited; returns the rows changed. */
  async updateVersioned(db: Db, id: string, version: number, values: Omit<Updateable<VarietiesTable>, 'searchText' | 'version'>, searched: Parameters<typeof searchTextOf>[0]): Promise<number> {
    const result = await db.updateTable('rice_seed_varieties')
      .set({ ...values, searchText: searchTextOf(searched), version: version + 1 })
      .where('id', '=', id).where('version', '=', version).where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  async softDelete(db: Db, id: string, values: { deletedAt: string; deletedBy: string }): Promise<number> {
    const result = await db.updateTable('rice_seed_varieties')
      .set((eb) => ({ isDeleted: 1, deletedAt: values.deletedAt, deletedBy: values.deletedBy, version: eb('version', '+', 1) }))
      .where('id', '=', id).where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
};
