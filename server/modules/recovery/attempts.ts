import { RECOVERY, RECOVERY_LIMITS } from '../../../common/settings.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import { runCommand } from '../../platform/command.js';
import { isoIn, nowIso } from '../../platform/clock.js';
import type { AppContext } from '../../platform/context.js';
import { fail } from '../../platform/errors.js';
import { Throttle } from '../../platform/throttle.js';
import type { AccountRow } from '../accounts/repository.js';
import { recoveryRepository } from './repository.js';

/**
 * Failed recovery attempts. Wrong answers and unknown accounts count per IP and per account or
 * identifier and are audited; 5 wrong answers pause the account's question recovery for 15 minutes.
 */
export function recoveryAttempts(ctx: AppContext) {
  const { db } = ctx;
  const window = RECOVERY_LIMITS.failureWindowMs;
  // In the database, so every instance shares them: failures per client address and unknown
  // names per name typed (a known account's wrong answers count in recovery_failures).
  const ipFailures = new Throttle(db, 'recovery-ip', RECOVERY_LIMITS.ipFailures, window);
  const identifierFailures = new Throttle(db, 'recovery-name', RECOVERY_LIMITS.identifierFailures, window);

  async function assertIpAllowed(ip: string): Promise<void> {
    if ((await ipFailures.check(ip)).blocked) fail('RATE_LIMITED', RECOVERY.tooManyAttempts);
  }

  async function assertNotPaused(accountId: string): Promise<void> {
    const row = await recoveryRepository.findFailures(db, accountId);
    if (row?.pausedUntil && row.pausedUntil > nowIso()) {
      fail('RATE_LIMITED', RECOVERY.paused, undefined, { pausedUntil: row.pausedUntil });
    }
  }

  /** Counts a wrong question or answer for the account and the IP, and audits it. */
  async function recordWrong(account: AccountRow, ip: string, outcome: 'question_mismatch' | 'wrong_answer'): Promise<void> {
    await ipFailures.hit(ip);
    const now = nowIso();
    await runCommand(ctx, SYSTEM_ACTOR, async (trx, cmd) => {
      const row = await recoveryRepository.findFailures(trx, account.id);
      const recent = row && Date.parse(row.lastFailedAt) > Date.now() - window ? row.failures : 0;
      const failures = recent + 1;
      const paused = failures >= RECOVERY_LIMITS.maxWrongAnswers;
      const pausedUntil = paused ? isoIn(RECOVERY_LIMITS.pauseMs) : null;
      await recoveryRepository.saveFailures(trx, { accountId: account.id, failures: paused ? 0 : failures, lastFailedAt: now, pausedUntil });
      await cmd.audit({
        action: 'LOGIN',
        collection: 'accounts',
        documentId: account.id,
        documentName: account.fullname,
        description: paused
          ? 'Password recovery: too many wrong answers, question recovery paused for 15 minutes'
          : outcome === 'wrong_answer' ? 'Password recovery: wrong security answer' : 'Password recovery: security question does not match',
        details: { step: 'verify', outcome, failures, paused, ip },
      });
    });
  }

  return { ipFailures, identifierFailures, assertIpAllowed, assertNotPaused, recordWrong };
}
