import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../../../../db/types.js';
import type { LoginChallengesTable, SecondFactorsTable } from '../../../../db/types/accounts.js';
import { newId } from '../../../../platform/support/clock.js';

type Db = Kysely<Database> | Transaction<Database>;
export type SecondFactorRow = Selectable<SecondFactorsTable>;
export type ChallengeRow = Selectable<LoginChallengesTable>;

/** Queries of second factors, recovery codes and challenges (migration 170). */
export const secondFactorRepository = {
  find(db: Db, accountId: string): Promise<SecondFactorRow | undefined> {
    return db.selectFrom('second_factors').selectAll().where('accountId', '=', accountId).executeTakeFirst();
  },

  async insert(db: Db, values: Insertable<SecondFactorsTable>): Promise<void> {
    await db.insertInto('second_factors').values(values).execute();
  },

  /** Removes the factor and its recovery codes; true when there was one. */
  async remove(db: Db, accountId: string): Promise<boolean> {
    await db.deleteFrom('second_factor_recovery_codes').where('accountId', '=', accountId).execute();
    const r = await db.deleteFrom('second_factors').where('accountId', '=', accountId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  /** Records the step of an accepted code, only if it is later than the last one (no replay, even concurrently). */
  async advanceTimeStep(db: Db, accountId: string, step: number): Promise<boolean> {
    const r = await db
      .updateTable('second_factors')
      .set({ lastTimeStep: step })
      .where('accountId', '=', accountId)
      .where('lastTimeStep', '<', step)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  async replaceRecoveryCodes(db: Db, accountId: string, hashes: string[], now: string): Promise<void> {
    await db.deleteFrom('second_factor_recovery_codes').where('accountId', '=', accountId).execute();
    await db
      .insertInto('second_factor_recovery_codes')
      .values(hashes.map((codeHash) => ({ id: newId(), accountId, codeHash, createdAt: now, usedAt: null })))
      .execute();
  },

  /** True when the account holds this recovery code, not yet used. */
  async hasUnusedRecoveryCode(db: Db, accountId: string, codeHash: string): Promise<boolean> {
    const row = await db
      .selectFrom('second_factor_recovery_codes')
      .select('id')
      .where('accountId', '=', accountId)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Marks an unused code of the account used; false when there is none (wrong, or used already). */
  async useRecoveryCode(db: Db, accountId: string, codeHash: string, now: string): Promise<boolean> {
    const row = await db
      .selectFrom('second_factor_recovery_codes')
      .select('id')
      .where('accountId', '=', accountId)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    if (!row) return false;
    const r = await db
      .updateTable('second_factor_recovery_codes')
      .set({ usedAt: now })
      .where('id', '=', row.id)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  async recoveryCodesLeft(db: Db, accountId: string): Promise<number> {
    const row = await db
      .selectFrom('second_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', accountId)
      .where('usedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Which of these accounts have a second factor (for the accounts list). */
  async withFactor(db: Db, accountIds: string[]): Promise<Set<string>> {
    if (accountIds.length === 0) return new Set();
    const rows = await db.selectFrom('second_factors').select('accountId').where('accountId', 'in', accountIds).execute();
    return new Set(rows.map((r) => r.accountId));
  },

  async insertChallenge(db: Db, values: Insertable<LoginChallengesTable>): Promise<void> {
    await db.insertInto('login_challenges').values(values).execute();
  },

  findChallenge(db: Db, tokenHash: string): Promise<ChallengeRow | undefined> {
    return db.selectFrom('login_challenges').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
  },

  /** Uses a challenge once: false when another request used it first. */
  async useChallenge(db: Db, id: string, now: string): Promise<boolean> {
    const r = await db
      .updateTable('login_challenges')
      .set({ usedAt: now })
      .where('id', '=', id)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  /** Open challenges of an account end when its factor changes (a reset, turning off). */
  async endChallenges(db: Db, accountId: string, now: string): Promise<void> {
    await db.updateTable('login_challenges').set({ usedAt: now }).where('accountId', '=', accountId).where('usedAt', 'is', null).execute();
  },

  async pruneChallenges(db: Db, now: string): Promise<void> {
    await db.deleteFrom('login_challenges').where('expiresAt', '<', now).execute();
  },
};
