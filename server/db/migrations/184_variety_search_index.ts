import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * What the variety search reads instead of every row, kept by the database itself whoever
 * writes the table (the API, the import, the trash), for live rows only:
 *
 * - variety_search_grams: for the empty text and every text of one, two or three characters, how
 *   many live rows contain it. A short search's total (and the list's) is one row away, and a
 *   longer one learns which of its trigrams is rarest: the index is read from that one.
 * - A trigram index for searches of three or more characters.
 *   SQLite: an FTS5 table with the trigram tokenizer, case-sensitive (searchText is already
 *   lower case), so a phrase query finds exactly the rows whose text contains the phrase. Its
 *   rows are keyed by variety_search_keys.key, an INTEGER PRIMARY KEY that VACUUM keeps (it may
 *   renumber the varieties table's own rowid), which holds the row's id, text and time (so a
 *   match found through a single trigram is checked, and matches are put in the list's order,
 *   without reading the varieties table).
 *   PostgreSQL: variety_search_rows, each live row's text, time and trigrams, with a GIN index on
 *   the trigrams (built-in array operators: no extension to install or to carry through pg_dump); a
 *   search asks for rows holding the term's rarest trigrams, then checks the text itself.
 */

/** SQLite triggers cannot count with a recursive query: they read positions from this table. Texts are far shorter (6 fields of at most 300 characters). */
const SQLITE_POSITIONS = 65_536;
const SQLITE_TRIGGERS = ['variety_search_insert', 'variety_search_delete', 'variety_search_update'];

async function upPostgres(db: Kysely<any>): Promise<void> {
  // GIN keeps each key once per row, so repeats need no sorting out here.
  await sql
    .raw(
      `create or replace function variety_trigrams(t text) returns text[]
    language sql immutable strict parallel safe
    as $$ select array(select substr(t, i, 3) from generate_series(1, length(t) - 2) as i) $$`,
    )
    .execute(db);
  // The trigrams are stored, not computed in the index's expression: PostgreSQL checks every row
  // the index hands over against the array again, and reading it is far cheaper than computing it.
  // The text is beside them, so a match is confirmed without reading the varieties table.
  await sql
    .raw(
      `create table variety_search_rows (
    id text primary key, text text not null, "createdAt" text not null,
    trigrams text[] generated always as (variety_trigrams(text)) stored)`,
    )
    .execute(db);
  // fastupdate off: new entries go into the index at once, instead of a pending list every search
  // would read through until the next vacuum.
  await sql
    .raw('create index variety_search_rows_trigrams on variety_search_rows using gin (trigrams) with (fastupdate = off)')
    .execute(db);
  await sql
    .raw(
      `create or replace function variety_short_grams(t text) returns setof text
    language sql immutable strict parallel safe
    as $$ select '' union select substr(t, i, n) from generate_series(1, 3) as n cross join generate_series(1, length(t) + 1 - n) as i $$`,
    )
    .execute(db);
  // One statement-level upsert of the net change per gram, in gram order: concurrent writers
  // lock the counters in the same order, and an edit that keeps the text writes none.
  const upsert = (rows: string) => `
    insert into variety_search_grams (gram, n)
    select gram, sum(delta) from (${rows}) d group by gram having sum(delta) <> 0 order by gram
    on conflict (gram) do update set n = variety_search_grams.n + excluded.n;`;
  const removed = `select g as gram, -1 as delta from old_rows o cross join variety_short_grams(o."searchText") g where o."isDeleted" = 0`;
  const added = `select g as gram, 1 as delta from new_rows r cross join variety_short_grams(r."searchText") g where r."isDeleted" = 0`;
  const forget = 'delete from variety_search_rows s using old_rows o where s.id = o.id;';
  const remember =
    `insert into variety_search_rows (id, text, "createdAt") select r.id, r."searchText", r."createdAt" ` +
    `from new_rows r where r."isDeleted" = 0;`;
  await sql
    .raw(
      `create or replace function variety_search_grams_sync() returns trigger language plpgsql as $$
    begin
      if TG_OP = 'INSERT' then ${upsert(added)} ${remember}
      elsif TG_OP = 'DELETE' then ${upsert(removed)} ${forget}
      else ${upsert(`${removed} union all ${added}`)} ${forget} ${remember}
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger variety_search_grams_insert after insert on rice_seed_varieties
    referencing new table as new_rows for each statement execute function variety_search_grams_sync()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger variety_search_grams_update after update on rice_seed_varieties
    referencing old table as old_rows new table as new_rows for each statement execute function variety_search_grams_sync()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger variety_search_grams_delete after delete on rice_seed_varieties
    referencing old table as old_rows for each statement execute function variety_search_grams_sync()`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into variety_search_grams (gram, n)
    select g, count(*) from rice_seed_varieties v cross join variety_short_grams(v."searchText") g
    where v."isDeleted" = 0 group by g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into variety_search_rows (id, text, "createdAt") select id, "searchText", "createdAt" from rice_seed_varieties where "isDeleted" = 0`,
    )
    .execute(db);
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql.raw('create table variety_search_positions (i integer primary key)').execute(db);
  await sql
    .raw(
      `insert into variety_search_positions (i)
    with recursive p(i) as (select 1 union all select i + 1 from p where i < ${SQLITE_POSITIONS}) select i from p`,
    )
    .execute(db);
  await sql
    .raw(
      'create table variety_search_keys (key integer primary key, id text not null unique, text text not null, "createdAt" text not null)',
    )
    .execute(db);
  await sql
    .raw(
      `create virtual table variety_search using fts5(
    text, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1)`,
    )
    .execute(db);
  const grams = (row: string, delta: number) => `
    insert into variety_search_grams (gram, n)
    select gram, ${delta} from (
      select '' as gram
      union select substr(${row}."searchText", i, 1) from variety_search_positions where i <= length(${row}."searchText")
      union select substr(${row}."searchText", i, 2) from variety_search_positions where i <= length(${row}."searchText") - 1
      union select substr(${row}."searchText", i, 3) from variety_search_positions where i <= length(${row}."searchText") - 2)
    where ${row}."isDeleted" = 0
    on conflict (gram) do update set n = n + excluded.n;`;
  const forget = `${grams('OLD', -1)}
    delete from variety_search where rowid = (select key from variety_search_keys where id = OLD.id);
    delete from variety_search_keys where id = OLD.id;`;
  const remember = `${grams('NEW', 1)}
    insert into variety_search_keys (id, text, "createdAt") select NEW.id, NEW."searchText", NEW."createdAt" where NEW."isDeleted" = 0;
    insert into variety_search (rowid, text) select key, NEW."searchText" from variety_search_keys where id = NEW.id and NEW."isDeleted" = 0;`;
  await sql.raw(`create trigger variety_search_insert after insert on rice_seed_varieties begin ${remember} end`).execute(db);
  await sql.raw(`create trigger variety_search_delete after delete on rice_seed_varieties begin ${forget} end`).execute(db);
  await sql
    .raw(
      `create trigger variety_search_update after update of id, "isDeleted", "searchText", "createdAt" on rice_seed_varieties
    when OLD.id is not NEW.id or OLD."isDeleted" is not NEW."isDeleted" or OLD."searchText" is not NEW."searchText" or OLD."createdAt" is not NEW."createdAt"
    begin ${forget} ${remember} end`,
    )
    .execute(db);
  // Rows written before: oldest first, so keys follow the list's order.
  await sql
    .raw(
      `insert into variety_search_keys (id, text, "createdAt")
    select id, "searchText", "createdAt" from rice_seed_varieties where "isDeleted" = 0 order by "createdAt", id`,
    )
    .execute(db);
  await sql.raw('insert into variety_search (rowid, text) select key, text from variety_search_keys').execute(db);
  await sql
    .raw(
      `insert into variety_search_grams (gram, n)
    select gram, count(*) from (
      select v.id, '' as gram from rice_seed_varieties v where v."isDeleted" = 0
      union select v.id, substr(v."searchText", p.i, 1) from rice_seed_varieties v join variety_search_positions p on p.i <= length(v."searchText") where v."isDeleted" = 0
      union select v.id, substr(v."searchText", p.i, 2) from rice_seed_varieties v join variety_search_positions p on p.i <= length(v."searchText") - 1 where v."isDeleted" = 0
      union select v.id, substr(v."searchText", p.i, 3) from rice_seed_varieties v join variety_search_positions p on p.i <= length(v."searchText") - 2 where v."isDeleted" = 0)
    group by gram`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('variety_search_grams')
    .addColumn('gram', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const t of ['insert', 'update', 'delete'])
      await sql.raw(`drop trigger if exists variety_search_grams_${t} on rice_seed_varieties`).execute(db);
    await sql.raw('drop function if exists variety_search_grams_sync()').execute(db);
    await sql.raw('drop function if exists variety_short_grams(text)').execute(db);
    await sql.raw('drop table if exists variety_search_rows').execute(db);
    await sql.raw('drop function if exists variety_trigrams(text)').execute(db);
  } else {
    for (const name of SQLITE_TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
    for (const t of ['variety_search', 'variety_search_keys', 'variety_search_positions'])
      await sql.raw(`drop table if exists ${t}`).execute(db);
  }
  await db.schema.dropTable('variety_search_grams').ifExists().execute();
}
