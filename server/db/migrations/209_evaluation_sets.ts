import type { Kysely } from 'kysely';

/**
 * Evaluation sets: labelled photos a super admin uploads as a ZIP (a model team's own field test
 * set, a public set) to evaluate scanner models on, kept apart from the farmer content. A set is
 * written once: its photos (cleaned of location, each mapped from its folder's label to a disease
 * or training-class record), the ZIP's sha256, and the pairs of its photos that are near-copies
 * of training photos (`leaks`, JSON, found at upload). An evaluation names the set it scored
 * (`evaluationSetId`, and its name, kept after the set is deleted).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('evaluation_sets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fileName', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('sizeBytes', 'double precision', (c) => c.notNull())
    .addColumn('photoCount', 'integer', (c) => c.notNull())
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('leakCount', 'integer', (c) => c.notNull())
    .addColumn('leaks', 'text', (c) => c.notNull())
    .addColumn('createdBy', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('evaluation_set_photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('setId', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('fileName', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('recordId', 'text', (c) => c.notNull())
    .addColumn('originalKey', 'text', (c) => c.notNull())
    .addColumn('thumbKey', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('phash', 'text')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evaluation_set_photos_set').on('evaluation_set_photos').columns(['setId', 'position']).execute();

  await db.schema.alterTable('model_evaluations').addColumn('evaluationSetId', 'text').execute();
  await db.schema.alterTable('model_evaluations').addColumn('evaluationSetName', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model_evaluations').dropColumn('evaluationSetName').execute();
  await db.schema.alterTable('model_evaluations').dropColumn('evaluationSetId').execute();
  await db.schema.dropTable('evaluation_set_photos').execute();
  await db.schema.dropTable('evaluation_sets').execute();
}
