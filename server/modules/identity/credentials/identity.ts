import { REAUTH_WINDOW_MS, SETTINGS } from '../../../../common/profile.js';
import { SECOND_FACTOR } from '../../../../common/second-factor.js';
import { runCommand } from '../../../platform/writes/command.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { invalid } from '../../../platform/http/errors.js';
import { verifyPassword } from '../../../platform/identity/passwords.js';
import { markReauthenticated } from '../../../platform/identity/sessions.js';
import { signInLockKey } from '../../../platform/identity/throttle.js';
import { credentialsRepository } from './repository.js';
import { checkCode, CodeAlreadyUsed, consumeCode, type AcceptedCode } from './second-factor/codes.js';
import { secondFactorRepository } from './second-factor/repository.js';
import { lockedOut, noticeLockout, signInBudget } from './guesses.js';

/** What a request may carry to prove who sends it, and the form fields its errors belong to. */
export interface IdentityProof {
  password?: string | undefined;
  code?: string | undefined;
}

/**
 * Changes that could take an account over (its email, security question or answer, turning the
 * second factor off, new recovery codes) need the user's current password, and a code from the
 * app or a recovery code when the account has a second factor. Guesses count in the sign-in
 * budget before they are checked. A confirmation stands for REAUTH_WINDOW_MS in this session,
 * so a request without a proof passes within that time after one.
 */
export function identityCheck(ctx: AppContext) {
  const guesses = signInBudget(ctx);

  return async function confirmIdentity(
    auth: AuthContext,
    proof: IdentityProof,
    fields: { password: string; code: string } = { password: 'password', code: 'code' },
  ): Promise<void> {
    const password = proof.password ?? '';
    if (password === '') {
      if (auth.reauthAt && Date.now() - Date.parse(auth.reauthAt) < REAUTH_WINDOW_MS) return;
      invalid({ [fields.password]: SETTINGS.currentPasswordRequired });
    }
    const key = signInLockKey(auth.user.id);
    const spent = await guesses.spend(key);
    if (!spent.allowed) lockedOut(spent.retryAfterMs);
    const wrong = async (field: string, message: string): Promise<never> => {
      const lock = await guesses.failed(key, spent);
      if (lock.locked) {
        await noticeLockout(ctx, auth.user, 'password', lock, undefined);
        lockedOut(lock.lockMs);
      }
      invalid({ [field]: message });
    };

    if (!(await verifyPassword(password, await credentialsRepository.passwordOf(ctx.db, auth.user.id))).ok)
      return wrong(fields.password, SETTINGS.wrongCurrentPassword);
    const factor = await secondFactorRepository.find(ctx.db, auth.user.id);
    let accepted: AcceptedCode | null = null;
    if (factor) {
      if (!proof.code?.trim()) {
        await guesses.refund(key); // the password was right: no guess to count
        invalid({ [fields.code]: SECOND_FACTOR.codeRequired });
      }
      accepted = await checkCode(ctx.db, factor, proof.code);
      if (!accepted) return wrong(fields.code, SECOND_FACTOR.invalidCode);
    }
    const now = nowIso();
    try {
      await runCommand(ctx, null, async (trx) => {
        if (accepted) await consumeCode(trx, auth.user.id, accepted, now);
        await markReauthenticated(trx, auth.sessionId, now);
      });
    } catch (err) {
      // The same code used by another request meanwhile.
      if (err instanceof CodeAlreadyUsed) invalid({ [fields.code]: SECOND_FACTOR.invalidCode });
      throw err;
    }
    await guesses.succeeded(key);
  };
}
