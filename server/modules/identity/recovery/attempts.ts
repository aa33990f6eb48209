import { clientKey } from '../../../platform/http/client-address.js';
import { RECOVERY, RECOVERY_LIMITS } from '../../../../common/profile.js';
import { SYSTEM_ACTOR } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { AttemptBudget, minutesToWait, Throttle, type BudgetSpend } from '../../../platform/identity/throttle.js';
import type { AccountRow } from '../accounts/index.js';
import { noticeLockout } from '../credentials/index.js';

/**
 * Failed recovery attempts. Each question and answer is counted per account before it is
 * checked (5 within the window; the 5th wrong one pauses the account's question recovery for
 * 15 minutes, twice as long at each pause in a row); wrong ones and unknown accounts also count
 * per IP and per name typed, and are audited.
 */
export function recoveryAttempts(ctx: AppContext) {
  const { db } = ctx;
  const window = RECOVERY_LIMITS.failureWindowMs;
  // In the database, so every instance shares them.
  const ipFailures = new Throttle(db, 'recovery-ip', RECOVERY_LIMITS.ipFailures, window, clientKey);
  const identifierFailures = new Throttle(db, 'recovery-name', RECOVERY_LIMITS.identifierFailures, window);
  const answers = new AttemptBudget(db, 'recovery-answer', RECOVERY_LIMITS.maxWrongAnswers, window, RECOVERY_LIMITS.pauseMs);

  function paused(retryAfterMs: number): never {
    fail('RATE_LIMITED', RECOVERY.paused(minutesToWait(retryAfterMs)), undefined, {
      pausedUntil: new Date(Date.now() + retryAfterMs).toISOString(),
    });
  }

  async function assertIpAllowed(ip: string): Promise<void> {
    if ((await ipFailures.check(ip)).blocked) fail('RATE_LIMITED', RECOVERY.tooManyAttempts);
  }

  /** Step 1 tells a paused account at once (nothing is counted). */
  async function assertNotPaused(accountId: string): Promise<void> {
    const left = await answers.lockedFor(accountId);
    if (left > 0) paused(left);
  }

  /** Counts one question-and-answer attempt before it is checked; a spent budget is a pause. */
  async function spendAnswer(accountId: string): Promise<BudgetSpend> {
    const spent = await answers.spend(accountId);
    if (!spent.allowed) paused(spent.retryAfterMs);
    return spent;
  }

  /** A wrong question or answer: counted for the IP, audited, and the last one of the budget pauses. */
  async function recordWrong(
    account: AccountRow,
    spent: BudgetSpend,
    ip: string,
    outcome: 'question_mismatch' | 'wrong_answer',
  ): Promise<void> {
    await ipFailures.hit(ip);
    const lock = await answers.failed(account.id, spent);
    await runCommand(ctx, SYSTEM_ACTOR, (_trx, cmd) =>
      cmd.audit({
        action: 'LOGIN',
        collection: 'accounts',
        documentId: account.id,
        documentName: account.fullname,
        description:
          outcome === 'wrong_answer' ? 'Password recovery: wrong security answer' : 'Password recovery: security question does not match',
        details: { step: 'verify', outcome, failures: spent.used, paused: lock.locked, ip },
      }),
    );
    if (lock.locked) await noticeLockout(ctx, account, 'answer', lock, ip);
  }

  /** A right answer: the account's count and pauses are forgotten. */
  const answered = (accountId: string) => answers.succeeded(accountId);

  return { ipFailures, identifierFailures, assertIpAllowed, assertNotPaused, spendAnswer, recordWrong, answered };
}
