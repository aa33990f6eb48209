import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL: variety_search_rows keeps each live row's id, text and time only, and its GIN index
 * is built on the trigrams computed from the text (migration 184 stored them beside the text).
 * A search reads many of these rows to check its term: without the stored array, which is
 * far longer than the text, several times as many fit in a page. The index hands over exact row
 * addresses, so the trigrams are computed again only for pages of a bitmap too large for
 * work_mem, which these searches do not reach.
 * The table is made anew (dropping the column would leave the rows as wide until rewritten) under
 * the same name, which the triggers' function looks up when it runs.
 * SQLite keeps its FTS5 index: nothing changes there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // No save (whose trigger writes the old table) between the copy and the swap.
  await sql.raw('lock table rice_seed_varieties in share row exclusive mode').execute(db);
  await sql.raw('create table variety_search_rows_narrow (id text primary key, text text not null, "createdAt" text not null)').execute(db);
  await sql
    .raw('insert into variety_search_rows_narrow (id, text, "createdAt") select id, text, "createdAt" from variety_search_rows')
    .execute(db);
  await sql.raw('drop table variety_search_rows').execute(db);
  await sql.raw('alter table variety_search_rows_narrow rename to variety_search_rows').execute(db);
  await sql.raw('alter index variety_search_rows_narrow_pkey rename to variety_search_rows_pkey').execute(db);
  // fastupdate off: new entries go into the index at once, instead of a pending list every search
  // would read through until the next vacuum.
  await sql
    .raw('create index variety_search_rows_trigrams on variety_search_rows using gin (variety_trigrams(text)) with (fastupdate = off)')
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw('drop index variety_search_rows_trigrams').execute(db);
  await sql
    .raw('alter table variety_search_rows add column trigrams text[] generated always as (variety_trigrams(text)) stored')
    .execute(db);
  await sql
    .raw('create index variety_search_rows_trigrams on variety_search_rows using gin (trigrams) with (fastupdate = off)')
    .execute(db);
}
