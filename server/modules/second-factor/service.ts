import type { Transaction } from 'kysely';
import type { Role } from '../../../common/permissions.js';
import type {
  RecoveryCodesResult, SecondFactorEnableInput, SecondFactorProofInput, SecondFactorSetupStart, SecondFactorStatus,
} from '../../../common/schemas/two-factor.js';
import { normalizeSecondFactorCode, TWO_FACTOR, TWO_FACTOR_LIMITS } from '../../../common/two-factor.js';
import type { AdminAccount } from '../../../common/schemas/accounts.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../platform/clock.js';
import { runCommand, type Command } from '../../platform/command.js';
import type { AppContext, AuthContext } from '../../platform/context.js';
import { AppError, fail, invalid } from '../../platform/errors.js';
import { verifyPassword } from '../../platform/passwords.js';
import { minutesToWait, Throttle } from '../../platform/throttle.js';
import { LOGIN } from '../../../common/texts.js';
import { toAdminAccount } from '../accounts/presenter.js';
import { accountsRepository } from '../accounts/repository.js';
import { findOpenChallenge, newChallenge } from './challenges.js';
import { checkCode, CodeAlreadyUsed, consumeCode, enableFactor, newRecoveryCodes, type AcceptedCode } from './codes.js';
import { secondFactorRepository as repo, type SecondFactorRow } from './repository.js';
import { checkTotp, newTotpSecret, setupOf } from './totp.js';

export function isRequiredFor(config: Pick<Config, 'require2faFor'>, role: Role): boolean {
  return config.require2faFor.includes(role);
}

/**
 * Account Settings' two-step sign-in (own account; super admins: permission
 * secondFactor.manageOwn), and a super admin's reset of another account's.
 * Refusals here are 400/409, never 401: a 401 would sign the browser out.
 */
export function createSecondFactorService(ctx: AppContext) {
  const { db, config } = ctx;
  // The same per-account budget as wrong passwords at login (auth/service.ts).
  const failures = new Throttle(db, 'login-failures', config.loginFailuresPerAccount, config.loginFailureWindowMs);

  async function status(accountId: string, role: Role): Promise<SecondFactorStatus> {
    const factor = await repo.find(db, accountId);
    return {
      enabled: Boolean(factor),
      enabledAt: factor?.enabledAt ?? null,
      recoveryCodesLeft: factor ? await repo.recoveryCodesLeft(db, accountId) : 0,
      required: isRequiredFor(config, role),
    };
  }

  async function requireFactor(accountId: string): Promise<SecondFactorRow> {
    const factor = await repo.find(db, accountId);
    if (!factor) fail('CONFLICT', TWO_FACTOR.notOn);
    return factor;
  }

  /**
   * A current code (app or recovery) or the password. Wrong ones count with wrong passwords
   * and lock the account the same way. Returns the code to use up, if a code was given.
   */
  async function checkProof(auth: AuthContext, factor: SecondFactorRow, proof: SecondFactorProofInput): Promise<AcceptedCode | null> {
    const key = `account:${auth.user.id}`;
    const lockedOut = (retryAfterMs: number): never =>
      fail('RATE_LIMITED', LOGIN.locked(minutesToWait(retryAfterMs)), undefined, { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) });
    const before = await failures.check(key);
    if (before.blocked) lockedOut(before.retryAfterMs);
    if (proof.code?.trim()) {
      const accepted = await checkCode(db, factor, proof.code);
      if (accepted) return accepted;
      const after = await failures.hit(key);
      if (after.blocked) lockedOut(after.retryAfterMs);
      invalid({ code: TWO_FACTOR.invalidCode });
    }
    const account = await accountsRepository.findById(db, auth.user.id);
    const check = await verifyPassword(proof.password ?? '', account?.password);
    if (check.ok) return null;
    const after = await failures.hit(key);
    if (after.blocked) lockedOut(after.retryAfterMs);
    invalid({ password: TWO_FACTOR.wrongPassword });
  }

  /** Runs a change that uses up a code; a code used meanwhile by another request is a wrong code. */
  async function withCode<T>(auth: AuthContext, accepted: AcceptedCode | null, work: (trx: Transaction<Database>, cmd: Command, now: string) => Promise<T>): Promise<T> {
    const now = nowIso();
    try {
      return await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (accepted) await consumeCode(trx, auth.user.id, accepted, now);
        return work(trx, cmd, now);
      });
    } catch (err) {
      if (err instanceof CodeAlreadyUsed) {
        await failures.hit(`account:${auth.user.id}`);
        invalid({ code: TWO_FACTOR.invalidCode });
      }
      throw err;
    }
  }

  return {
    status: (auth: AuthContext) => status(auth.user.id, auth.role),

    /** A new key, pending until confirmed with a code (10 minutes). */
    async startSetup(auth: AuthContext): Promise<SecondFactorSetupStart> {
      if (await repo.find(db, auth.user.id)) fail('CONFLICT', TWO_FACTOR.alreadyOn);
      const secret = newTotpSecret();
      const setupToken = await newChallenge(db, auth.user.id, 'setup', secret, TWO_FACTOR_LIMITS.setupTtlMs);
      return { setupToken, ...(await setupOf(secret, auth.user.username)) };
    },

    /** Confirms the pending key with a code from the app; the ten recovery codes are returned once. */
    async enable(auth: AuthContext, input: SecondFactorEnableInput): Promise<RecoveryCodesResult> {
      const challenge = await findOpenChallenge(db, input.setupToken, ['setup']);
      if (!challenge || challenge.accountId !== auth.user.id || !challenge.pendingSecret) fail('CONFLICT', TWO_FACTOR.setupExpired);
      if (await repo.find(db, auth.user.id)) fail('CONFLICT', TWO_FACTOR.alreadyOn);
      const step = await checkTotp(challenge.pendingSecret, normalizeSecondFactorCode(input.code));
      if (step === null) invalid({ code: TWO_FACTOR.invalidCode });
      let codes: string[];
      try {
        codes = await runCommand(ctx, auth.actor, async (trx, cmd) => {
          const now = nowIso();
          if (!(await repo.useChallenge(trx, challenge.id, now))) fail('CONFLICT', TWO_FACTOR.setupExpired);
          return enableFactor(trx, cmd, { id: auth.user.id, fullname: auth.user.fullname }, challenge.pendingSecret!, step, now);
        });
      } catch (err) {
        // Two confirmations at once: the second finds the factor on (primary key).
        if (!(err instanceof AppError) && (await repo.find(db, auth.user.id))) fail('CONFLICT', TWO_FACTOR.alreadyOn);
        throw err;
      }
      return { recoveryCodes: codes, status: await status(auth.user.id, auth.role) };
    },

    /** Turns it off (not when REQUIRE_2FA_FOR names the role); needs a current code or the password. */
    async disable(auth: AuthContext, proof: SecondFactorProofInput): Promise<SecondFactorStatus> {
      if (isRequiredFor(config, auth.role)) fail('CONFLICT', TWO_FACTOR.requiredForRole);
      const factor = await requireFactor(auth.user.id);
      const accepted = await checkProof(auth, factor, proof);
      await withCode(auth, accepted, async (trx, cmd, now) => {
        await repo.remove(trx, auth.user.id);
        await repo.endChallenges(trx, auth.user.id, now);
        cmd.publish({ topic: 'accounts', id: auth.user.id, op: 'update' });
        await cmd.audit({
          action: 'SECOND_FACTOR',
          collection: 'accounts',
          documentId: auth.user.id,
          documentName: auth.user.fullname,
          description: 'Turned off two-step sign-in',
          details: { confirmedWith: accepted ? 'code' : 'password' },
        });
      });
      return status(auth.user.id, auth.role);
    },

    /** Ten new recovery codes (the old ones stop working); needs a current code or the password. */
    async regenerateCodes(auth: AuthContext, proof: SecondFactorProofInput): Promise<RecoveryCodesResult> {
      const factor = await requireFactor(auth.user.id);
      const accepted = await checkProof(auth, factor, proof);
      const codes = await withCode(auth, accepted, async (trx, cmd, now) => {
        const fresh = newRecoveryCodes();
        await repo.replaceRecoveryCodes(trx, auth.user.id, fresh.hashes, now);
        cmd.publish({ topic: 'accounts', id: auth.user.id, op: 'update' });
        await cmd.audit({
          action: 'SECOND_FACTOR',
          collection: 'accounts',
          documentId: auth.user.id,
          documentName: auth.user.fullname,
          description: 'Made new recovery codes',
          details: { recoveryCodes: fresh.codes.length, confirmedWith: accepted ? 'code' : 'password' },
        });
        return fresh.codes;
      });
      return { recoveryCodes: codes, status: await status(auth.user.id, auth.role) };
    },

    /** A super admin removes another account's second factor (lost phone); audited. */
    async reset(targetId: string, auth: AuthContext): Promise<AdminAccount> {
      if (targetId === auth.user.id) fail('CONFLICT', TWO_FACTOR.resetOwn);
      const target = await accountsRepository.findLive(db, targetId);
      if (!target) fail('NOT_FOUND');
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (!(await repo.remove(trx, target.id))) fail('CONFLICT', TWO_FACTOR.notOn);
        await repo.endChallenges(trx, target.id, nowIso());
        cmd.publish({ topic: 'accounts', id: target.id, op: 'update' });
        await cmd.audit({
          action: 'SECOND_FACTOR',
          collection: 'accounts',
          documentId: target.id,
          documentName: target.fullname,
          description: `Reset two-step sign-in of ${target.fullname}`,
        });
      });
      const fresh = await accountsRepository.findLive(db, target.id);
      return toAdminAccount(fresh!);
    },
  };
}
