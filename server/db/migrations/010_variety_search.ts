import type { Kysely } from 'kysely';

/**
 * The rice variety search (name, release name, year, location, breeding code, breeder origin)
 * reads one lower-cased column instead of lower-casing six columns per row, and the list's
 * order (newest first) is read from an index instead of sorting.
 */
const SEARCHED = ['varietyName', 'releaseName', 'yearRelease', 'location', 'breedingCode', 'breederOrigin'] as const;

function searchText(row: Record<string, unknown>): string {
  return SEARCHED.map((f) => (typeof row[f] === 'string' ? (row[f] as string) : ''))
    .join('\n')
    .toLowerCase();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('rice_seed_varieties')
    .addColumn('searchText', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('varieties_order_idx').on('rice_seed_varieties').columns(['isDeleted', 'createdAt', 'id']).execute();

  const rows = await db
    .selectFrom('rice_seed_varieties')
    .select(['id', ...SEARCHED])
    .execute();
  for (const row of rows) {
    await db
      .updateTable('rice_seed_varieties')
      .set({ searchText: searchText(row) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('varieties_order_idx').ifExists().execute();
  await db.schema.alterTable('rice_seed_varieties').dropColumn('searchText').execute();
}
