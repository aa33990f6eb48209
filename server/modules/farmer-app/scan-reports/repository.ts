import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { ScanReportsTable } from '../../../db/types/scan-reports.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Queries of scan reports and their daily and weekly counts. */
export const scanReportsRepository = {
  /** Stores the reports whose id is not stored yet (ids unique, in id order); the ids stored. */
  async insertNew(db: Db, rows: ScanReportsTable[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const stored = await db
      .insertInto('scan_reports')
      .values(rows)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    return new Set(stored.map((r) => r.id));
  },

  /** Adds reports to their days' and weeks' rows (each list unique by key, in key order). */
  async addCounts(
    db: Db,
    days: Array<{ day: string; diseaseId: string; municipality: string; reports: number }>,
    weeks: Array<{ week: string; diseaseId: string; municipality: string; reports: number }>,
    models: Array<{ day: string; modelVersion: string; diseaseId: string; reports: number }> = [],
  ): Promise<void> {
    if (days.length > 0) {
      await db
        .insertInto('scan_report_counts')
        .values(days)
        .onConflict((oc) =>
          oc
            .columns(['day', 'diseaseId', 'municipality'])
            .doUpdateSet((eb) => ({ reports: eb('scan_report_counts.reports', '+', eb.ref('excluded.reports')) })),
        )
        .execute();
    }
    if (weeks.length > 0) {
      await db
        .insertInto('scan_report_weekly')
        .values(weeks)
        .onConflict((oc) =>
          oc
            .columns(['week', 'diseaseId', 'municipality'])
            .doUpdateSet((eb) => ({ reports: eb('scan_report_weekly.reports', '+', eb.ref('excluded.reports')) })),
        )
        .execute();
    }
    if (models.length > 0) {
      await db
        .insertInto('scan_report_models')
        .values(models)
        .onConflict((oc) =>
          oc
            .columns(['day', 'modelVersion', 'diseaseId'])
            .doUpdateSet((eb) => ({ reports: eb('scan_report_models.reports', '+', eb.ref('excluded.reports')) })),
        )
        .execute();
    }
  },

  /** Live diseases and training classes, oldest first (the order labels are made in). */
  diseases(db: Db) {
    return db
      .selectFrom('rice_local_diseases')
      .select(['id', 'name', 'isTrainingClass'])
      .where('isDeleted', '=', 0)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  /** Reports per week and disease from `fromWeek` on. */
  async perDiseaseWeek(db: Db, fromWeek: string) {
    const rows = await db
      .selectFrom('scan_report_weekly')
      .select((eb) => ['week', 'diseaseId', eb.fn.sum<number>('reports').as('n')])
      .where('week', '>=', fromWeek)
      .groupBy(['week', 'diseaseId'])
      .execute();
    return rows.map((r) => ({ week: r.week, diseaseId: r.diseaseId, n: Number(r.n) }));
  },

  /** Reports per disease from `fromDay` on. */
  async perDisease(db: Db, fromDay: string) {
    const rows = await db
      .selectFrom('scan_report_counts')
      .select((eb) => ['diseaseId', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', fromDay)
      .groupBy('diseaseId')
      .execute();
    return rows.map((r) => ({ diseaseId: r.diseaseId, n: Number(r.n) }));
  },

  /** Reports per municipality ('' = not given) from `fromDay` on, for one disease or all. */
  async perMunicipality(db: Db, fromDay: string, diseaseId: string | undefined) {
    let q = db
      .selectFrom('scan_report_counts')
      .select((eb) => ['municipality', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', fromDay);
    if (diseaseId) q = q.where('diseaseId', '=', diseaseId);
    const rows = await q.groupBy('municipality').execute();
    return rows.map((r) => ({ municipality: r.municipality, n: Number(r.n) }));
  },

  /** Reports per model version from `fromDay` on (for one disease or all). */
  async perModelVersion(db: Db, fromDay: string, diseaseId: string | undefined) {
    let q = db
      .selectFrom('scan_report_models')
      .select((eb) => ['modelVersion', eb.fn.sum<number>('reports').as('n')])
      .where('day', '>=', fromDay);
    if (diseaseId) q = q.where('diseaseId', '=', diseaseId);
    const rows = await q.groupBy('modelVersion').execute();
    return rows.map((r) => ({ modelVersion: r.modelVersion, n: Number(r.n) }));
  },

  /** Reports per week, disease and municipality from `fromWeek` on (the CSV export). */
  async perWeekDiseasePlace(db: Db, fromWeek: string, diseaseId: string | undefined) {
    let q = db.selectFrom('scan_report_weekly').select(['week', 'diseaseId', 'municipality', 'reports']).where('week', '>=', fromWeek);
    if (diseaseId) q = q.where('diseaseId', '=', diseaseId);
    const rows = await q.execute();
    return rows.map((r) => ({ week: r.week, diseaseId: r.diseaseId, municipality: r.municipality, n: Number(r.reports) }));
  },

  /** Deletes up to `limit` reports scanned before `before`; returns how many. */
  async deleteBatch(db: Db, before: string, limit: number): Promise<number> {
    const result = await db
      .deleteFrom('scan_reports')
      .where('id', 'in', (eb) => eb.selectFrom('scan_reports').select('id').where('scannedAt', '<', before).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Forgets the counts of days before `day` and of weeks before `week`. */
  async deleteCountsBefore(db: Db, day: string, week: string): Promise<void> {
    await db.deleteFrom('scan_report_counts').where('day', '<', day).execute();
    await db.deleteFrom('scan_report_models').where('day', '<', day).execute();
    await db.deleteFrom('scan_report_weekly').where('week', '<', week).execute();
  },
};
