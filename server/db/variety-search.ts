import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './types.js';

/**
 * SQLite's variety search index (migrations 184 and 191) keeps its keys in the list's order:
 * the newest row has the smallest key, so the trigram index, read in key order, meets a search's
 * matches newest first and a page is read without collecting and sorting every match. A row
 * that arrives out of that order (an import with earlier dates, a variety put back from the
 * trash) takes the next key too and is listed in variety_search_disorder; a page merges those in.
 * This puts every key back in order, empties that list and merges the index into one segment.
 */
export async function rebuildVarietySearchOrder(db: Kysely<any> | Transaction<any>): Promise<void> {
  await sql`insert into variety_search (variety_search) values ('delete-all')`.execute(db);
  await sql`delete from variety_search_disorder`.execute(db);
  await sql`delete from variety_search_keys`.execute(db);
  await sql`insert into variety_search_keys (key, id, text, "createdAt")
    select -row_number() over (order by "createdAt", id), id, "searchText", "createdAt"
    from rice_seed_varieties where "isDeleted" = 0`.execute(db);
  await sql`insert into variety_search (rowid, text) select key, text from variety_search_keys order by key`.execute(db);
  // One segment: a bulk insert leaves many small ones, and every query would read them all.
  await sql`insert into variety_search (variety_search) values ('optimize')`.execute(db);
}

/** Past this many rows out of the list's order, tidying the index puts all keys back in order. */
const DISORDER_REBUILD = 200;

/**
 * SQLite: merges the search index into one segment (each write adds a small one, and every
 * search reads them all), and puts its keys back in the list's order when many rows arrived out
 * of it. Run daily, after imports and by benchmarks on a freshly loaded database. PostgreSQL's
 * index needs neither.
 */
export async function tidyVarietySearch(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) return;
  const tidy = async (trx: Kysely<Database>) => {
    const {
      rows: [row],
    } = await sql<{ n: number }>`select count(*) as n from variety_search_disorder`.execute(trx);
    if (Number(row?.n ?? 0) > DISORDER_REBUILD) await rebuildVarietySearchOrder(trx);
    else await sql`insert into variety_search (variety_search) values ('optimize')`.execute(trx);
  };
  // An import published by a review runs in the publish's transaction: the tidying joins it.
  await (db.isTransaction ? tidy(db) : db.transaction().execute(tidy));
}
