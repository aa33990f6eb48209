import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The varieties list sorted and filtered (varieties/search/browse.ts).
 *
 * `missingFields` counts the required fields a row lacks (those of COMPLETABLE_VARIETY_FIELDS
 * as this migration writes them; tests/api/varieties-browse tests it against that list):
 * computed by the database from the row itself, so no writer can leave it wrong. SQLite keeps
 * it virtual (a column added later cannot be stored), PostgreSQL stored.
 *
 * Indexes of the live rows: one per sort column, in the list's order within it (id breaks ties),
 * and one that holds every filtered column, so a filtered count reads the index alone. SQLite's
 * reads name the index they take (browse-repository.ts).
 */
const EMPTY_TEXT = ['releaseName', 'yearRelease', 'breedingCode', 'breederOrigin', 'location', 'plantingMethod'];
const EMPTY_NUMBER = ['maturityDays', 'averageYield', 'maxYield', 'plantHeight', 'tillers'];
const EMPTY_LIST = ['season', 'environment'];

const lacks = [
  ...EMPTY_TEXT.map((c) => `case when "${c}" is null or trim("${c}") = '' then 1 else 0 end`),
  ...EMPTY_NUMBER.map((c) => `case when "${c}" is null then 1 else 0 end`),
  ...EMPTY_LIST.map((c) => `case when "${c}" is null or "${c}" = '[]' then 1 else 0 end`),
].join(' + ');

const SORT_INDEXES = {
  varieties_by_name: 'varietyName',
  varieties_by_year: 'yearRelease',
  varieties_by_maturity: 'maturityDays',
  varieties_by_yield: 'averageYield',
} as const;

export async function up(db: Kysely<any>): Promise<void> {
  const kept = isPostgres(db) ? 'stored' : 'virtual';
  await sql.raw(`alter table rice_seed_varieties add column "missingFields" integer generated always as (${lacks}) ${kept}`).execute(db);
  // Partial (live rows only) and without isDeleted: the list's other reads, which seek
  // isDeleted = 0 in the createdAt order, keep their index (SQLite's planner, without statistics,
  // would otherwise take any index that starts with isDeleted).
  for (const [name, column] of Object.entries(SORT_INDEXES)) {
    await db.schema.createIndex(name).on('rice_seed_varieties').columns([column, 'id']).where(sql.ref('isDeleted'), '=', 0).execute();
  }
  await db.schema
    .createIndex('varieties_filters')
    .on('rice_seed_varieties')
    .columns(['recommendedInTarlac', 'yearRelease', 'missingFields', 'season', 'environment', 'searchText'])
    .where(sql.ref('isDeleted'), '=', 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('varieties_filters').execute();
  for (const name of Object.keys(SORT_INDEXES)) await db.schema.dropIndex(name).execute();
  await db.schema.alterTable('rice_seed_varieties').dropColumn('missingFields').execute();
}
