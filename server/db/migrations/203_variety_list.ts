import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The varieties list sorted and filtered (varieties/search/browse.ts).
 *
 * `missingFields` counts the required fields a row lacks (those of COMPLETABLE_VARIETY_FIELDS
 * as this migration writes them; tests/api/varieties-browse tests it against that list):
 * computed by the database from the row itself, so no writer can leave it wrong. PostgreSQL
 * stores it as a generated column. SQLite cannot add a stored one, and its indexes do not
 * serve a virtual one without reading the row: there it is a plain column that triggers set
 * after every insert and every update of those fields.
 *
 * Indexes of the live rows: one per sort column, in the list's order within it (id breaks ties),
 * each holding the filtered columns too, so a filtered page is found in the index alone; and one
 * of the filtered columns and the search text, for counts. SQLite's reads name the index they
 * take (varieties/search/repository.ts).
 */
const EMPTY_TEXT = ['releaseName', 'yearRelease', 'breedingCode', 'breederOrigin', 'location', 'plantingMethod'];
const EMPTY_NUMBER = ['maturityDays', 'averageYield', 'maxYield', 'plantHeight', 'tillers'];
const EMPTY_LIST = ['season', 'environment'];

/** How many of the required fields a row lacks, as SQL over the row's columns. */
export const lacks = [
  ...EMPTY_TEXT.map((c) => `case when "${c}" is null or trim("${c}") = '' then 1 else 0 end`),
  ...EMPTY_NUMBER.map((c) => `case when "${c}" is null then 1 else 0 end`),
  ...EMPTY_LIST.map((c) => `case when "${c}" is null or "${c}" = '[]' then 1 else 0 end`),
].join(' + ');

/** The filtered columns: in every index of the list, so a filtered read takes them from the index. */
export const FILTERED = ['recommendedInTarlac', 'yearRelease', 'missingFields', 'season', 'environment'];

export const SORT_INDEXES = {
  varieties_by_name: 'varietyName',
  varieties_by_year: 'yearRelease',
  varieties_by_maturity: 'maturityDays',
  varieties_by_yield: 'averageYield',
  varieties_by_added: 'createdAt',
} as const;

export const COMPLETABLE = [...EMPTY_TEXT, ...EMPTY_NUMBER, ...EMPTY_LIST];

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(`alter table rice_seed_varieties add column "missingFields" integer generated always as (${lacks}) stored`).execute(db);
  } else {
    await sql.raw(`alter table rice_seed_varieties add column "missingFields" integer not null default 0`).execute(db);
    const set = `update rice_seed_varieties set "missingFields" = ${lacks} where rowid = NEW.rowid;`;
    await sql.raw(`create trigger varieties_missing_insert after insert on rice_seed_varieties begin ${set} end`).execute(db);
    await sql
      .raw(
        `create trigger varieties_missing_update after update of ${COMPLETABLE.map((c) => `"${c}"`).join(', ')} on rice_seed_varieties begin ${set} end`,
      )
      .execute(db);
    await sql.raw(`update rice_seed_varieties set "missingFields" = ${lacks}`).execute(db);
  }
  // Partial (live rows only), isDeleted last: the list's other reads, which seek isDeleted = 0
  // in the createdAt order, keep their index (SQLite's planner, without statistics, would
  // otherwise take any index that starts with isDeleted), and a read of these finds isDeleted in
  // the index, which the partial condition alone does not give SQLite.
  for (const [name, column] of Object.entries(SORT_INDEXES)) {
    await db.schema
      .createIndex(name)
      .on('rice_seed_varieties')
      .columns([column, 'id', ...FILTERED, 'isDeleted'])
      .where(sql.ref('isDeleted'), '=', 0)
      .execute();
  }
  await db.schema
    .createIndex('varieties_filters')
    .on('rice_seed_varieties')
    .columns([...FILTERED, 'searchText', 'isDeleted'])
    .where(sql.ref('isDeleted'), '=', 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('varieties_filters').execute();
  for (const name of Object.keys(SORT_INDEXES)) await db.schema.dropIndex(name).execute();
  if (!isPostgres(db)) {
    await sql.raw('drop trigger varieties_missing_insert').execute(db);
    await sql.raw('drop trigger varieties_missing_update').execute(db);
  }
  await db.schema.alterTable('rice_seed_varieties').dropColumn('missingFields').execute();
}
