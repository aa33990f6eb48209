import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Command } from '../../platform/writes/command.js';
import { forgetSignInLock } from '../../platform/identity/throttle.js';
import { recoveryRepository } from '../recovery/repository.js';
import { secondFactorRepository } from '../second-factor/repository.js';
import { accountsRepository } from './repository.js';

/**
 * Voids what could still set or bypass the account's password: unused reset links, recovery
 * flows under way and sign-in challenges waiting for a code; and ends its sign-in lock. Run in the transaction of every
 * password change and reset, and of a restore.
 */
export async function voidPasswordProofs(trx: Transaction<Database>, accountId: string, now: string): Promise<void> {
  // A new password ends a sign-in lock: the guesses were against the old one.
  await forgetSignInLock(trx, accountId);
  await recoveryRepository.retireTokens(trx, accountId, now);
  await recoveryRepository.deleteFlowsOf(trx, accountId);
  await secondFactorRepository.endChallenges(trx, accountId, now);
}

/** The reset links mailed to the old address stop working when the account's email changes. */
export async function voidEmailedLinks(trx: Transaction<Database>, accountId: string, now: string): Promise<void> {
  await recoveryRepository.retireTokens(trx, accountId, now, 'email_link');
}

/**
 * An account back from the trash holds none of its old keys: it comes back restricted, without
 * its password, security question and answer, second factor, reset links, recovery flows,
 * sign-in challenges or sessions. A super admin unrestricts it and sets a new password in its
 * edit form. Returns what changed, for the restore's audit entry.
 */
export async function disarmRestoredAccount(trx: Transaction<Database>, cmd: Command, accountId: string, now: string): Promise<Record<string, unknown>> {
  await accountsRepository.update(trx, accountId, {
    status: 'restricted', isRestricted: 1, restrictedAt: now, password: '', securityQuestion: null, securityAnswer: null, currentSession: null,
  });
  await cmd.endSessions(accountId, 'restricted');
  await voidPasswordProofs(trx, accountId, now);
  const hadFactor = await secondFactorRepository.remove(trx, accountId);
  return { status: 'restricted', isRestricted: true, password: '(cleared)', securityQuestion: '(cleared)', secondFactor: hadFactor ? '(removed)' : 'none' };
}
