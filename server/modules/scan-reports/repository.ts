import type { Kysely, Transaction } from 'kysely';
import type { Database, ScanReportsTable } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

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

  /** Reports per disease and day from `fromDay` on. */
  async perDiseaseDay(db: Db, fromDay: string) {
    const rows = await db.selectFrom('scan_report_counts')
      .select((eb) => ['diseaseId', 'day', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', fromDay).groupBy(['diseaseId', 'day']).execute();
    return rows.map((r) => ({ diseaseId: r.diseaseId, day: r.day, n: Number(r.n) }));
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

  /** Every count row from `fromDay` on (the CSV export). */
  rowsFrom(db: Db, fromDay: string, diseaseId: string | undefined) {
    let q = db.selectFrom('scan_report_counts').select(['day', 'diseaseId', 'municipality', 'reports']).where('day', '>=', fromDay);
    if (diseaseId) q = q.where('diseaseId', '=', diseaseId);
    return q.orderBy('day').orderBy('diseaseId').orderBy('municipality').execute();
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
