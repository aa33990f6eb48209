import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;
/**
 * recovery: a question-recovery reset; email_link: a mailed reset link; unlock: a locked sign-in's mailed unlock link;
 * invitation: a new account's link to set its first password.
 */
export type TokenPurpose = 'recovery' | 'email_link' | 'unlock' | 'invitation';

/** The proofs of an account outside its second factor: its password hash, its reset links and recovery flows. */
export const credentialsRepository = {
  async passwordOf(db: Db, accountId: string): Promise<string | undefined> {
    const row = await db.selectFrom('accounts').select('password').where('id', '=', accountId).executeTakeFirst();
    return row?.password ?? undefined;
  },

  /** Unused reset links of the account (of one purpose, or all) stop working. */
  async retireTokens(db: Db, accountId: string, now: string, purpose?: TokenPurpose): Promise<void> {
    let q = db.updateTable('password_reset_tokens').set({ usedAt: now }).where('accountId', '=', accountId).where('usedAt', 'is', null);
    if (purpose) q = q.where('purpose', '=', purpose);
    await q.execute();
  },

  async insertToken(
    db: Db,
    row: { tokenHash: string; accountId: string; purpose: TokenPurpose; createdAt: string; expiresAt: string },
  ): Promise<void> {
    await db
      .insertInto('password_reset_tokens')
      .values({ ...row, usedAt: null })
      .execute();
  },

  /** The account's unused, unexpired token of this purpose with this hash, or undefined. */
  liveTokenOf(db: Db, accountId: string, tokenHash: string, purpose: TokenPurpose, now: string) {
    return db
      .selectFrom('password_reset_tokens')
      .select(['tokenHash', 'expiresAt'])
      .where('accountId', '=', accountId)
      .where('tokenHash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
  },

  /** Uses a token once: of two requests at once, one gets true. */
  async useToken(db: Db, tokenHash: string, purpose: TokenPurpose, now: string): Promise<boolean> {
    const r = await db
      .updateTable('password_reset_tokens')
      .set({ usedAt: now })
      .where('tokenHash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async deleteFlowsOf(db: Db, accountId: string): Promise<void> {
    await db.deleteFrom('recovery_flows').where('accountId', '=', accountId).execute();
  },
};
