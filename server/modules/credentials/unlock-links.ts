import type { Kysely, Transaction } from 'kysely';
import { linkOrigin } from '../../config.js';
import type { Database } from '../../db/types.js';
import type { AppContext } from '../../platform/http/context.js';
import { randomToken, sha256 } from '../../platform/identity/passwords.js';
import { credentialsRepository as repo } from './repository.js';

/**
 * An unlock link: how the owner of an account without a second factor gets past a sign-in lock
 * that someone else's wrong passwords set, without waiting and without a super admin (as mature
 * frameworks mail one). Each lockout's notice carries a new one: random, only its SHA-256
 * stored, for this account only, good for an hour and for one sign-in, and it opens nothing by
 * itself: the login form sends it with the password, and those attempts count in the locked
 * account's own budget (guesses.ts unlockBudget) before they are checked.
 */
export const UNLOCK_LINK_TTL_MS = 60 * 60_000;

export async function issueUnlockLink(ctx: AppContext, accountId: string): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  await repo.insertToken(ctx.db, { tokenHash: sha256(token), accountId, purpose: 'unlock', createdAt: new Date(now).toISOString(), expiresAt: new Date(now + UNLOCK_LINK_TTL_MS).toISOString() });
  return `${linkOrigin(ctx.config)}/login#unlock=${encodeURIComponent(token)}`;
}

/** The link is this account's, unused and current (nothing is used up). */
export async function unlockLinkValid(db: Kysely<Database>, accountId: string, token: string): Promise<boolean> {
  return (await repo.liveTokenOf(db, accountId, sha256(token), 'unlock', new Date().toISOString())) !== undefined;
}

/** Uses the link up, in the sign-in's transaction: false when another request used it first. */
export function useUnlockLink(trx: Transaction<Database>, token: string, now: string): Promise<boolean> {
  return repo.useToken(trx, sha256(token), 'unlock', now);
}
