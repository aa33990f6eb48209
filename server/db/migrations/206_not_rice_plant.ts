import type { Kysely } from 'kysely';

/**
 * Both catalog tables gain `notRicePlant` (0/1): a training class whose photos are not of rice
 * plants (other plants, soil, hands, papers). The plant check is evaluated on them as "not a rice
 * plant" and on every other disease's and training class's photos as a rice plant. Diseases only;
 * the pests' table keeps the same shape.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['rice_local_pests', 'rice_local_diseases']) {
    await db.schema
      .alterTable(table)
      .addColumn('notRicePlant', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rice_local_pests', 'rice_local_diseases']) await db.schema.alterTable(table).dropColumn('notRicePlant').execute();
}
