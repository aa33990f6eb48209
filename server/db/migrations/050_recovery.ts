import type { Kysely } from 'kysely';

/**
 * Password recovery state, shared by every server instance:
 * - recovery_flows: a started forgot-password recovery (step 1 done), known to the browser only
 *   by an opaque id whose sha256 is the key; step 2 marks it verified so it cannot be replayed.
 * - recovery_failures: wrong answers per account; 5 in a row pause question recovery.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recovery_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('accountId', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('ip', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text', (c) => c.notNull())
    .addColumn('verifiedAt', 'text')
    .execute();
  await db.schema.createIndex('recovery_flows_expiry_idx').on('recovery_flows').column('expiresAt').execute();

  await db.schema
    .createTable('recovery_failures')
    .addColumn('accountId', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastFailedAt', 'text', (c) => c.notNull())
    .addColumn('pausedUntil', 'text')
    .execute();

  await db.schema.createIndex('password_reset_tokens_account_idx').on('password_reset_tokens').columns(['accountId', 'purpose']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('password_reset_tokens_account_idx').ifExists().execute();
  await db.schema.dropTable('recovery_failures').ifExists().execute();
  await db.schema.dropTable('recovery_flows').ifExists().execute();
}
