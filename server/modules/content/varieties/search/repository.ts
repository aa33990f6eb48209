import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { fixedQuery, isPostgres } from '../../../../db/dialect.js';
import type { Database } from '../../../../db/types.js';
import type { VarietySort } from '../../../../../common/schemas/varieties.js';
import { LISTED_COLUMNS, type ListedVarietyRow } from '../repository.js';

type Db = Kysely<Database> | Transaction<Database>;

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
 * PostgreSQL looks a term up in the table's order (its matches come soon) rather than through
 * the rows holding its rarest trigram (all of which it would list first) once that trigram is in
 * more than 1/this of the live rows and more than the cap.
 */
const PG_COMMON_TRIGRAM_SHARE = 3;

/** PostgreSQL tests about this many rows in the list's order in the time it puts one match in order. */
const PG_SCAN_PER_SORTED = 4;

/**
 * SQLite tests the rows holding the term's rarest trigrams while they are fewer than this share
 * of the live rows; past it the phrase query (which checks positions in the index) costs less.
 */
const SQLITE_TESTED_SHARE = 0.05;

/** An FTS5 phrase: the trigram tokenizer turns it into consecutive trigrams, i.e. the exact substring. */
const phrase = (term: string) => `"${term.replaceAll('"', '""')}"`;
const ftsQuery = (term: string, trigrams: readonly string[] | null) => (trigrams ? trigrams.map(phrase).join(' AND ') : phrase(term));

/** SQLite: the live rows the FTS query finds whose text holds the term. */
const SQLITE_MATCHING = `from variety_search s cross join variety_search_keys k
  where variety_search match ? and k.key = s.rowid and instr(k.text, ?) > 0`;

/** Pages read only the columns the list shows (the search text is the longest of the others). */
const LISTED = LISTED_COLUMNS.map((c) => `"${c}"`).join(', ');
const LISTED_V = LISTED_COLUMNS.map((c) => `v."${c}"`).join(', ');
const LISTED_P = LISTED_COLUMNS.map((c) => `p."${c}"`).join(', ');

/** A row of the PostgreSQL statement that counts and pages at once: the page's columns are null when it has none. */
type CountedPageRow = { matchCount: number; sampleMatched: number | null; sampleSize: number } & {
  [K in keyof ListedVarietyRow]: ListedVarietyRow[K] | null;
};

/** What a count through the trigrams found and, on PostgreSQL, what came with it (see countedPage). */
export interface CountedVia {
  found: number;
  /** Past the cap: the matches among the newest rows. */
  sample?: { matched: number; sampled: number };
  /** Up to the cap: the page asked for. */
  rows?: ListedVarietyRow[];
}

/**
 * The search's queries, written once: a search runs two or three of them, and building and
 * compiling each with the query builder cost more than running it. "Contains" is instr/strpos
 * on the lower-case searchText: the same rows as LIKE '%term%' with its wildcards escaped.
 */
const LIVE_NEWEST = `from rice_seed_varieties where "isDeleted" = 0`;
const ORDER_PAGE = `order by "createdAt" desc, id desc limit ? offset ?`;
const PREPARED = { prepared: true };
const queries = {
  gramCounts: fixedQuery<{ gram: string; n: number }>(
    {
      sqlite: 'select gram, n from variety_search_grams where gram in (select value from json_each(?))',
      postgres: 'select gram, n from variety_search_grams where gram = any(?)',
    },
    PREPARED,
  ),
  // Only live rows are in the FTS table, and a phrase matches exactly: the match alone is the answer.
  countPhrase: fixedQuery<{ n: number }>('select count(*) as n from (select 1 from variety_search where variety_search match ? limit ?)'),
  // The rows holding the trigrams, then the text itself (kept beside the key).
  countVia: fixedQuery<{ n: number }>(
    {
      sqlite: `select count(*) as n from (select 1 ${SQLITE_MATCHING} limit ?)`,
      postgres:
        'select count(*) as n from (select 1 from variety_search_rows where variety_trigrams(text) @> ?::text[] and strpos(text, ?) > 0 limit ?) m',
    },
    PREPARED,
  ),
  countScanned: fixedQuery<{ n: number }>(
    `select count(*) as n from (select 1 ${LIVE_NEWEST} and strpos("searchText", ?) > 0 limit ?) m`,
    PREPARED,
  ),
  all: fixedQuery<ListedVarietyRow>(`select ${LISTED} ${LIVE_NEWEST} ${ORDER_PAGE}`, PREPARED),
  scan: fixedQuery<ListedVarietyRow>(
    {
      sqlite: `select ${LISTED} ${LIVE_NEWEST} and instr("searchText", ?) > 0 ${ORDER_PAGE}`,
      postgres: `select ${LISTED} ${LIVE_NEWEST} and strpos("searchText", ?) > 0 ${ORDER_PAGE}`,
    },
    PREPARED,
  ),
  // SQLite: the index's keys run newest first (server/db/variety-search.ts), so the first
  // offset + limit matches in key order are the page's candidates, with the rows that arrived
  // out of order; only those are sorted and read.
  inOrder: fixedQuery<ListedVarietyRow>(`select ${LISTED_V} from (
      select key, id, at from (select s.rowid as key, k.id, k."createdAt" as at ${SQLITE_MATCHING}
        and s.rowid not in (select key from variety_search_disorder) order by s.rowid limit ?)
      union all
      select d.key, k.id, k."createdAt" from variety_search_disorder d cross join variety_search_keys k where k.key = d.key and instr(k.text, ?) > 0
    ) p cross join rice_seed_varieties v on v.id = p.id
    where v."isDeleted" = 0 order by p.at desc, p.id desc limit ? offset ?`),
  // PostgreSQL: every match found through the trigrams is put in order; only the page's rows are read.
  via: fixedQuery<ListedVarietyRow>(
    `select ${LISTED_V} from (select id, "createdAt" from variety_search_rows where variety_trigrams(text) @> ?::text[] and strpos(text, ?) > 0
      order by "createdAt" desc, id desc limit ? offset ?) p
    join rice_seed_varieties v on v.id = p.id where v."isDeleted" = 0
    order by v."createdAt" desc, v.id desc`,
    PREPARED,
  ),
  // PostgreSQL, for the list: the count through the trigrams and, in the same statement, the
  // estimate's sample when the count passes the cap, else the page from the rows just counted.
  // Each statement is a round trip, which costs both processes more than these plans do.
  countedPage: fixedQuery<CountedPageRow>(
    `with m as materialized (select id, "createdAt" from variety_search_rows
        where variety_trigrams(text) @> ?::text[] and strpos(text, ?) > 0 limit ?),
      c as (select count(*) as n from m)
    select c.n as "matchCount", s.matched as "sampleMatched", s.sampled as "sampleSize", ${LISTED_P} from c
    cross join lateral (select sum(hit) as matched, count(*) as sampled from (select (strpos("searchText", ?) > 0)::int as hit
        ${LIVE_NEWEST} and c.n > ? order by "createdAt" desc, id desc limit ?) x) s
    left join lateral (select ${LISTED_V} from (select id, "createdAt" from m where c.n <= ? order by "createdAt" desc, id desc limit ? offset ?) q
        join rice_seed_varieties v on v.id = q.id where v."isDeleted" = 0) p on true
    order by p."createdAt" desc, p.id desc`,
    PREPARED,
  ),
  newestHits: fixedQuery<{ matched: number | null; sampled: number }>(
    {
      sqlite:
        `select sum(hit) as matched, count(*) as sampled from (select instr("searchText", ?) > 0 as hit ` +
        `${LIVE_NEWEST} order by "createdAt" desc, id desc limit ?)`,
      postgres:
        `select sum(hit) as matched, count(*) as sampled from (select (strpos("searchText", ?) > 0)::int as ` +
        `hit ${LIVE_NEWEST} order by "createdAt" desc, id desc limit ?) s`,
    },
    PREPARED,
  ),
};

export const varietySearchRepository = {
  /**
   * How many live rows contain each text of up to three characters ('' is every live row), from
   * the counts the database keeps (migration 184); a text no row contains is missing.
   */
  async gramCounts(db: Db, grams: readonly string[]): Promise<Map<string, number>> {
    const rows = await queries.gramCounts(db, [isPostgres(db) ? grams : JSON.stringify(grams)]);
    return new Map(rows.map((r) => [r.gram, Number(r.n)]));
  },

  /**
   * How many live rows contain the lower-case term (three or more characters), up to `limit`:
   * the rows holding all of `trigrams` (rare ones of the term), tested.
   */
  async countVia(db: Db, term: string, trigrams: readonly string[], limit: number): Promise<number> {
    const [row] = await queries.countVia(db, [isPostgres(db) ? trigrams : ftsQuery(term, trigrams), term, limit]);
    return Number(row?.n ?? 0);
  },

  /**
   * As countVia (up to `cap` + 1), and on PostgreSQL in the same statement: past the cap the
   * matches among the newest `sampleSize` rows, else the page at `limit` and `offset`.
   */
  async countViaWithPage(
    db: Db,
    term: string,
    trigrams: readonly string[],
    cap: number,
    sampleSize: number,
    limit: number,
    offset: number,
  ): Promise<CountedVia> {
    if (!isPostgres(db)) return { found: await varietySearchRepository.countVia(db, term, trigrams, cap + 1) };
    const rows = await queries.countedPage(db, [trigrams, term, cap + 1, term, cap, sampleSize, cap, limit, offset]);
    const found = Number(rows[0]?.matchCount ?? 0);
    if (found > cap) return { found, sample: { matched: Number(rows[0]?.sampleMatched ?? 0), sampled: Number(rows[0]?.sampleSize ?? 0) } };
    const page = rows
      .filter((r) => r.id !== null)
      .map(({ matchCount: _n, sampleMatched: _m, sampleSize: _s, ...row }) => row as ListedVarietyRow);
    return { found, rows: page };
  },

  /**
   * How a term of four or more characters is looked up: through the rows holding its rarest
   * trigrams (each is tested) while those are few; else as a whole: on SQLite by the FTS phrase
   * query, on PostgreSQL in the table's order (null: the matches of common trigrams come soon,
   * the page is then scanned too).
   */
  lookupFor(db: Db, grams: { rarest: readonly string[]; bound: number; live: number; cap: number }): IndexLookup | null {
    if (isPostgres(db)) {
      const throughRarest = grams.bound <= grams.cap || grams.bound * PG_COMMON_TRIGRAM_SHARE < grams.live;
      return throughRarest ? { trigrams: grams.rarest, few: true } : null;
    }
    return { trigrams: grams.bound < grams.live * SQLITE_TESTED_SHARE ? grams.rarest : null, few: true };
  },

  /** How many live rows contain the lower-case term, up to `limit`, looked up as a whole (see lookupFor). */
  async countWhole(db: Db, term: string, limit: number): Promise<number> {
    const [row] = isPostgres(db) ? await queries.countScanned(db, [term, limit]) : await queries.countPhrase(db, [phrase(term), limit]);
    return Number(row?.n ?? 0);
  },

  /** Of the newest `size` live rows, how many match: the share that estimates a count past the cap. */
  async matchesAmongNewest(db: Db, term: string, size: number): Promise<{ matched: number; sampled: number }> {
    const [row] = await queries.newestHits(db, [term, size]);
    return { matched: Number(row?.matched ?? 0), sampled: Number(row?.sampled ?? 0) };
  },

  /**
   * A page of live rows containing the lower-case term (three or more characters), newest first,
   * found through the index (`total` of them, or an estimate). PostgreSQL puts the matches found
   * through the rare trigrams in order, unless there are many and they are dense enough among the
   * newest rows that reading the list in order costs less (as for common trigrams).
   */
  pageVia(db: Db, term: string, lookup: IndexLookup, total: number, limit: number, offset: number): Promise<ListedVarietyRow[]> {
    if (!isPostgres(db)) return queries.inOrder(db, [ftsQuery(term, lookup.trigrams), term, offset + limit, term, limit, offset]);
    if (!lookup.trigrams) return varietySearchRepository.page(db, term, limit, offset);
    if (!lookup.few) {
      // Many matches: read in the list's order when the rows to test before the page is full
      // cost less than putting every match in order (at the sample's share of matches).
      const share = lookup.newestShare ?? 0;
      if (share > 0 && (offset + limit) / share <= PG_SCAN_PER_SORTED * Math.max(total, 1))
        return varietySearchRepository.page(db, term, limit, offset);
    }
    return queries.via(db, [lookup.trigrams, term, limit, offset]);
  },

  /** A page of live rows containing the lower-case term ('' matches all), newest first, in the list's order. */
  page(db: Db, term: string, limit: number, offset: number): Promise<ListedVarietyRow[]> {
    return term === '' ? queries.all(db, [limit, offset]) : queries.scan(db, [term, limit, offset]);
  },
};

/* The list sorted and filtered (browse.ts). */

/** What the list is narrowed to: each filter set, AND-ed (migration 203 indexes them together). */
export interface VarietyFilters {
  tarlac?: 'yes' | 'no';
  season?: string;
  environment?: string;
  year?: string;
  missing?: 'yes';
}

/**
 * Which rows a browse reads: the live rows containing `term` ('' all of them), or, with
 * `lookup`, those the search index finds for it (three or more characters).
 */
export type BrowseRows = { term: string; lookup?: IndexLookup } | { term: string; ids: readonly string[] };

/**
 * The ids of the live rows containing the term, found through the search index as `lookup`
 * says, as a subquery; null where the lookup is not through the index (PostgreSQL looking the
 * term up in the table's order).
 */
function matchesOf(db: Db, term: string, lookup: IndexLookup): RawBuilder<unknown> | null {
  if (!isPostgres(db))
    return sql`select k.id as mid from variety_search s cross join variety_search_keys k
      where variety_search match ${ftsQuery(term, lookup.trigrams)} and k.key = s.rowid and instr(k.text, ${term}) > 0`;
  if (!lookup.trigrams) return null;
  return sql`select id from variety_search_rows where variety_trigrams(text) @> ${lookup.trigrams as string[]}::text[] and strpos(text, ${term}) > 0`;
}

/** Whether the browse reads through the search index. */
const throughIndex = (db: Db, rows: BrowseRows): rows is { term: string; lookup: IndexLookup } =>
  'lookup' in rows && rows.lookup !== undefined && (!isPostgres(db) || rows.lookup.trigrams !== null);

const SORT_COLUMNS = {
  name: 'varietyName',
  year: 'yearRelease',
  maturity: 'maturityDays',
  yield: 'averageYield',
  added: 'createdAt',
} as const satisfies Record<VarietySort, string>;

const LISTED_SQL = sql.raw(LISTED_COLUMNS.map((c) => `"${c}"`).join(', '));

/** SQLite's indexes of migration 203, named: without statistics its planner would pick any index that starts with isDeleted. */
const SORT_INDEX: Record<VarietySort, string> = {
  name: 'varieties_by_name',
  year: 'varieties_by_year',
  maturity: 'varieties_by_maturity',
  yield: 'varieties_by_yield',
  added: 'varieties_by_added',
};
const FILTERS_INDEX = 'varieties_filters';

/**
 * The table, on SQLite read through the index named; or, for a browse through the search index
 * on SQLite, the matches first and each one's row after (SQLite keeps a cross join's order).
 */
function from(db: Db, rows: BrowseRows, index: string | null) {
  if (!isPostgres(db) && 'ids' in rows)
    return sql`(select value as mid from json_each(${JSON.stringify(rows.ids)})) m cross join rice_seed_varieties`;
  if (!isPostgres(db) && throughIndex(db, rows)) return sql`(${matchesOf(db, rows.term, rows.lookup)}) m cross join rice_seed_varieties`;
  return sql.raw(isPostgres(db) || index === null ? 'rice_seed_varieties' : `rice_seed_varieties indexed by ${index}`);
}

/** A season or environment is kept as a JSON list of texts: one of them, quoted as the list writes it. */
const contains = (db: Db, column: RawBuilder<unknown>, text: string) =>
  isPostgres(db) ? sql`strpos(${column}, ${text}) > 0` : sql`instr(${column}, ${text}) > 0`;

/** The conditions of a browse: the filters first, the term's test (the costliest) last. */
function where(db: Db, rows: BrowseRows, filters: VarietyFilters): RawBuilder<unknown> {
  const terms = [sql`"isDeleted" = 0`, ...filtered(db, filters)];
  if ('ids' in rows) terms.push(isPostgres(db) ? sql`id = any(${rows.ids as string[]})` : sql`id = m.mid`);
  else if (throughIndex(db, rows)) terms.push(isPostgres(db) ? sql`id in (${matchesOf(db, rows.term, rows.lookup!)})` : sql`id = m.mid`);
  else if (rows.term !== '') terms.push(contains(db, sql.ref('searchText'), rows.term));
  return sql.join(terms, sql` and `);
}

/** The filters' conditions, on a variety's columns or on those of SQLite's count rows (migration 204), which have the same names. */
function filtered(db: Db, filters: VarietyFilters): Array<RawBuilder<unknown>> {
  const terms: Array<RawBuilder<unknown>> = [];
  if (filters.tarlac) terms.push(sql`"recommendedInTarlac" = ${filters.tarlac === 'yes' ? 1 : 0}`);
  // Every row's: SQLite's filters index, which starts with it, then seeks the year.
  else if (filters.year !== undefined && !isPostgres(db)) terms.push(sql`"recommendedInTarlac" in (0, 1)`);
  if (filters.year !== undefined) terms.push(sql`"yearRelease" = ${filters.year}`);
  if (filters.missing) terms.push(sql`"missingFields" > 0`);
  if (filters.season !== undefined) terms.push(contains(db, sql.ref('season'), JSON.stringify(filters.season)));
  if (filters.environment !== undefined) terms.push(contains(db, sql.ref('environment'), JSON.stringify(filters.environment)));
  return terms;
}

export const varietyBrowseRepository = {
  /** Whether a browse of a term with `lookup` reads through the search index (else it scans for the term). */
  readsThroughIndex: (db: Db, rows: BrowseRows) => throughIndex(db, rows),

  /** How many rows the browse holds, up to `limit` (null: all of them, counted; without a term, from the filters' index alone). */
  /** The ids of the rows the browse holds, up to `limit`, in no order (a term's few matches, kept for their pages). */
  async ids(db: Db, rows: BrowseRows, filters: VarietyFilters, limit: number): Promise<string[]> {
    const { rows: found } = await sql<{ id: string }>`select id from ${from(db, rows, FILTERS_INDEX)}
      where ${where(db, rows, filters)} limit ${limit}`.execute(db);
    return found.map((r) => r.id);
  },

  async count(db: Db, rows: BrowseRows, filters: VarietyFilters, limit: number | null): Promise<number> {
    if (!isPostgres(db) && rows.term === '' && !('ids' in rows)) {
      // The live rows of each combination of the filtered columns, kept by triggers (migration 204).
      const conditions = filtered(db, filters);
      const { rows: summed } = await sql<{ n: number | null }>`select sum(n) as n from variety_list_counts
        ${conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}`.execute(db);
      const n = Number(summed[0]?.n ?? 0);
      return limit === null ? n : Math.min(n, limit);
    }
    // PostgreSQL without a term: the slim year index holds every filtered column (and seeks a year); a term needs the search text.
    const index = throughIndex(db, rows) || 'ids' in rows ? null : rows.term === '' ? SORT_INDEX.year : FILTERS_INDEX;
    const query =
      limit === null
        ? sql<{ n: number }>`select count(*) as n from ${from(db, rows, index)} where ${where(db, rows, filters)}`
        : sql<{
            n: number;
          }>`select count(*) as n from (select 1 from ${from(db, rows, index)} where ${where(db, rows, filters)} limit ${limit}) m`;
    const { rows: counted } = await query.execute(db);
    return Number(counted[0]?.n ?? 0);
  },

  /**
   * A page in the sort column's order (ties by id, the same way), read through that column's
   * index: on SQLite in the index alone (it holds the filtered columns and the search text),
   * then the page's rows by id. `few`: the rows are few (a term's matches), and are put in order instead.
   * Empty values come first ascending and last descending, on both engines.
   */
  async page(
    db: Db,
    rows: BrowseRows,
    filters: VarietyFilters,
    order: { sort: VarietySort; dir: 'asc' | 'desc'; few: boolean },
    limit: number,
    offset: number,
  ): Promise<ListedVarietyRow[]> {
    const column = sql.ref(SORT_COLUMNS[order.sort]);
    const dir = sql.raw(order.dir);
    const nulls = sql.raw(isPostgres(db) ? (order.dir === 'asc' ? ' nulls first' : ' nulls last') : '');
    const orderBy = sql`order by ${column} ${dir}${nulls}, id ${dir} limit ${limit} offset ${offset}`;
    if (!order.few && !isPostgres(db)) {
      const { rows: ids } = await sql<{ id: string }>`select id from ${from(db, rows, SORT_INDEX[order.sort])}
        where ${where(db, rows, filters)} ${orderBy}`.execute(db);
      if (ids.length === 0) return [];
      const { rows: found } = await sql<ListedVarietyRow>`select ${LISTED_SQL} from rice_seed_varieties
        where id in (select value from json_each(${JSON.stringify(ids.map((r) => r.id))}))`.execute(db);
      const byId = new Map(found.map((r) => [r.id, r]));
      return ids.flatMap((r) => (byId.has(r.id) ? [byId.get(r.id)!] : []));
    }
    const index = order.few ? null : SORT_INDEX[order.sort];
    const { rows: found } = await sql<ListedVarietyRow>`select ${LISTED_SQL} from ${from(db, rows, index)}
      where ${where(db, rows, filters)} ${orderBy}`.execute(db);
    return found;
  },
};
