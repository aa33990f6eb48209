import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { COMPLETABLE, FILTERED, lacks, SORT_INDEXES } from './203_variety_list.js';

/**
 * SQLite's reads of the sorted and filtered varieties list (varieties/search/repository.ts)
 * without touching a row they do not show.
 *
 * - The sort indexes of migration 203 also hold the search text: a page with a search term is
 *   found by testing each entry in the sort column's order within the index, where reading each
 *   candidate's row cost more than the test.
 * - `variety_list_counts` holds how many live rows have each combination of the filtered
 *   columns, kept by triggers on every write to the table (by anyone): a filtered count without
 *   a term adds up a few of these instead of reading every row it counts.
 *
 * PostgreSQL keeps its indexes of migration 203 and counts the rows: there, parallel writers
 * would queue on (and could deadlock over) shared count rows.
 */
const FILTERED_SQL = FILTERED.map((c) => `"${c}"`).join(', ');

/** The columns whose change moves a row to another count. */
const UPDATED = [...new Set(['isDeleted', ...FILTERED.filter((c) => c !== 'missingFields'), ...COMPLETABLE])]
  .map((c) => `"${c}"`)
  .join(', ');

async function sortIndexes(db: Kysely<any>, withText: boolean): Promise<void> {
  for (const [name, column] of Object.entries(SORT_INDEXES)) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('rice_seed_varieties')
      .columns([column, 'id', ...FILTERED, 'isDeleted', ...(withText ? ['searchText'] : [])])
      .where(sql.ref('isDeleted'), '=', 0)
      .execute();
  }
}

/**
 * A row's combination as its count row keeps it: a column without a value is kept as a value
 * no filter asks for (a primary key's columns cannot be null).
 */
const KEY: Record<string, (row: string) => string> = {
  recommendedInTarlac: (row) => `${row}."recommendedInTarlac"`,
  yearRelease: (row) => `coalesce(${row}."yearRelease", '')`,
  // From the fields themselves, not the column a trigger of migration 203 sets, whichever of
  // the triggers runs first.
  missingFields: (row) => lacks.replaceAll(/"(\w+)"/g, `${row}."$1"`),
  season: (row) => `coalesce(${row}.season, '')`,
  environment: (row) => `coalesce(${row}.environment, '')`,
};

/** Statements of a trigger that count a live row's combination up (NEW) or down (OLD). */
function counted(row: 'NEW' | 'OLD'): string {
  const key = FILTERED.map((c) => KEY[c]!(row));
  if (row === 'NEW')
    return `insert into variety_list_counts (${FILTERED_SQL}, n) select ${key.join(', ')}, 1 where NEW."isDeleted" = 0
      on conflict (${FILTERED_SQL}) do update set n = n + 1;`;
  const same = FILTERED.map((c, i) => `"${c}" = ${key[i]}`).join(' and ');
  return `update variety_list_counts set n = n - 1 where OLD."isDeleted" = 0 and ${same};
    delete from variety_list_counts where n <= 0;`;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sortIndexes(db, true);
  await sql
    .raw(
      `create table variety_list_counts (
        "recommendedInTarlac" integer not null, "yearRelease" text not null, "missingFields" integer not null,
        season text not null, environment text not null, n integer not null, primary key (${FILTERED_SQL})) without rowid`,
    )
    .execute(db);
  await sql.raw(`create trigger variety_list_counts_insert after insert on rice_seed_varieties begin ${counted('NEW')} end`).execute(db);
  await sql.raw(`create trigger variety_list_counts_delete after delete on rice_seed_varieties begin ${counted('OLD')} end`).execute(db);
  await sql
    .raw(
      `create trigger variety_list_counts_update after update of ${UPDATED} on rice_seed_varieties
        begin ${counted('OLD')} ${counted('NEW')} end`,
    )
    .execute(db);
  const key = FILTERED.map((c) => KEY[c]!('rice_seed_varieties'));
  await sql
    .raw(
      `insert into variety_list_counts (${FILTERED_SQL}, n)
        select ${key.join(', ')}, count(*) from rice_seed_varieties where "isDeleted" = 0 group by ${key.join(', ')}`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const name of ['insert', 'delete', 'update']) await sql.raw(`drop trigger variety_list_counts_${name}`).execute(db);
  await sql.raw('drop table variety_list_counts').execute(db);
  await sortIndexes(db, false);
}
