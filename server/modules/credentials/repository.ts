import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;
export type TokenPurpose = 'recovery' | 'email_link';

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

  async deleteFlowsOf(db: Db, accountId: string): Promise<void> {
    await db.deleteFrom('recovery_flows').where('accountId', '=', accountId).execute();
  },
};
