import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import { isPostgres } from '../../../db/dialect.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface MaintenanceRow {
  data: Record<string, unknown>;
  version: number;
  createdAt: string;
  updatedAt: string | null;
}

function parseData(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Counts per option from `select value, count(*) … group by value` rows. */
function toCounts(rows: Array<{ v: string | null; n: number | string | bigint }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) if (row.v !== null) counts.set(row.v, Number(row.n));
  return counts;
}

export const maintenanceRepository = {
  async find(db: Db, id: string): Promise<MaintenanceRow | undefined> {
    const row = await db.selectFrom('maintenance').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return { data: parseData(row.data), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
  },

  /** Inserts the document unless it exists (safe when two instances start at once). */
  async insertIfMissing(db: Db, id: string, data: Record<string, unknown>, now: string): Promise<void> {
    await db
      .insertInto('maintenance')
      .values({ id, data: JSON.stringify(data), createdAt: now, updatedAt: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  },

  async update(db: Db, id: string, data: Record<string, unknown>, now: string): Promise<void> {
    await db
      .updateTable('maintenance')
      .set((eb) => ({ data: JSON.stringify(data), updatedAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  },

  /** Writes the document only if it is still at `version`; returns how many rows changed (0 or 1). */
  async updateAtVersion(db: Db, id: string, version: number, data: Record<string, unknown>, now: string): Promise<number> {
    const result = await db
      .updateTable('maintenance')
      .set({ data: JSON.stringify(data), updatedAt: now, version: version + 1 })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /**
   * How many live varieties use each option. Seasons and environments are JSON text lists
   * ('["Dry","Wet"]'): one pass over the table counts, per option, the rows whose text
   * contains the option's JSON string ('"Dry"', quotes included, so 'Dry' never matches
   * 'Dry Season'). Planting method and year release are plain text: grouped counts.
   */
  async varietyUsage(
    db: Db,
    options: { seasons: string[]; environments: string[] },
  ): Promise<{
    seasons: Map<string, number>;
    environments: Map<string, number>;
    plantingMethods: Map<string, number>;
    yearReleases: Map<string, number>;
  }> {
    const pg = isPostgres(db as Kysely<Database>);
    const contains = (column: 'season' | 'environment', value: string) => {
      const needle = JSON.stringify(value);
      return pg
        ? sql<number>`coalesce(sum(case when strpos(${sql.ref(column)}, ${needle}) > 0 then 1 else 0 end), 0)`
        : sql<number>`coalesce(sum(case when instr(${sql.ref(column)}, ${needle}) > 0 then 1 else 0 end), 0)`;
    };
    const seasons = new Map<string, number>();
    const environments = new Map<string, number>();
    const columns = [
      ...options.seasons.map((value, i) => ({ alias: `s${i}`, expr: contains('season', value), value, into: seasons })),
      ...options.environments.map((value, i) => ({ alias: `e${i}`, expr: contains('environment', value), value, into: environments })),
    ];
    if (columns.length > 0) {
      const row = (await db
        .selectFrom('rice_seed_varieties')
        .select(columns.map((c) => c.expr.as(c.alias)))
        .where('isDeleted', '=', 0)
        .executeTakeFirst()) as Record<string, number | string | bigint | null> | undefined;
      for (const c of columns) c.into.set(c.value, Number(row?.[c.alias] ?? 0));
    }
    const methods = await db
      .selectFrom('rice_seed_varieties')
      .select((eb) => [eb.ref('plantingMethod').as('v'), eb.fn.countAll<number>().as('n')])
      .where('isDeleted', '=', 0)
      .where('plantingMethod', 'is not', null)
      .groupBy('plantingMethod')
      .execute();
    const years = await db
      .selectFrom('rice_seed_varieties')
      .select((eb) => [eb.ref('yearRelease').as('v'), eb.fn.countAll<number>().as('n')])
      .where('isDeleted', '=', 0)
      .where('yearRelease', 'is not', null)
      .groupBy('yearRelease')
      .execute();
    return { seasons, environments, plantingMethods: toCounts(methods), yearReleases: toCounts(years) };
  },

  /** How many live diseases name each affected part (JSON text lists, matched quotes included, as seasons). */
  async affectedPartUsage(db: Db, parts: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (parts.length === 0) return counts;
    const pg = isPostgres(db as Kysely<Database>);
    const columns = parts.map((value, i) => {
      const needle = JSON.stringify(value);
      const expr = pg
        ? sql<number>`coalesce(sum(case when strpos(${sql.ref('affectedParts')}, ${needle}) > 0 then 1 else 0 end), 0)`
        : sql<number>`coalesce(sum(case when instr(${sql.ref('affectedParts')}, ${needle}) > 0 then 1 else 0 end), 0)`;
      return { alias: `p${i}`, expr, value };
    });
    const row = (await db
      .selectFrom('rice_local_diseases')
      .select(columns.map((c) => c.expr.as(c.alias)))
      .where('isDeleted', '=', 0)
      .executeTakeFirst()) as Record<string, number | string | bigint | null> | undefined;
    for (const c of columns) counts.set(c.value, Number(row?.[c.alias] ?? 0));
    return counts;
  },

  /** How many live accounts chose each security question. */
  async securityQuestionUsage(db: Db): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('accounts')
      .select((eb) => [eb.ref('securityQuestion').as('v'), eb.fn.countAll<number>().as('n')])
      .where('isDeleted', '=', 0)
      .where('securityQuestion', 'is not', null)
      .groupBy('securityQuestion')
      .execute();
    return toCounts(rows);
  },
};
