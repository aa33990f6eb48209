import type { Role } from '../../../../common/permissions.js';
import type {
  RecoveryCodesResult,
  SecondFactorEnableInput,
  SecondFactorProofInput,
  SecondFactorSetupStart,
  SecondFactorStatus,
} from '../../../../common/schemas/second-factor.js';
import { normalizeSecondFactorCode, SECOND_FACTOR, SECOND_FACTOR_LIMITS } from '../../../../common/second-factor.js';
import type { AdminAccount, ReauthInput } from '../../../../common/schemas/accounts.js';
import type { Config } from '../../../config.js';
import { nowIso } from '../../../platform/support/clock.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { AppError, fail, invalid } from '../../../platform/http/errors.js';
import { toAdminAccount } from './presenter.js';
import { accountsRepository } from './repository.js';
import { identityCheck } from '../credentials/index.js';
import { findOpenChallenge, newChallenge } from '../credentials/index.js';
import { enableFactor, newRecoveryCodes } from '../credentials/index.js';
import { secondFactorRecords as repo, type SecondFactorRow } from '../credentials/index.js';
import { checkTotp, newTotpSecret, setupOf } from '../credentials/index.js';

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
  const confirmIdentity = identityCheck(ctx);

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
    if (!factor) fail('CONFLICT', SECOND_FACTOR.notOn);
    return factor;
  }

  return {
    status: (auth: AuthContext) => status(auth.user.id, auth.role),

    /**
     * A new key, pending until confirmed with a code (10 minutes). It needs the password
     * (identity.ts): a session alone must not enrol an authenticator its owner does not hold.
     */
    async startSetup(auth: AuthContext, proof: SecondFactorProofInput): Promise<SecondFactorSetupStart> {
      if (await repo.find(db, auth.user.id)) fail('CONFLICT', SECOND_FACTOR.alreadyOn);
      await confirmIdentity(auth, proof);
      const secret = newTotpSecret();
      const setupToken = await newChallenge(db, auth.user.id, 'setup', secret, SECOND_FACTOR_LIMITS.setupTtlMs);
      return { setupToken, ...(await setupOf(secret, auth.user.username)) };
    },

    /** Confirms the pending key with a code from the app; the ten recovery codes are returned once. */
    async enable(auth: AuthContext, input: SecondFactorEnableInput): Promise<RecoveryCodesResult> {
      const challenge = await findOpenChallenge(db, input.setupToken, ['setup']);
      if (!challenge || challenge.accountId !== auth.user.id || !challenge.pendingSecret) fail('CONFLICT', SECOND_FACTOR.setupExpired);
      if (await repo.find(db, auth.user.id)) fail('CONFLICT', SECOND_FACTOR.alreadyOn);
      const step = await checkTotp(challenge.pendingSecret, normalizeSecondFactorCode(input.code));
      if (step === null) invalid({ code: SECOND_FACTOR.invalidCode });
      let codes: string[];
      try {
        codes = await runCommand(ctx, auth.actor, async (trx, cmd) => {
          const now = nowIso();
          if (!(await repo.useChallenge(trx, challenge.id, now))) fail('CONFLICT', SECOND_FACTOR.setupExpired);
          return enableFactor(trx, cmd, { id: auth.user.id, fullname: auth.user.fullname }, challenge.pendingSecret!, step, now);
        });
      } catch (err) {
        // Two confirmations at once: the second finds the factor on (primary key).
        if (!(err instanceof AppError) && (await repo.find(db, auth.user.id))) fail('CONFLICT', SECOND_FACTOR.alreadyOn);
        throw err;
      }
      return { recoveryCodes: codes, status: await status(auth.user.id, auth.role) };
    },

    /** Turns it off (not when REQUIRE_2FA_FOR names the role); needs the password and a code (identity.ts). */
    async disable(auth: AuthContext, proof: SecondFactorProofInput): Promise<SecondFactorStatus> {
      if (isRequiredFor(config, auth.role)) fail('CONFLICT', SECOND_FACTOR.requiredForRole);
      await requireFactor(auth.user.id);
      await confirmIdentity(auth, proof);
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        const now = nowIso();
        await repo.remove(trx, auth.user.id);
        await repo.endChallenges(trx, auth.user.id, now);
        cmd.publish({ topic: 'accounts', id: auth.user.id, op: 'update' });
        await cmd.audit({
          action: 'SECOND_FACTOR',
          collection: 'accounts',
          documentId: auth.user.id,
          documentName: auth.user.fullname,
          description: 'Turned off two-step sign-in',
          details: { confirmed: proof.password ? 'password and code' : 'within the last 5 minutes' },
        });
      });
      return status(auth.user.id, auth.role);
    },

    /** Ten new recovery codes (the old ones stop working); needs the password and a code (identity.ts). */
    async regenerateCodes(auth: AuthContext, proof: SecondFactorProofInput): Promise<RecoveryCodesResult> {
      await requireFactor(auth.user.id);
      await confirmIdentity(auth, proof);
      const codes = await runCommand(ctx, auth.actor, async (trx, cmd) => {
        const now = nowIso();
        const fresh = newRecoveryCodes();
        await repo.replaceRecoveryCodes(trx, auth.user.id, fresh.hashes, now);
        cmd.publish({ topic: 'accounts', id: auth.user.id, op: 'update' });
        await cmd.audit({
          action: 'SECOND_FACTOR',
          collection: 'accounts',
          documentId: auth.user.id,
          documentName: auth.user.fullname,
          description: 'Made new recovery codes',
          details: { recoveryCodes: fresh.codes.length, confirmed: proof.password ? 'password and code' : 'within the last 5 minutes' },
        });
        return fresh.codes;
      });
      return { recoveryCodes: codes, status: await status(auth.user.id, auth.role) };
    },

    /** A super admin removes another account's second factor (lost phone); audited; needs the super admin's password (identity.ts). */
    async reset(targetId: string, auth: AuthContext, proof: ReauthInput): Promise<AdminAccount> {
      if (targetId === auth.user.id) fail('CONFLICT', SECOND_FACTOR.resetOwn);
      const target = await accountsRepository.findLive(db, targetId);
      if (!target) fail('NOT_FOUND');
      await confirmIdentity(auth, { password: proof.currentPassword, code: proof.code }, { password: 'currentPassword', code: 'code' });
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (!(await repo.remove(trx, target.id))) fail('CONFLICT', SECOND_FACTOR.notOn);
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
