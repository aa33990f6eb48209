import type { Kysely, Transaction } from 'kysely';
import { linkOrigin } from '../../../config.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import { randomToken, sha256 } from '../../../platform/identity/passwords.js';
import { fail } from '../../../platform/http/errors.js';
import { credentialsRepository as repo } from './repository.js';
import { checkCode, consumeCode } from './second-factor/codes.js';
import { secondFactorRepository } from './second-factor/repository.js';

type AcceptedCode = NonNullable<Awaited<ReturnType<typeof checkCode>>>;

/**
 * An unlock link: how the owner of an account without a second factor gets past a sign-in lock
 * that someone else's wrong passwords set, without waiting and without a super admin (as mature
 * frameworks mail one). Each lockout's notice carries a new one: random, only its SHA-256
 * stored, for this account only, good for an hour and for one sign-in, and it opens nothing by
 * itself: the login form sends it with the password, and those tries count in the unlock budget
 * (guesses.ts unlockBudget) under that link before they are checked, so links someone made up
 * spend their own budgets, never the owner's.
 */
export const UNLOCK_LINK_TTL_MS = 60 * 60_000;

/**
 * A new link for the lockout notice; null for an account with a second factor (its code is the
 * proof) or no address. The caller leaves it out for a role that must use a second factor.
 */
export async function issueUnlockLink(ctx: AppContext, account: { id: string; email: string | null }): Promise<string | null> {
  if (!account.email?.trim() || (await secondFactorRepository.find(ctx.db, account.id))) return null;
  const token = randomToken();
  const now = Date.now();
  await repo.insertToken(ctx.db, {
    tokenHash: sha256(token),
    accountId: account.id,
    purpose: 'unlock',
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + UNLOCK_LINK_TTL_MS).toISOString(),
  });
  return `${linkOrigin(ctx.config)}/login#unlock=${encodeURIComponent(token)}`;
}

/** The unlock budget's key for tries with one link: each link has its own 5 tries. */
export const unlockLinkBudgetKey = (accountId: string, token: string): string => `link:${accountId}:${sha256(token).slice(0, 32)}`;

/** What proves a locked account's owner beside the password, checked and nothing used up. */
export type LockedProof = { kind: 'code'; accepted: AcceptedCode } | { kind: 'link'; token: string };

/**
 * The proof a locked sign-in carries: with a second factor, an app or recovery code (never a
 * link); without one, this account's unused, current unlock link. null when it has none.
 */
export async function lockedProof(
  db: Kysely<Database>,
  accountId: string,
  input: { code?: string | undefined; unlockToken?: string | undefined },
  linkAllowed: boolean,
): Promise<LockedProof | null> {
  const factor = await secondFactorRepository.find(db, accountId);
  if (factor) {
    const accepted = await checkCode(db, factor, input.code ?? '');
    return accepted ? { kind: 'code', accepted } : null;
  }
  // A role that must use a second factor sets one up at its next sign-in: no link skips that.
  if (!input.unlockToken || !linkAllowed) return null;
  const live = await repo.liveTokenOf(db, accountId, sha256(input.unlockToken), 'unlock', new Date().toISOString());
  return live ? { kind: 'link', token: input.unlockToken } : null;
}

/** Uses the proof up in the sign-in's transaction: a 401 when another request used it first. */
export async function useLockedProof(trx: Transaction<Database>, accountId: string, proof: LockedProof, now: string): Promise<void> {
  if (proof.kind === 'code') await consumeCode(trx, accountId, proof.accepted, now);
  else if (!(await repo.useToken(trx, sha256(proof.token), 'unlock', now))) fail('INVALID_UNLOCK');
}
