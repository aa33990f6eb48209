import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/** Every table the product needs, with the indexes that serve the list searches and audit filters. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const text = 'text' as const;
  const double = sql`double precision`;

  await db.schema
    .createTable('accounts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('fullname', text, (c) => c.notNull())
    .addColumn('username', text, (c) => c.notNull())
    .addColumn('normalizedUsername', text, (c) => c.notNull().unique())
    .addColumn('email', text)
    .addColumn('normalizedEmail', text, (c) => c.unique())
    .addColumn('contactNo', text)
    .addColumn('photoURL', text)
    .addColumn('password', text, (c) => c.notNull())
    .addColumn('securityQuestion', text)
    .addColumn('securityAnswer', text)
    .addColumn('role', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('isRestricted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('restrictedAt', text)
    .addColumn('autoInactive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('autoInactiveAt', text)
    .addColumn('currentSession', text)
    .addColumn('lastLogin', text)
    .addColumn('lastLogoutAt', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text)
    .addColumn('isDeleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deletedAt', text)
    .addColumn('deletedBy', text)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('accounts_list_idx').on('accounts').columns(['isDeleted', 'createdAt']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id'))
    .addColumn('tokenHash', text, (c) => c.notNull().unique())
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('lastSeenAt', text, (c) => c.notNull())
    .addColumn('endedAt', text)
    .addColumn('endedReason', text)
    .addColumn('ip', text)
    .addColumn('userAgent', text)
    .execute();
  await db.schema.createIndex('sessions_account_idx').on('sessions').column('accountId').execute();

  await db.schema
    .createTable('rice_seed_varieties')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('varietyName', text, (c) => c.notNull())
    .addColumn('releaseName', text)
    .addColumn('yearRelease', text)
    .addColumn('breedingCode', text)
    .addColumn('breederOrigin', text)
    .addColumn('maturityDays', 'integer')
    .addColumn('averageYield', double)
    .addColumn('maxYield', double)
    .addColumn('plantHeight', 'integer')
    .addColumn('tillers', 'integer')
    .addColumn('location', text)
    .addColumn('season', text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('plantingMethod', text)
    .addColumn('environment', text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('recommendedInTarlac', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('isDeleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text)
    .addColumn('deletedAt', text)
    .addColumn('deletedBy', text)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('varieties_list_idx').on('rice_seed_varieties').columns(['isDeleted', 'createdAt']).execute();

  for (const table of ['rice_local_pests', 'rice_local_diseases']) {
    await db.schema
      .createTable(table)
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn('name', text, (c) => c.notNull())
      .addColumn('scientificName', text)
      .addColumn('description', text)
      .addColumn('cause', text)
      .addColumn('symptoms', text)
      .addColumn('treatments', text)
      .addColumn('mainImageUrl', text)
      .addColumn('isDeleted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('createdAt', text, (c) => c.notNull())
      .addColumn('updatedAt', text)
      .addColumn('deletedAt', text)
      .addColumn('deletedBy', text)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex(`${table}_list_idx`).on(table).columns(['isDeleted', 'createdAt']).execute();
  }

  await db.schema
    .createTable('catalog_images')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('collection', text, (c) => c.notNull())
    .addColumn('entryId', text)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('originalKey', text)
    .addColumn('displayKey', text)
    .addColumn('thumbKey', text)
    .addColumn('externalUrl', text)
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('mimeType', text)
    .addColumn('sizeBytes', 'integer')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('originalName', text)
    .addColumn('sha256', text)
    .addColumn('uploadedBy', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('linkedAt', text)
    .execute();
  await db.schema.createIndex('catalog_images_entry_idx').on('catalog_images').columns(['entryId', 'position']).execute();
  await db.schema.createIndex('catalog_images_staged_idx').on('catalog_images').columns(['linkedAt', 'createdAt']).execute();

  await db.schema
    .createTable('audit_logs')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', text, (c) => c.notNull().unique())
    .addColumn('userId', text)
    .addColumn('userName', text)
    .addColumn('userEmail', text)
    .addColumn('timestamp', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('collection', text)
    .addColumn('documentId', text)
    .addColumn('documentName', text)
    .addColumn('description', text)
    .addColumn('changes', text)
    .addColumn('details', text)
    .addColumn('actorId', text)
    .addColumn('performedBy', text)
    .addColumn('name', text)
    .execute();
  await db.schema.createIndex('audit_time_idx').on('audit_logs').columns(['timestamp', 'seq']).execute();
  await db.schema.createIndex('audit_user_idx').on('audit_logs').columns(['userId', 'timestamp', 'seq']).execute();
  await db.schema.createIndex('audit_actor_idx').on('audit_logs').columns(['actorId', 'timestamp']).execute();
  await db.schema.createIndex('audit_performed_idx').on('audit_logs').columns(['performedBy', 'timestamp']).execute();
  await db.schema.createIndex('audit_action_idx').on('audit_logs').columns(['action', 'timestamp', 'seq']).execute();
  await db.schema.createIndex('audit_collection_idx').on('audit_logs').columns(['collection', 'timestamp', 'seq']).execute();
  await db.schema.createIndex('audit_document_idx').on('audit_logs').column('documentId').execute();

  await db.schema
    .createTable('maintenance')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('data', text, (c) => c.notNull())
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('tokenHash', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id'))
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('expiresAt', text, (c) => c.notNull())
    .addColumn('usedAt', text)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'password_reset_tokens',
    'maintenance',
    'audit_logs',
    'catalog_images',
    'rice_local_diseases',
    'rice_local_pests',
    'rice_seed_varieties',
    'sessions',
    'accounts',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
