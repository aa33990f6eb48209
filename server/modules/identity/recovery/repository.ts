import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

import type { TokenPurpose } from '../credentials/index.js';

export type { TokenPurpose };

/** Queries of password recovery: flows, wrong-answer counts, reset tokens and the new password. */
export const recoveryRepository = {
  async insertFlow(db: Db, row: { id: string; accountId: string; ip: string | null; createdAt: string; expiresAt: string }): Promise<void> {
    await db
      .insertInto('recovery_flows')
      .values({ ...row, verifiedAt: null })
      .execute();
  },

  findFlow(db: Db, id: string) {
    return db.selectFrom('recovery_flows').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Marks a live, unverified flow verified; 0 when it was already used or has expired. */
  async verifyFlow(db: Db, id: string, now: string): Promise<number> {
    const r = await db
      .updateTable('recovery_flows')
      .set({ verifiedAt: now })
      .where('id', '=', id)
      .where('verifiedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  async deleteExpiredFlows(db: Db, now: string): Promise<void> {
    await db.deleteFrom('recovery_flows').where('expiresAt', '<=', now).execute();
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

  /** A token that is unused and not expired, or undefined. */
  findLiveToken(db: Db, tokenHash: string, purpose: TokenPurpose, now: string) {
    return db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('tokenHash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
  },

  /** Uses a token once: only one of two concurrent requests gets 1. */
  async consumeToken(db: Db, tokenHash: string, purpose: TokenPurpose, now: string): Promise<number> {
    const r = await db
      .updateTable('password_reset_tokens')
      .set({ usedAt: now })
      .where('tokenHash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  /** Retires every unused token of an account (all purposes when none is given). */
  async setPassword(db: Db, accountId: string, hash: string, now: string): Promise<void> {
    await db
      .updateTable('accounts')
      .set({ password: hash, updatedAt: now, version: sql<number>`version + 1` })
      .where('id', '=', accountId)
      .execute();
  },

  /** Replaces a legacy plain-text answer by its hash (not a user-visible change: no new version). */
  async setAnswerHash(db: Db, accountId: string, plain: string, hash: string): Promise<void> {
    await db
      .updateTable('accounts')
      .set({ securityAnswer: hash })
      .where('id', '=', accountId)
      .where('securityAnswer', '=', plain)
      .execute();
  },
};
