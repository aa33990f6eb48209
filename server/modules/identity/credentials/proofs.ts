import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import { forgetSignInLock } from '../../../platform/identity/throttle.js';
import { credentialsRepository } from './repository.js';
import { secondFactorRepository } from './second-factor/repository.js';

/**
 * Voids what could still set or bypass the account's password: unused reset links, recovery
 * flows under way and sign-in challenges waiting for a code; and ends its sign-in lock. Run in the transaction of every
 * password change and reset, and of a restore.
 */
export async function voidPasswordProofs(trx: Transaction<Database>, accountId: string, now: string): Promise<void> {
  // A new password ends a sign-in lock: the guesses were against the old one.
  await forgetSignInLock(trx, accountId);
  await credentialsRepository.retireTokens(trx, accountId, now);
  await credentialsRepository.deleteFlowsOf(trx, accountId);
  await secondFactorRepository.endChallenges(trx, accountId, now);
}

/** The reset links and the invitation mailed to the old address stop working when the account's email changes. */
export async function voidEmailedLinks(trx: Transaction<Database>, accountId: string, now: string): Promise<void> {
  await credentialsRepository.retireTokens(trx, accountId, now, 'email_link');
  await credentialsRepository.retireTokens(trx, accountId, now, 'invitation');
}
