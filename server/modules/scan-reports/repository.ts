import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database, ScanReportsTable } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The week (its first day) a count's day falls in, in SQL both engines run: days compare as
 * 'YYYY-MM-DD' text, so `case when day >= <last week> … end` buckets them without date functions.
 */
function weekOf(weeks: string[]): RawBuilder<string> {
  // Literals (dates the server made, checked below), so the grouped and selected expressions are identical on PostgreSQL.
  if (!weeks.every((w) => /^\d{4}-\d{2}-\d{2}$/.test(w))) throw new Error('weeks must be YYYY-MM-DD');
  const branches = [...weeks].reverse().map((w) => sql`when ${sql.ref('day')} >= ${sql.lit(w)} then ${sql.lit(w)}`);
  return sql<string>`(case ${sql.join(branches, sql` `)} end)`;
}

/** Queries of scan reports and their daily counts. */
export const scanReportsRepository = {
  /** Stores a report unless one with its id exists; true when it was stored. */
  async insertOnce(db: Db, row: ScanReportsTable): Promise<boolean> {
    const result = await db.insertInto('scan_reports').values(row).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },

  async countOne(db: Db, day: string, diseaseId: string, municipality: string): Promise<void> {
    await db.insertInto('scan_report_counts').values({ day, diseaseId, municipality, reports: 1 })
      .onConflict((oc) => oc.columns(['day', 'diseaseId', 'municipality']).doUpdateSet((eb) => ({ reports: eb('scan_report_counts.reports', '+', 1) })))
      .execute();
  },

  /** Live diseases and training classes, oldest first (the order labels are made in). */
  diseases(db: Db) {
    return db.selectFrom('rice_local_diseases').select(['id', 'name', 'isTrainingClass']).where('isDeleted', '=', 0)
      .orderBy('createdAt').orderBy('id').execute();
  },

  /** Reports per week (`weeks`: each week's first day, ascending) and disease, from the first week on. */
  async perDiseaseWeek(db: Db, weeks: string[]) {
    const week = weekOf(weeks);
    const rows = await db.selectFrom('scan_report_counts')
      .select((eb) => [week.as('week'), 'diseaseId', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', weeks[0]!).groupBy([week, 'diseaseId']).execute();
    return rows.map((r) => ({ week: r.week as string, diseaseId: r.diseaseId, n: Number(r.n) }));
  },

  /** Reports per disease from `fromDay` on. */
  async perDisease(db: Db, fromDay: string) {
    const rows = await db.selectFrom('scan_report_counts')
      .select((eb) => ['diseaseId', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', fromDay).groupBy('diseaseId').execute();
    return rows.map((r) => ({ diseaseId: r.diseaseId, n: Number(r.n) }));
  },

  /** Reports per municipality ('' = not given) from `fromDay` on, for one disease or all. */
  async perMunicipality(db: Db, fromDay: string, diseaseId: string | undefined) {
    let q = db.selectFrom('scan_report_counts')
      .select((eb) => ['municipality', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', fromDay);
    if (diseaseId) q = q.where('diseaseId', '=', diseaseId);
    const rows = await q.groupBy('municipality').execute();
    return rows.map((r) => ({ municipality: r.municipality, n: Number(r.n) }));
  },

  /** Reports per week, disease and municipality from the first week on (the CSV export). */
  async perWeekDiseasePlace(db: Db, weeks: string[], diseaseId: string | undefined) {
    const week = weekOf(weeks);
    let q = db.selectFrom('scan_report_counts')
      .select((eb) => [week.as('week'), 'diseaseId', 'municipality', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', weeks[0]!);
    if (diseaseId) q = q.where('diseaseId', '=', diseaseId);
    const rows = await q.groupBy([week, 'diseaseId', 'municipality']).execute();
    return rows.map((r) => ({ week: r.week as string, diseaseId: r.diseaseId, municipality: r.municipality, n: Number(r.n) }));
  },

  /** Deletes up to `limit` reports scanned before `before`; returns how many. */
  async deleteBatch(db: Db, before: string, limit: number): Promise<number> {
    const result = await db.deleteFrom('scan_reports')
      .where('id', 'in', (eb) => eb.selectFrom('scan_reports').select('id').where('scannedAt', '<', before).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async deleteCountsBefore(db: Db, day: string): Promise<void> {
    await db.deleteFrom('scan_report_counts').where('day', '<', day).execute();
  },
};
