import type { Kysely } from 'kysely';

/**
 * The farmer app's scanner models: every uploaded model (its file in storage, the pixel
 * contract and thresholds the app applies, what each label means by record id), evaluations
 * on the training set's held-out photos with each photo's top predictions, and the history of
 * what was published to the live and pilot channels (the newest row of a channel is what it
 * serves, so a rollback is one more row).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scanner_models')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull().unique())
    .addColumn('fileKey', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'double precision', (c) => c.notNull())
    .addColumn('inputShape', 'text', (c) => c.notNull())
    .addColumn('inputType', 'text', (c) => c.notNull())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('thresholds', 'text', (c) => c.notNull())
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('recordVersion', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createdBy', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addUniqueConstraint('scanner_models_stage_number', ['stage', 'number'])
    .execute();

  await db.schema
    .createTable('model_evaluations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('modelId', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('split', 'text', (c) => c.notNull())
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('ratios', 'text', (c) => c.notNull())
    .addColumn('photoSetSha256', 'text', (c) => c.notNull())
    .addColumn('contractSha256', 'text', (c) => c.notNull())
    .addColumn('photoIds', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelRequested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimedBy', 'text')
    .addColumn('heartbeatAt', 'text')
    .addColumn('accuracy', 'double precision')
    .addColumn('macroF1', 'double precision')
    .addColumn('error', 'text')
    .addColumn('createdBy', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('finishedAt', 'text')
    .execute();
  await db.schema.createIndex('model_evaluations_model').on('model_evaluations').columns(['modelId', 'createdAt']).execute();
  await db.schema.createIndex('model_evaluations_state').on('model_evaluations').columns(['state']).execute();

  await db.schema
    .createTable('model_predictions')
    .addColumn('evaluationId', 'text', (c) => c.notNull())
    .addColumn('imageId', 'text', (c) => c.notNull())
    .addColumn('diseaseId', 'text', (c) => c.notNull())
    .addColumn('predicted', 'integer', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('top', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('model_predictions_pk', ['evaluationId', 'imageId'])
    .execute();

  await db.schema
    .createTable('model_publications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('modelId', 'text')
    .addColumn('share', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('overrideReason', 'text')
    .addColumn('createdBy', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addUniqueConstraint('model_publications_seq', ['stage', 'channel', 'seq'])
    .execute();

  // Scan reports per Manila day, model version and disease: Detections split by model.
  await db.schema
    .createTable('scan_report_models')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('modelVersion', 'text', (c) => c.notNull())
    .addColumn('diseaseId', 'text', (c) => c.notNull())
    .addColumn('reports', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_report_models_pk', ['day', 'modelVersion', 'diseaseId'])
    .execute();
  // The reports kept so far, counted the way the intake counts new ones.
  const counts = new Map<string, { day: string; modelVersion: string; diseaseId: string; reports: number }>();
  for (let after = ''; ;) {
    const rows = (await db
      .selectFrom('scan_reports')
      .select(['id', 'scannedAt', 'modelVersion', 'diseaseId'])
      .where('id', '>', after)
      .where('diseaseId', 'is not', null)
      .orderBy('id')
      .limit(5000)
      .execute()) as Array<{ id: string; scannedAt: string; modelVersion: string; diseaseId: string }>;
    if (rows.length === 0) break;
    for (const r of rows) {
      // Manila is UTC+8 all year.
      const day = new Date(Date.parse(r.scannedAt) + 8 * 3_600_000).toISOString().slice(0, 10);
      const key = `${day}\n${r.modelVersion}\n${r.diseaseId}`;
      const c = counts.get(key) ?? counts.set(key, { day, modelVersion: r.modelVersion, diseaseId: r.diseaseId, reports: 0 }).get(key)!;
      c.reports += 1;
    }
    after = rows[rows.length - 1]!.id;
  }
  const values = [...counts.values()];
  for (let i = 0; i < values.length; i += 500)
    await db
      .insertInto('scan_report_models')
      .values(values.slice(i, i + 500))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['scan_report_models', 'model_publications', 'model_predictions', 'model_evaluations', 'scanner_models'])
    await db.schema.dropTable(table).execute();
}
