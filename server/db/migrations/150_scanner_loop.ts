import type { Kysely } from 'kysely';

/**
 * The disease-scanner loop (issue 15):
 * - pests and diseases gain localName (the Filipino name farmers know); both catalog tables
 *   gain affectedParts (a JSON text list, used by diseases) and isTrainingClass (0/1: a photo
 *   set that is a scanner class but not a disease, e.g. healthy leaves; diseases only), so the
 *   two tables keep one shape;
 * - scan_reports: what the farmer app reports after a scan (no photo, no person). The client
 *   makes the id, so a retried report is stored once; scan_report_counts and scan_report_weekly:
 *   their counts per day and per week.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['rice_local_pests', 'rice_local_diseases']) {
    await db.schema.alterTable(table).addColumn('localName', 'text').execute();
    await db.schema
      .alterTable(table)
      .addColumn('affectedParts', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('isTrainingClass', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .createTable('scan_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('diseaseId', 'text')
    .addColumn('confidence', 'real', (c) => c.notNull())
    .addColumn('modelVersion', 'text', (c) => c.notNull())
    .addColumn('scannedAt', 'text', (c) => c.notNull())
    .addColumn('receivedAt', 'text', (c) => c.notNull())
    .addColumn('municipality', 'text')
    .addColumn('barangay', 'text')
    .addColumn('installId', 'text', (c) => c.notNull())
    .execute();
  // Retention deletes by scan time.
  await db.schema.createIndex('scan_reports_scanned_idx').on('scan_reports').column('scannedAt').execute();
  // The dashboard reads daily counts (Manila date of the scan, disease, municipality; '' when
  // not given), kept in the report's own transaction, so its queries stay small at any volume.
  await db.schema
    .createTable('scan_report_counts')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('diseaseId', 'text', (c) => c.notNull())
    .addColumn('municipality', 'text', (c) => c.notNull())
    .addColumn('reports', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_report_counts_pk', ['day', 'diseaseId', 'municipality'])
    .execute();
  // The same per week (its Monday): the 12-week chart and its CSV read a few thousand rows at most.
  await db.schema
    .createTable('scan_report_weekly')
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('diseaseId', 'text', (c) => c.notNull())
    .addColumn('municipality', 'text', (c) => c.notNull())
    .addColumn('reports', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_report_weekly_pk', ['week', 'diseaseId', 'municipality'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scan_report_weekly').ifExists().execute();
  await db.schema.dropTable('scan_report_counts').ifExists().execute();
  await db.schema.dropTable('scan_reports').ifExists().execute();
  for (const table of ['rice_local_pests', 'rice_local_diseases']) {
    await db.schema.alterTable(table).dropColumn('isTrainingClass').execute();
    await db.schema.alterTable(table).dropColumn('affectedParts').execute();
    await db.schema.alterTable(table).dropColumn('localName').execute();
  }
}
