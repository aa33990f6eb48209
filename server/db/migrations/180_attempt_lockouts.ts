import type { Kysely } from 'kysely';

/**
 * Attempt budgets that lock (wrong passwords, codes and security answers): a key whose budget
 * ran out is locked until lockedUntil, and lockouts counts its lockouts in a row, so each one
 * lasts longer than the last. Plain rate limits leave both columns empty. Wrong security
 * answers count in such a budget, so recovery_failures is dropped (a pause under way at the
 * upgrade ends early).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('throttles').addColumn('lockedUntil', 'text').execute();
  await db.schema
    .alterTable('throttles')
    .addColumn('lockouts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropTable('recovery_failures').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recovery_failures')
    .addColumn('accountId', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastFailedAt', 'text', (c) => c.notNull())
    .addColumn('pausedUntil', 'text')
    .execute();
  await db.schema.alterTable('throttles').dropColumn('lockouts').execute();
  await db.schema.alterTable('throttles').dropColumn('lockedUntil').execute();
}
