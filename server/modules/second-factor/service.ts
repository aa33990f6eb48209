import type { Kysely, Transaction } from 'kysely';
import type { Role } from '../../../common/permissions.js';
import type {
  RecoveryCodesResult, SecondFactorEnableInput, SecondFactorProofInput, SecondFactorSetupStart, SecondFactorStatus,
} from '../../../common/schemas/two-factor.js';
import { formatRecoveryCode, isTotpCode, normalizeSecondFactorCode, TWO_FACTOR, TWO_FACTOR_LIMITS } from '../../../common/two-factor.js';
import type { AdminAccount } from '../../../common/schemas/accounts.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { newId, nowIso } from '../../platform/clock.js';
import { runCommand, type Command } from '../../platform/command.js';
import type { AppContext, AuthContext } from '../../platform/context.js';
import { AppError, fail, invalid } from '../../platform/errors.js';
import { randomCode, randomToken, sha256, verifyPassword } from '../../platform/passwords.js';
import { minutesToWait, Throttle } from '../../platform/throttle.js';
import { LOGIN } from '../../../common/texts.js';
import { toAdminAccount } from '../accounts/presenter.js';
import { accountsRepository } from '../accounts/repository.js';
import { secondFactorRepository as repo, type ChallengeRow, type SecondFactorRow } from './repository.js';
import { checkTotp, newTotpSecret, setupOf } from './totp.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A code that was right when checked; `consume` makes it used (or finds that it was, meanwhile). */
export type AcceptedCode = { kind: 'totp'; step: number } | { kind: 'recovery'; codeHash: string };

/** Thrown inside a transaction when a code was used by a concurrent request: counted as wrong. */
export class CodeAlreadyUsed extends Error {}

export function isRequiredFor(config: Pick<Config, 'require2faFor'>, role: Role): boolean {
  return config.require2faFor.includes(role);
}

/** Ten new recovery codes: shown once (formatted), stored as the sha256 of the normalised code. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: TWO_FACTOR_LIMITS.recoveryCodeCount }, () =>
    randomCode(TWO_FACTOR_LIMITS.recoveryCodeLength, TWO_FACTOR_LIMITS.recoveryCodeAlphabet));
  return { codes: raw.map(formatRecoveryCode), hashes: raw.map((c) => sha256(c)) };
}

/** Starts a challenge; only the sha256 of the returned token is stored. */
export async function newChallenge(db: Db, accountId: string, purpose: ChallengeRow['purpose'], pendingSecret: string | null, ttlMs: number): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  await repo.pruneChallenges(db, new Date(now).toISOString());
  await repo.insertChallenge(db, {
    id: newId(),
    tokenHash: sha256(token),
    accountId,
    purpose,
    pendingSecret,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + ttlMs).toISOString(),
    usedAt: null,
  });
  return token;
}

/** The open challenge of this token and purpose, or undefined (unknown, used, expired). */
export async function findOpenChallenge(db: Db, token: string, purposes: ChallengeRow['purpose'][]): Promise<ChallengeRow | undefined> {
  const row = await repo.findChallenge(db, sha256(token));
  if (!row || row.usedAt || !purposes.includes(row.purpose) || Date.parse(row.expiresAt) <= Date.now()) return undefined;
  return row;
}

/** Checks a typed code against the factor: a 6-digit app code (newer than the last one used) or an unused recovery code. */
export async function checkCode(db: Db, factor: SecondFactorRow, typed: string): Promise<AcceptedCode | null> {
  const code = normalizeSecondFactorCode(typed);
  if (code === '') return null;
  if (isTotpCode(code)) {
    const step = await checkTotp(factor.secret, code, Number(factor.lastTimeStep));
    return step === null ? null : { kind: 'totp', step };
  }
  const codeHash = sha256(code);
  return (await repo.hasUnusedRecoveryCode(db, factor.accountId, codeHash)) ? { kind: 'recovery', codeHash } : null;
}

/** Uses the accepted code inside the caller's transaction; throws CodeAlreadyUsed when a concurrent request used it first. */
export async function consumeCode(trx: Db, accountId: string, accepted: AcceptedCode, now: string): Promise<void> {
  const ok = accepted.kind === 'totp'
    ? await repo.advanceTimeStep(trx, accountId, accepted.step)
    : await repo.useRecoveryCode(trx, accountId, accepted.codeHash, now);
  if (!ok) throw new CodeAlreadyUsed();
}

/** Turns a confirmed key on, with ten recovery codes, the audit entry and the live event, in the caller's command. */
export async function enableFactor(trx: Db, cmd: Command, account: { id: string; fullname: string }, secret: string, step: number, now: string): Promise<string[]> {
  await repo.insert(trx, { accountId: account.id, secret, enabledAt: now, lastTimeStep: step });
  const { codes, hashes } = newRecoveryCodes();
  await repo.replaceRecoveryCodes(trx, account.id, hashes, now);
  cmd.publish({ topic: 'accounts', id: account.id, op: 'update' });
  await cmd.audit({
    action: 'SECOND_FACTOR',
    collection: 'accounts',
    documentId: account.id,
    documentName: account.fullname,
    description: 'Turned on two-step sign-in',
    details: { recoveryCodes: codes.length },
  });
  return codes;
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
