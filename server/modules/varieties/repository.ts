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

/**
 * How a search's page is found through the trigram index: through the rows holding these rare
 * trigrams of the term (the text itself is then checked), or, with none, the whole term (on
 * SQLite a phrase query; PostgreSQL then reads the page in the list's order instead).
 */
export interface IndexLookup {
  trigrams: readonly string[] | null;
  /** At most the exact-count cap match: all of them can be put in order. */
  few: boolean;
  /** Past the cap: the share of matches among the newest rows (the estimate's sample). */
  newestShare?: number;
}

/**
 * A term whose rarest trigram is in more than 1/this of the live rows is common: rather than
 * testing all those rows, PostgreSQL looks it up in the table's order (its matches come soon) and
 * SQLite by the FTS phrase query (which checks positions in the index).
 */
const COMMON_TRIGRAM_SHARE = 3;

/** PostgreSQL tests about this many rows in the list's order in the time it puts one match in order. */
const PG_SCAN_PER_SORTED = 4;

/** SQLite also uses the phrase query once the rows to test are more than this many times the cap. */
const SQLITE_TESTED_PER_CAP = 3;

/** An FTS5 phrase: the trigram tokenizer turns it into consecutive trigrams, i.e. the exact substring. */
const phrase = (term: string) => `"${term.replaceAll('"', '""')}"`;
const ftsQuery = (term: string, trigrams: readonly string[] | null) => (trigrams ? trigrams.map(phrase).join(' AND ') : phrase(term));

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
  // Only live rows are in the FTS table, and a phrase matches exactly: the match alone is the answer.
  countPhrase: fixedQuery<{ n: number }>('select count(*) as n from (select 1 from variety_search where variety_search match ? limit ?)'),
  // The rows holding the trigrams, then the text itself (kept beside the key).
  countVia: fixedQuery<{ n: number }>({
    sqlite: `select count(*) as n from (select 1 from variety_search s cross join variety_search_keys k
      where variety_search match ? and k.key = s.rowid and instr(k.text, ?) > 0 limit ?)`,
    postgres: 'select count(*) as n from (select 1 from variety_search_rows where trigrams @> ?::text[] and strpos(text, ?) > 0 limit ?) m',
  }),
  countScanned: fixedQuery<{ n: number }>(`select count(*) as n from (select 1 ${LIVE_NEWEST} and strpos("searchText", ?) > 0 limit ?) m`),
  all: fixedQuery<VarietyRow>(`select * ${LIVE_NEWEST} ${ORDER_PAGE}`),
  scan: fixedQuery<VarietyRow>({
    sqlite: `select * ${LIVE_NEWEST} and instr("searchText", ?) > 0 ${ORDER_PAGE}`,
    postgres: `select * ${LIVE_NEWEST} and strpos("searchText", ?) > 0 ${ORDER_PAGE}`,
  }),
  // SQLite: the index's keys run newest first (server/db/variety-search.ts), so the first
  // offset + limit matches in key order are the page's candidates, with the rows that arrived
  // out of order; only those are sorted.
  inOrder: fixedQuery<VarietyRow>(`select v.* from (
      select key from (
        select s.rowid as key from variety_search s cross join variety_search_keys k
        where variety_search match ? and k.key = s.rowid and instr(k.text, ?) > 0
          and s.rowid not in (select key from variety_search_disorder)
        order by s.rowid limit ?)
      union all
      select d.key from variety_search_disorder d cross join variety_search_keys k where k.key = d.key and instr(k.text, ?) > 0
    ) m cross join variety_search_keys k on k.key = m.key cross join rice_seed_varieties v on v.id = k.id
    where v."isDeleted" = 0
    order by k."createdAt" desc, k.id desc limit ? offset ?`),
  // PostgreSQL: every match found through the trigrams is put in order; only the page's rows are read.
  via: fixedQuery<VarietyRow>(`select v.* from (select id, "createdAt" from variety_search_rows where trigrams @> ?::text[] and strpos(text, ?) > 0
      order by "createdAt" desc, id desc limit ? offset ?) p
    join rice_seed_varieties v on v.id = p.id where v."isDeleted" = 0
    order by v."createdAt" desc, v.id desc`),
  exportBatch: fixedQuery<VarietyRow>({
    sqlite: `select * ${LIVE_NEWEST} and (? = '' or instr("searchText", ?) > 0)
      and (? is null or ("createdAt", id) < (?, ?)) order by "createdAt" desc, id desc limit ?`,
    postgres: `select * ${LIVE_NEWEST} and ($1::text = '' or strpos("searchText", $2::text) > 0)
      and ($3::text is null or ("createdAt", id) < ($4::text, $5::text)) order by "createdAt" desc, id desc limit $6`,
  }),
  newestHits: fixedQuery<{ matched: number | null; sampled: number }>({
    sqlite: `select sum(hit) as matched, count(*) as sampled from (select instr("searchText", ?) > 0 as hit ${LIVE_NEWEST} order by "createdAt" desc, id desc limit ?)`,
    postgres: `select sum(hit) as matched, count(*) as sampled from (select (strpos("searchText", ?) > 0)::int as hit ${LIVE_NEWEST} order by "createdAt" desc, id desc limit ?) s`,
  }),
};

/** An arbitrary key of the variety import's advisory lock. */
const importLock = fixedQuery<unknown>({ sqlite: 'select 1', postgres: 'select pg_advisory_xact_lock(748201, 1)' });

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
   * How many live rows contain the lower-case term (three or more characters), up to `limit`:
   * the rows holding all of `trigrams` (rare ones of the term), tested.
   */
  async countVia(db: Db, term: string, trigrams: readonly string[], limit: number): Promise<number> {
    const query = isPostgres(db) ? trigrams : ftsQuery(term, trigrams);
    const [row] = await searchQueries.countVia(db, [query, term, limit]);
    return Number(row?.n ?? 0);
  },

  /**
   * How many live rows contain the lower-case term (three or more characters, its rarest trigram
   * in more than `cap` rows), up to `limit`, and how its page is then found. Through the rows
   * holding the rarest trigrams while those are few (each is tested); else, on SQLite, by the FTS
   * phrase query, and on PostgreSQL in the table's order (the matches of common trigrams come
   * soon; the page is then scanned too).
   */
  async countOf(db: Db, term: string, limit: number, grams: { rarest: readonly string[]; bound: number; live: number; cap: number }): Promise<{ count: number; lookup: IndexLookup | null }> {
    const pg = isPostgres(db);
    const rare = grams.bound * COMMON_TRIGRAM_SHARE < grams.live;
    const throughRarest = pg ? rare : rare && grams.bound <= grams.cap * SQLITE_TESTED_PER_CAP;
    if (throughRarest) return { count: await varietiesRepository.countVia(db, term, grams.rarest, limit), lookup: { trigrams: grams.rarest, few: true } };
    if (!pg) {
      const [row] = await searchQueries.countPhrase(db, [phrase(term), limit]);
      return { count: Number(row?.n ?? 0), lookup: { trigrams: null, few: true } };
    }
    const [row] = await searchQueries.countScanned(db, [term, limit]);
    return { count: Number(row?.n ?? 0), lookup: null };
  },

  /** Of the newest `size` live rows, how many match: the share that estimates a count past the cap. */
  async matchesAmongNewest(db: Db, term: string, size: number): Promise<{ matched: number; sampled: number }> {
    const [row] = await searchQueries.newestHits(db, [term, size]);
    return { matched: Number(row?.matched ?? 0), sampled: Number(row?.sampled ?? 0) };
  },

  /**
   * A page of live rows containing the lower-case term (three or more characters), newest first,
   * found through the index (`total` of them, or an estimate). PostgreSQL puts the matches found
   * through the rare trigrams in order, unless there are many and they are dense enough among the
   * newest rows that reading the list in order costs less (as for common trigrams).
   */
  pageVia(db: Db, term: string, lookup: IndexLookup, total: number, limit: number, offset: number): Promise<VarietyRow[]> {
    if (!isPostgres(db)) return searchQueries.inOrder(db, [ftsQuery(term, lookup.trigrams), term, offset + limit, term, limit, offset]);
    if (!lookup.trigrams) return varietiesRepository.page(db, term, limit, offset);
    if (!lookup.few) {
      // Many matches: read in the list's order when the rows to test before the page is full
      // cost less than putting every match in order (at the sample's share of matches).
      const share = lookup.newestShare ?? 0;
      if (share > 0 && (offset + limit) / share <= PG_SCAN_PER_SORTED * Math.max(total, 1)) return varietiesRepository.page(db, term, limit, offset);
    }
    return searchQueries.via(db, [lookup.trigrams, term, limit, offset]);
  },

  /** A page of live rows containing the lower-case term ('' matches all), newest first, in the list's order. */
  page(db: Db, term: string, limit: number, offset: number): Promise<VarietyRow[]> {
    return term === '' ? searchQueries.all(db, [limit, offset]) : searchQueries.scan(db, [term, limit, offset]);
  },

  findLive(db: Db, id: string): Promise<VarietyRow | undefined> {
    return db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', id).where('isDeleted', '=', 0).executeTakeFirst();
  },

  /** Every live record's id and name (an import matches its rows by name, case-insensitively, in JavaScript). */
  liveNameIndex(db: Db): Promise<Array<{ id: string; varietyName: string }>> {
    return db.selectFrom('rice_seed_varieties').select(['id', 'varietyName']).where('isDeleted', '=', 0).execute();
  },

  async findLiveMany(db: Db, ids: readonly string[]): Promise<VarietyRow[]> {
    const rows: VarietyRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      rows.push(...await db.selectFrom('rice_seed_varieties').selectAll().where('id', 'in', ids.slice(i, i + 500)).where('isDeleted', '=', 0).execute());
    }
    return rows;
  },

  /**
   * Live rows containing the lower-case term, newest first, after the (createdAt, id) of the last
   * row of the previous batch: an export reads the whole list this way, a batch at a time.
   */
  exportBatch(db: Db, term: string, after: { createdAt: string; id: string } | null, limit: number): Promise<VarietyRow[]> {
    return searchQueries.exportBatch(db, [term, term, after?.createdAt ?? null, after?.createdAt ?? null, after?.id ?? null, limit]);
  },

  /**
   * Imports one at a time: each decides new or update by the live names, so a second import must
   * see what the first wrote. PostgreSQL: a lock held to the end of the transaction. SQLite: the
   * one connection already runs one transaction at a time.
   */
  async lockImports(db: Transaction<Database>): Promise<void> {
    if (isPostgres(db)) await importLock(db, []);
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
    for (let i = 0; i < rows.length; i += 500) {
      await db.insertInto('rice_seed_varieties').values(rows.slice(i, i + 500).map((values) => ({ ...values, searchText: searchTextOf(values) }))).execute();
    }
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
