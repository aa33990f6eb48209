import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { Command } from '../../../platform/writes/command.js';
import { voidPasswordProofs } from '../credentials/index.js';
import { secondFactorRecords } from '../credentials/index.js';
import { accountsRepository } from './repository.js';

/**
 * An account back from the trash holds none of its old keys: it comes back restricted, without
 * its password, security question and answer, second factor, reset links, recovery flows,
 * sign-in challenges or sessions. A super admin unrestricts it and sets a new password in its
 * edit form. Returns what changed, for the restore's audit entry.
 */
export async function disarmRestoredAccount(
  trx: Transaction<Database>,
  cmd: Command,
  accountId: string,
  now: string,
): Promise<Record<string, unknown>> {
  await accountsRepository.update(trx, accountId, {
    status: 'restricted',
    isRestricted: 1,
    restrictedAt: now,
    password: '',
    securityQuestion: null,
    securityAnswer: null,
    currentSession: null,
  });
  await cmd.endSessions(accountId, 'restricted');
  await voidPasswordProofs(trx, accountId, now);
  const hadFactor = await secondFactorRecords.remove(trx, accountId);
  return {
    status: 'restricted',
    isRestricted: true,
    password: '(cleared)',
    securityQuestion: '(cleared)',
    secondFactor: hadFactor ? '(removed)' : 'none',
  };
}
