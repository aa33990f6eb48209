import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { VarietiesTable } from '../../../db/types/content.js';
import { chunks, fixedQuery, isPostgres } from '../../../db/dialect.js';
import { translationsRecords } from '../translations/index.js';

export type VarietyRow = Selectable<VarietiesTable>;

/** What the list and the API show of a row: not the search text nor the deletion's bookkeeping. */
export const LISTED_COLUMNS = [
  'id',
  'varietyName',
  'releaseName',
  'yearRelease',
  'breedingCode',
  'breederOrigin',
  'maturityDays',
  'averageYield',
  'maxYield',
  'plantHeight',
  'tillers',
  'location',
  'season',
  'plantingMethod',
  'environment',
  'recommendedInTarlac',
  'createdAt',
  'updatedAt',
  'version',
] as const;
export type ListedVarietyRow = Pick<VarietyRow, (typeof LISTED_COLUMNS)[number]>;
type Db = Kysely<Database> | Transaction<Database>;

/** The fields the search box looks in (the issue: name, release name, year, location, breeding code, breeder origin). */
export const SEARCHED_FIELDS = ['varietyName', 'releaseName', 'yearRelease', 'location', 'breedingCode', 'breederOrigin'] as const;

/** One lower-cased text of the searched fields, stored beside the record (migration 010). */
export function searchTextOf(
  values: Partial<Record<(typeof SEARCHED_FIELDS)[number], string | null | undefined>>,
  translations: readonly string[] = [],
): string {
  return [...SEARCHED_FIELDS.map((f) => values[f] ?? ''), ...translations].join('\n').toLowerCase();
}

/** A variety's translated texts (its location in the farmers' languages): searched with its own fields. */
async function translatedTexts(db: Db, id: string): Promise<string[]> {
  return (await translationsRecords.ofRecords(db, 'rice_seed_varieties', [id])).map((t) => t.text);
}

type WritableFields = Omit<Insertable<VarietiesTable>, 'searchText'>;

/** An export reads the whole list a batch at a time, after the last row of the previous batch. */
const exportBatch = fixedQuery<VarietyRow>({
  sqlite: `select * from rice_seed_varieties where "isDeleted" = 0 and (? = '' or instr("searchText", ?) > 0)
    and (? is null or ("createdAt", id) < (?, ?)) order by "createdAt" desc, id desc limit ?`,
  postgres: `select * from rice_seed_varieties where "isDeleted" = 0 and ($1::text = '' or strpos("searchText", $2::text) > 0)
    and ($3::text is null or ("createdAt", id) < ($4::text, $5::text)) order by "createdAt" desc, id desc limit $6`,
});

/** An arbitrary key of the variety import's advisory lock. */
const importLock = fixedQuery<unknown>({ sqlite: 'select 1', postgres: 'select pg_advisory_xact_lock(748201, 1)' });

export const varietiesRepository = {
  findLive(db: Db, id: string): Promise<VarietyRow | undefined> {
    return db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
  },

  /** Every live record's id and name (an import matches its rows by name, case-insensitively, in JavaScript). */
  liveNameIndex(db: Db): Promise<Array<{ id: string; varietyName: string }>> {
    return db.selectFrom('rice_seed_varieties').select(['id', 'varietyName']).where('isDeleted', '=', 0).execute();
  },

  /** Stored varieties among `ids`, deleted ones included (their versions stay readable). */
  async findMany(db: Db, ids: readonly string[]): Promise<VarietyRow[]> {
    const rows: VarietyRow[] = [];
    for (const part of chunks(ids))
      rows.push(...(await db.selectFrom('rice_seed_varieties').selectAll().where('id', 'in', part).execute()));
    return rows;
  },

  async findLiveMany(db: Db, ids: readonly string[]): Promise<VarietyRow[]> {
    const rows: VarietyRow[] = [];
    for (const part of chunks(ids)) {
      rows.push(...(await db.selectFrom('rice_seed_varieties').selectAll().where('id', 'in', part).where('isDeleted', '=', 0).execute()));
    }
    return rows;
  },

  /**
   * Live rows containing the lower-case term, newest first, after the (createdAt, id) of the last
   * row of the previous batch: an export reads the whole list this way, a batch at a time.
   */
  exportBatch(db: Db, term: string, after: { createdAt: string; id: string } | null, limit: number): Promise<VarietyRow[]> {
    return exportBatch(db, [term, term, after?.createdAt ?? null, after?.createdAt ?? null, after?.id ?? null, limit]);
  },

  /**
   * Imports one at a time: each decides new or update by the live names, so a second import must
   * see what the first wrote. PostgreSQL: a lock held to the end of the transaction. SQLite: the
   * one connection already runs one transaction at a time.
   */
  async lockImports(db: Transaction<Database>): Promise<void> {
    if (isPostgres(db)) await importLock(db, []);
  },

  /**
   * Holds a save of this name (trimmed, case-insensitive) until the transaction ends, so a
   * second save of it checks for duplicates after the first one's commit. SQLite: the one
   * connection already runs one write transaction at a time.
   */
  async lockName(db: Transaction<Database>, name: string): Promise<void> {
    if (isPostgres(db)) await sql`select pg_advisory_xact_lock(748201, hashtext(${name.trim().toLowerCase()}))`.execute(db);
  },

  /** Live records with this name, compared trimmed and case-insensitively (used by the seed). */
  async liveNames(db: Db): Promise<Set<string>> {
    const rows = await db.selectFrom('rice_seed_varieties').select('varietyName').where('isDeleted', '=', 0).execute();
    return new Set(rows.map((r) => r.varietyName.trim().toLowerCase()));
  },

  /**
   * A page of live records that lack a required field (COMPLETABLE_VARIETY_FIELDS), by name,
   * with how many there are.
   */
  async incomplete(db: Db, limit: number, offset: number): Promise<{ rows: VarietyRow[]; total: number }> {
    const lacking = (eb: ExpressionBuilder<Database, 'rice_seed_varieties'>) =>
      eb.and([eb('isDeleted', '=', 0), eb('missingFields', '>', 0)]);
    const [rows, counted] = await Promise.all([
      db
        .selectFrom('rice_seed_varieties')
        .selectAll()
        .where(lacking)
        .orderBy('varietyName')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute(),
      db
        .selectFrom('rice_seed_varieties')
        .select((eb) => eb.fn.countAll().as('n'))
        .where(lacking)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  },

  /**
   * A live variety other than `exceptId` whose name is `name`, trimmed and ignoring case. The
   * search text starts with the lower-cased name and a line break (searchTextOf), lower-cased in
   * full Unicode, which SQLite's lower() is not.
   */
  withName(db: Db, name: string, exceptId: string | null): Promise<{ id: string; varietyName: string } | undefined> {
    const start = `${name.trim().toLowerCase()}\n`;
    let query = db
      .selectFrom('rice_seed_varieties')
      .select(['id', 'varietyName'])
      .where('isDeleted', '=', 0)
      .where(sql<string>`substr("searchText", 1, ${sql.lit(Array.from(start).length)})`, '=', start);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return query.orderBy('createdAt').limit(1).executeTakeFirst();
  },

  /** The release years live varieties hold, each once. */
  async yearsInUse(db: Db): Promise<string[]> {
    const rows = await db
      .selectFrom('rice_seed_varieties')
      .select('yearRelease')
      .distinct()
      .where('isDeleted', '=', 0)
      .where('yearRelease', 'is not', null)
      .execute();
    return rows.map((r) => r.yearRelease!);
  },

  async insert(db: Db, values: WritableFields): Promise<void> {
    await varietiesRepository.insertMany(db, [values]);
  },

  /** Several rows in one statement (seeds and benchmarks load thousands). */
  async insertMany(db: Db, rows: WritableFields[]): Promise<void> {
    for (const part of chunks(rows)) {
      await db
        .insertInto('rice_seed_varieties')
        .values(part.map((values) => ({ ...values, searchText: searchTextOf(values) })))
        .execute();
    }
  },

  /** Updates only when the stored version is the one the user edited; returns the rows changed. */
  async updateVersioned(
    db: Db,
    id: string,
    version: number,
    values: Omit<Updateable<VarietiesTable>, 'searchText' | 'version'>,
    searched: Parameters<typeof searchTextOf>[0],
  ): Promise<number> {
    const result = await db
      .updateTable('rice_seed_varieties')
      .set({ ...values, searchText: searchTextOf(searched, await translatedTexts(db, id)), version: version + 1 })
      .where('id', '=', id)
      .where('version', '=', version)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /**
   * A translation saved: the edit version moves from `version` (0 when it moved since) with
   * updatedAt, and the search text takes the translations in. Returns the search text before and after.
   */
  async touch(db: Db, id: string, version: number, now: string): Promise<number> {
    const row = await db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
    if (!row || Number(row.version) !== version) return 0;
    const searchText = searchTextOf(row, await translatedTexts(db, id));
    const result = await db
      .updateTable('rice_seed_varieties')
      .set({ version: version + 1, updatedAt: now, searchText })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Every live variety's updatedAt moves (the farmer app syncs them again); their edit versions stay. */
  async touchAll(db: Db, now: string): Promise<void> {
    await db.updateTable('rice_seed_varieties').set({ updatedAt: now }).where('isDeleted', '=', 0).execute();
  },

  /** Live varieties with a location (the one variety text the farmer app shows that is translated), all or these ids. */
  async withLocation(db: Db, ids?: readonly string[]) {
    const base = () =>
      db
        .selectFrom('rice_seed_varieties')
        .select(['id', 'varietyName', 'location', 'version'])
        .where('isDeleted', '=', 0)
        .where('location', 'is not', null)
        .where('location', '!=', '');
    if (!ids) return base().orderBy('varietyName').execute();
    const rows = [];
    for (const part of chunks(ids)) rows.push(...(await base().where('id', 'in', part).execute()));
    return rows;
  },

  async softDelete(db: Db, id: string, values: { deletedAt: string; deletedBy: string }): Promise<number> {
    const result = await db
      .updateTable('rice_seed_varieties')
      .set((eb) => ({ isDeleted: 1, deletedAt: values.deletedAt, deletedBy: values.deletedBy, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
};
