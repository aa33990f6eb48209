import { sql, type Kysely } from 'kysely';

/**
 * Review before publishing. review_settings: which collections' saves wait for a second
 * account. pending_changes: a proposed save (its input as the collection's route received it,
 * the published edit version it was based on, its author and state); the record keeps its
 * published state until the change is published. review_photo_holds: staged photos a pending
 * change names, kept past the staged clean-up and shown to reviewers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('review_settings')
    .addColumn('collection', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .addColumn('updatedBy', 'text')
    .execute();

  await db.schema
    .createTable('pending_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('recordId', 'text')
    .addColumn('recordName', 'text', (c) => c.notNull())
    .addColumn('baseVersion', 'integer')
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('authorId', 'text', (c) => c.notNull())
    .addColumn('authorRole', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('submittedAt', 'text', (c) => c.notNull())
    .addColumn('reviewerId', 'text')
    .addColumn('reviewedAt', 'text')
    .addColumn('comment', 'text')
    .addColumn('scheduledAt', 'text')
    .addColumn('scheduledBy', 'text')
    .addColumn('publishedAt', 'text')
    .addColumn('publishedBy', 'text')
    .addColumn('breakGlassReason', 'text')
    .addColumn('publishError', 'text')
    .execute();
  // The queue: open changes by age; a record's open change; the scheduled ones that are due.
  await db.schema.createIndex('pending_changes_state_submitted').on('pending_changes').columns(['state', 'submittedAt', 'id']).execute();
  await db.schema.createIndex('pending_changes_record').on('pending_changes').columns(['collection', 'recordId', 'state']).execute();
  // One open change a record: two authors saving at once cannot both hold it.
  await sql`create unique index pending_changes_one_open on pending_changes ("collection", "recordId")
    where "recordId" is not null and "state" in ('pending', 'approved', 'rejected', 'failed')`.execute(db);
  await db.schema.createIndex('pending_changes_author').on('pending_changes').columns(['authorId', 'state']).execute();
  await db.schema.createIndex('pending_changes_scheduled').on('pending_changes').columns(['scheduledAt']).execute();

  await db.schema
    .createTable('review_photo_holds')
    .addColumn('changeId', 'text', (c) => c.notNull())
    .addColumn('imageId', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('review_photo_holds_pk', ['changeId', 'imageId'])
    .execute();
  await db.schema.createIndex('review_photo_holds_image').on('review_photo_holds').column('imageId').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_photo_holds').execute();
  await db.schema.dropTable('pending_changes').execute();
  await db.schema.dropTable('review_settings').execute();
}
