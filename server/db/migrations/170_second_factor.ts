import type { Kysely } from 'kysely';

/**
 * Two-step sign-in (issue 17), kept out of the accounts row so no account presenter can leak it:
 * - second_factors: an account's TOTP key once confirmed, and the last time step a code was
 *   accepted for (a code of that step or an earlier one is refused: no replay);
 * - second_factor_recovery_codes: ten single-use codes per account, only their sha256 stored;
 * - login_challenges: the step between a correct password and the session ('verify': enter a
 *   code; 'enroll': set up a required second factor, its key pending here), and a setup started
 *   in Account Settings ('setup'). Known to the browser only by a random token; only its sha256
 *   is stored. Used once, within minutes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('second_factors')
    .addColumn('accountId', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabledAt', 'text', (c) => c.notNull())
    .addColumn('lastTimeStep', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('second_factor_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('accountId', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('codeHash', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('usedAt', 'text')
    .execute();
  await db.schema
    .createIndex('second_factor_recovery_codes_account_idx')
    .on('second_factor_recovery_codes')
    .columns(['accountId', 'codeHash'])
    .execute();

  await db.schema
    .createTable('login_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
    .addColumn('accountId', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('pendingSecret', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text', (c) => c.notNull())
    .addColumn('usedAt', 'text')
    .execute();
  await db.schema.createIndex('login_challenges_expiry_idx').on('login_challenges').column('expiresAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_challenges').ifExists().execute();
  await db.schema.dropTable('second_factor_recovery_codes').ifExists().execute();
  await db.schema.dropTable('second_factors').ifExists().execute();
}
