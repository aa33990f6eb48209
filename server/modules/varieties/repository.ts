import { type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/types.js';
import type { VarietiesTable } from '../../db/types/content.js';
import { fixedQuery, isPostgres } from '../../db/dialect.js';

export type VarietyRow = Selectable<VarietiesTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The fields the search box looks in (the issue: name, release name, year, location, breeding code, breeder origin). */
export const SEARCHED_FIELDS = ['varietyName', 'releaseName', 'yearRelease', 'location', 'breedingCode', 'breederOrigin'] as const;

/** One lower-cased text of the searched fields, stored beside the record (migration 010). */
export function searchTextOf(values: Partial<Record<(typeof SEARCHED_FIELDS)[number], string | null | undefined>>): string {
  return SEARCHED_FIELDS.map((f) => values[f] ?? '').join('\n').toLowerCase();
}

type WritableFields = Omit<Insertable<VarietiesTable>, 'searchText'>;

/** A match in the trigram index: the FTS row's key on SQLite, the variety's id on PostgreSQL. */
export type MatchKey = number | string;

/** An FTS5 phrase: the trigram tokenizer turns it into consecutive trigrams, i.e. the exact substring. */
const phrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * The search's queries, written once: a search runs two or three of them, and building and
 * compiling each with the query builder cost more than running it. "Contains" is instr/strpos
 * on the lower-case searchText: the same rows as LIKE '%term%' with its wildcards escaped.
 */
const LIVE_NEWEST = `from rice_seed_varieties where "isDeleted" = 0`;
const ORDER_PAGE = `order by "createdAt" desc, id desc limit ? offset ?`;
const searchQueries = {
  gramCounts: fixedQuery<{ gram: string; n: number }>({
    sqlite: 'select gram, n from variety_search_grams where gram in (select value from json_each(?))',
    postgres: 'select gram, n from variety_search_grams where gram = any(?)',
  }),
  keysUpTo: fixedQuery<{ key: MatchKey }>({
    // Only live rows are in the FTS table, and a phrase matches exactly: the match alone is the answer.
    sqlite: 'select rowid as key from variety_search where variety_search match ? limit ?',
    postgres: 'select id as key from variety_search_rows where trigrams @> ?::text[] and strpos(text, ?) > 0 limit ?',
  }),
  keysScanned: fixedQuery<{ key: MatchKey }>(`select id as key ${LIVE_NEWEST} and strpos("searchText", ?) > 0 limit ?`),
  all: fixedQuery<VarietyRow>(`select * ${LIVE_NEWEST} ${ORDER_PAGE}`),
  scan: fixedQuery<VarietyRow>({
    sqlite: `select * ${LIVE_NEWEST} and instr("searchText", ?) > 0 ${ORDER_PAGE}`,
    postgres: `select * ${LIVE_NEWEST} and strpos("searchText", ?) > 0 ${ORDER_PAGE}`,
  }),
  matchKeys: fixedQuery<{ key: MatchKey }>({
    // The rows holding the trigrams, then the text itself (kept beside the key).
    sqlite: `select k.key from variety_search s cross join variety_search_keys k
      where variety_search match ? and k.key = s.rowid and instr(k.text, ?) > 0`,
    postgres: 'select id as key from variety_search_rows where trigrams @> ?::text[] and strpos(text, ?) > 0',
  }),
  ofKeys: fixedQuery<VarietyRow>({
    // The keys are put in order by the key table alone; only the page's rows are read.
    sqlite: `select v.* from (select k.id from json_each(?) j cross join variety_search_keys k where k.key = j.value
        order by k."createdAt" desc, k.id desc limit ? offset ?) p
      cross join rice_seed_varieties v where v.id = p.id and v."isDeleted" = 0
      order by v."createdAt" desc, v.id desc`,
    // From the ids to their rows (not: the list's order, testing each row against the ids).
    postgres: `select v.* from unnest(?::text[]) as k(id) join rice_seed_varieties v on v.id = k.id
      where v."isDeleted" = 0 order by v."createdAt" desc, v.id desc limit ? offset ?`,
  }),
  newestHits: fixedQuery<{ matched: number | null; sampled: number }>({
    sqlite: `select sum(hit) as matched, count(*) as sampled from (select instr("searchText", ?) > 0 as hit ${LIVE_NEWEST} order by "createdAt" desc, id desc limit ?)`,
    postgres: `select sum(hit) as matched, count(*) as sampled from (select (strpos("searchText", ?) > 0)::int as hit ${LIVE_NEWEST} order by "createdAt" desc, id desc limit ?) s`,
  }),
};

export const varietiesRepository = {
  /**
   * How many live rows contain each text of up to three characters ('' is every live row), from
   * the counts the database keeps (migration 184); a text no row contains is missing.
   */
  async gramCounts(db: Db, grams: readonly string[]): Promise<Map<string, number>> {
    const rows = await searchQueries.gramCounts(db, [isPostgres(db) ? grams : JSON.stringify(grams)]);
    return new Map(rows.map((r) => [r.gram, Number(r.n)]));
  },

  /**
   * Live rows containing the lower-case term (of three or more characters), up to `limit` of
   * them. SQLite: the FTS phrase query. PostgreSQL: through the rows holding `trigrams` (rare
   * ones of the term), or, with none given, in the table's order (for common terms, whose
   * matches come soon).
   */
  async keysUpTo(db: Db, term: string, limit: number, trigrams: readonly string[] | null): Promise<MatchKey[]> {
    const rows = !isPostgres(db)
      ? await searchQueries.keysUpTo(db, [phrase(term), limit])
      : trigrams
        ? await searchQueries.keysUpTo(db, [trigrams, term, limit])
        : await searchQueries.keysScanned(db, [term, limit]);
    return rows.map((r) => r.key);
  },

  /** Of the newest `size` live rows, how many match: the share that estimates a count past the cap. */
  async matchesAmongNewest(db: Db, term: string, size: number): Promise<{ matched: number; sampled: number }> {
    const [row] = await searchQueries.newestHits(db, [term, size]);
    return { matched: Number(row?.matched ?? 0), sampled: Number(row?.sampled ?? 0) };
  },

  /** Every live row containing the term, found through the rows holding all of `trigrams` (rare ones of the term), then tested. */
  async matchKeys(db: Db, term: string, trigrams: readonly string[]): Promise<MatchKey[]> {
    const via = isPostgres(db) ? trigrams : trigrams.map(phrase).join(' AND ');
    const rows = await searchQueries.matchKeys(db, [via, term]);
    return rows.map((r) => r.key);
  },

  /** A page of the live rows of these matches (matchKeys), newest first. */
  pageOfKeys(db: Db, keys: readonly MatchKey[], limit: number, offset: number): Promise<VarietyRow[]> {
    return searchQueries.ofKeys(db, [isPostgres(db) ? keys : JSON.stringify(keys), limit, offset]);
  },

  /** A page of live rows containing the lower-case term ('' matches all), newest first, in the list's order. */
  page(db: Db, term: string, limit: number, offset: number): Promise<VarietyRow[]> {
    return term === '' ? searchQueries.all(db, [limit, offset]) : searchQueries.scan(db, [term, limit, offset]);
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
    await varietiesRepository.insertMany(db, [values]);
  },

  /** Several rows in one statement (seeds and benchmarks load thousands). */
  async insertMany(db: Db, rows: WritableFields[]): Promise<void> {
    if (rows.length === 0) return;
    await db.insertInto('rice_seed_varieties').values(rows.map((values) => ({ ...values, searchText: searchTextOf(values) }))).execute();
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
