import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { rebuildVarietySearchOrder } from '../variety-search.js';

/**
 * SQLite: the search index's keys follow the list's order, newest first (server/db/variety-search.ts).
 * - A new live row takes a key below every other; it is out of order (listed in
 *   variety_search_disorder) when a live row already sorts after it by ("createdAt", id).
 * - A change of the searched text keeps the row's key; a row that leaves the live list
 *   (deleted, trashed) gives its key up, and one that comes back takes a new one.
 * PostgreSQL's index (a GIN index of trigrams) has no order to keep: nothing changes there.
 */
const TRIGGERS = ['variety_search_insert', 'variety_search_delete', 'variety_search_update', 'variety_search_retext'];

function grams(row: 'OLD' | 'NEW', delta: number): string {
  return `
    insert into variety_search_grams (gram, n)
    select gram, ${delta} from (
      select '' as gram
      union select substr(${row}."searchText", i, 1) from variety_search_positions where i <= length(${row}."searchText")
      union select substr(${row}."searchText", i, 2) from variety_search_positions where i <= length(${row}."searchText") - 1
      union select substr(${row}."searchText", i, 3) from variety_search_positions where i <= length(${row}."searchText") - 2)
    where ${row}."isDeleted" = 0
    on conflict (gram) do update set n = n + excluded.n;`;
}

const KEY_OF_OLD = '(select key from variety_search_keys where id = OLD.id)';

/** The triggers' statements; `ordered` false: as migration 184 wrote them (keys in arrival order, no disorder list). */
function statements(ordered: boolean) {
  const forget = `${grams('OLD', -1)}
    delete from variety_search where rowid = ${KEY_OF_OLD};
    ${ordered ? `delete from variety_search_disorder where key = ${KEY_OF_OLD};` : ''}
    delete from variety_search_keys where id = OLD.id;`;
  // The disorder check runs before the row's key exists: it compares with the last row in the list's order.
  const remember = ordered
    ? `${grams('NEW', 1)}
    insert into variety_search_disorder (key)
      select (select coalesce(min(key), 0) - 1 from variety_search_keys)
      from (select "createdAt", id from variety_search_keys order by "createdAt" desc, id desc limit 1) last
      where NEW."isDeleted" = 0 and (last."createdAt", last.id) > (NEW."createdAt", NEW.id);
    insert into variety_search_keys (key, id, text, "createdAt")
      select (select coalesce(min(key), 0) - 1 from variety_search_keys), NEW.id, NEW."searchText", NEW."createdAt"
      where NEW."isDeleted" = 0;
    insert into variety_search (rowid, text) select key, NEW."searchText" from variety_search_keys where id = NEW.id and NEW."isDeleted" = 0;`
    : `${grams('NEW', 1)}
    insert into variety_search_keys (id, text, "createdAt") select NEW.id, NEW."searchText", NEW."createdAt" where NEW."isDeleted" = 0;
    insert into variety_search (rowid, text) select key, NEW."searchText" from variety_search_keys where id = NEW.id and NEW."isDeleted" = 0;`;
  return { forget, remember };
}

const retext = `${grams('OLD', -1)} ${grams('NEW', 1)}
  delete from variety_search where rowid = ${KEY_OF_OLD};
  insert into variety_search (rowid, text) select key, NEW."searchText" from variety_search_keys where id = NEW.id;
  update variety_search_keys set text = NEW."searchText" where id = NEW.id;`;

async function createTriggers(db: Kysely<any>, ordered: boolean): Promise<void> {
  const { forget, remember } = statements(ordered);
  await sql.raw(`create trigger variety_search_insert after insert on rice_seed_varieties begin ${remember} end`).execute(db);
  await sql.raw(`create trigger variety_search_delete after delete on rice_seed_varieties begin ${forget} end`).execute(db);
  if (!ordered) {
    await sql
      .raw(
        `create trigger variety_search_update after update of id, "isDeleted", "searchText", "createdAt" on rice_seed_varieties
      when OLD.id is not NEW.id or OLD."isDeleted" is not NEW."isDeleted" or OLD."searchText" is not NEW."searchText" or OLD."createdAt" is not NEW."createdAt"
      begin ${forget} ${remember} end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create trigger variety_search_update after update of id, "isDeleted", "searchText", "createdAt" on rice_seed_varieties
    when OLD.id is not NEW.id or OLD."isDeleted" is not NEW."isDeleted" or OLD."createdAt" is not NEW."createdAt"
    begin ${forget} ${remember} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger variety_search_retext after update of "searchText" on rice_seed_varieties
    when OLD.id = NEW.id and OLD."isDeleted" = 0 and NEW."isDeleted" = 0 and OLD."createdAt" is NEW."createdAt"
      and OLD."searchText" is not NEW."searchText"
    begin ${retext} end`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const name of TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql.raw('create table variety_search_disorder (key integer primary key)').execute(db);
  await sql.raw('create index variety_search_keys_order on variety_search_keys ("createdAt", id)').execute(db);
  await createTriggers(db, true);
  await rebuildVarietySearchOrder(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const name of TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql.raw('drop index if exists variety_search_keys_order').execute(db);
  await sql.raw('drop table if exists variety_search_disorder').execute(db);
  await createTriggers(db, false);
}
