import type { Transaction } from 'kysely';
import { normalizeRole } from '../../../../common/permissions.js';
import type { LoginInput, SessionInfo } from '../../../../common/schemas/auth.js';
import type { LoginSecondFactorInput, SecondFactorChallenge, SecondFactorSession } from '../../../../common/schemas/second-factor.js';
import { normalizeSecondFactorCode, SECOND_FACTOR_LIMITS } from '../../../../common/second-factor.js';
import type { Database } from '../../../db/types.js';
import { LOGIN } from '../../../../common/texts.js';
import { runCommand, type Command } from '../../../platform/writes/command.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { hashPassword, verifyPassword } from '../../../platform/identity/passwords.js';
import { clientKey } from '../../../platform/http/client-address.js';
import { forgetSignInLock, signInLockKey, Throttle } from '../../../platform/identity/throttle.js';
import { announceEnded, endSession, findSessionByToken, makeRoomForSession, openSession } from '../../../platform/identity/sessions.js';
import { toSessionUser } from '../../../platform/identity/session-user.js';
import { blockReason } from '../accounts/index.js';
import { accountsRecords, normalizeIdentity, type AccountRow } from '../accounts/index.js';
import { secondFactorRecords } from '../credentials/index.js';
import { findOpenChallenge, newChallenge } from '../credentials/index.js';
import { checkCode, CodeAlreadyUsed, consumeCode, enableFactor } from '../credentials/index.js';
import { isRequiredFor } from '../accounts/index.js';
import { checkTotp, newTotpSecret, setupOf } from '../credentials/index.js';
import { lockedOut, noticeLockout, noticeUnlock, signInBudget, unlockBudget } from '../credentials/index.js';
import { issueUnlockLink, lockedProof, unlockLinkBudgetKey, useLockedProof } from '../credentials/index.js';

export function createAuthService(ctx: AppContext) {
  const { db, events, config } = ctx;
  // Guesses count per account before they are checked (username and email share one budget;
  // unknown names count by the name typed), attempts per client address; both in the
  // database, shared by instances.
  const guesses = signInBudget(ctx);
  const unlocks = unlockBudget(ctx);
  const perIp = new Throttle(db, 'login-ip', config.loginRateLimitPerMinute, 60_000, clientKey);

  /** A wrong guess: the one that used the budget's last attempt locks the account and says so (the notice carries an unlock link when the account has no second factor). */
  async function wrongGuess(
    key: string,
    spent: Awaited<ReturnType<typeof guesses.spend>>,
    account: AccountRow | undefined,
    ip: string | undefined,
  ): Promise<void> {
    const lock = await guesses.failed(key, spent);
    if (!lock.locked) return;
    if (account)
      await noticeLockout(
        ctx,
        account,
        'password',
        lock,
        ip,
        isRequiredFor(config, normalizeRole(account.role)) ? null : await issueUnlockLink(ctx, account),
      );
    lockedOut(lock.lockMs);
  }

  /**
   * The one way a session opens (after the password, or after the password and the second
   * factor): ends the account's other sessions, records the login, and runs `within` (using
   * up a code, turning an enrolled factor on) in the same transaction.
   */
  async function startSession(
    account: AccountRow,
    meta: { ip?: string; userAgent?: string },
    options: {
      newHash?: string | null;
      /** Who the audit entries of `within` name (the account itself, when it turns its second factor on). */
      actor?: Actor;
      within?: (trx: Transaction<Database>, cmd: Command, now: string) => Promise<void>;
    } = {},
  ): Promise<SessionInfo & { token: string }> {
    const now = nowIso();
    const opened = await runCommand(ctx, options.actor ?? null, async (trx, cmd) => {
      if (options.within) await options.within(trx, cmd, now);
      const room = await makeRoomForSession(trx, account.id, config);
      cmd.afterCommit(() => {
        announceEnded(events, account.id, room.replaced, 'replaced');
        announceEnded(events, account.id, room.idle, 'inactivity');
      });
      const session = await openSession(trx, account.id, meta);
      await accountsRecords.update(trx, account.id, {
        status: 'active',
        autoInactive: 0,
        lastLogin: now,
        currentSession: session.sessionId,
        ...(options.newHash ? { password: options.newHash } : {}),
      });
      return session;
    });
    const fresh = await accountsRecords.findById(db, account.id);
    return {
      token: opened.token,
      sessionId: opened.sessionId,
      user: toSessionUser(fresh!),
      idleTimeoutMs: config.sessionIdleTimeoutMs,
    };
  }

  /**
   * A locked account's owner signs in at once, from anywhere, with the password and a proof the
   * guesser lacks (unlock-links.ts): the proof first, both counted in a budget of their own
   * (tries with a link against that link, so made-up links cannot use up the owner's).
   */
  async function signInLocked(
    account: AccountRow,
    input: LoginInput,
    meta: { ip?: string; userAgent?: string },
    lockMs: number,
  ): Promise<SessionInfo & { token: string }> {
    const key = input.unlockToken && !input.code ? unlockLinkBudgetKey(account.id, input.unlockToken) : signInLockKey(account.id);
    const spent = await unlocks.spend(key);
    if (!spent.allowed) lockedOut(Math.max(spent.retryAfterMs, lockMs));
    const proof = await lockedProof(db, account.id, input, !isRequiredFor(config, normalizeRole(account.role)));
    const check = proof ? await verifyPassword(input.password, account.password) : null;
    if (!proof || !check?.ok) {
      await unlocks.failed(key, spent);
      fail('INVALID_UNLOCK');
    }
    if (blockReason(account)) fail(blockReason(account)!);
    const newHash = check.needsRehash ? await hashPassword(input.password) : null;
    const session = await startSession(account, meta, {
      newHash,
      within: (trx, _cmd, now) => useLockedProof(trx, account.id, proof, now),
    }).catch((err: unknown) => (err instanceof CodeAlreadyUsed ? fail('INVALID_UNLOCK') : Promise.reject(err)));
    await forgetSignInLock(db, account.id);
    await noticeUnlock(ctx, account, null, meta.ip, undefined, proof.kind);
    return session;
  }

  async function countIp(ip: string | undefined): Promise<void> {
    if (!ip) return;
    const state = await perIp.hit(ip);
    if (state.count > perIp.max)
      fail('RATE_LIMITED', LOGIN.tooManyAttempts, undefined, { retryAfterSeconds: Math.ceil(state.retryAfterMs / 1000) });
  }

  return {
    /**
     * docs/PRODUCT.md section 4, Login outcome. The password is checked before the account's state,
     * so a blocked account reveals nothing to someone who does not know its password.
     * An account with a second factor (or whose role requires one, not yet set up) gets a
     * challenge instead of a session; its failure count is then cleared only by a right code,
     * so signing in again with the password does not refill the budget for guessing codes.
     */
    async login(
      input: LoginInput,
      meta: { ip?: string; userAgent?: string },
    ): Promise<(SessionInfo & { token: string }) | SecondFactorChallenge> {
      await countIp(meta.ip);
      const account = await accountsRecords.findByIdentifier(db, input.identifier);
      const key = account ? signInLockKey(account.id) : `name:${normalizeIdentity(input.identifier)}`;
      const spent = await guesses.spend(key);
      if (!spent.allowed) {
        if (account && (input.code || input.unlockToken)) return signInLocked(account, input, meta, spent.retryAfterMs);
        lockedOut(spent.retryAfterMs);
      }
      const check = await verifyPassword(input.password, account?.password);
      if (!account || !check.ok) {
        await wrongGuess(key, spent, account, meta.ip);
        fail('INVALID_CREDENTIALS');
      }

      const blocked = blockReason(account);
      if (blocked) {
        await guesses.succeeded(key);
        // No change event of its own: the command announces the entry to History (audit_logs).
        await runCommand(ctx, { id: account.id, fullname: account.fullname, email: account.email }, (_trx, cmd) =>
          cmd.audit({
            action: 'LOGIN',
            collection: 'accounts',
            documentId: account.id,
            documentName: account.fullname,
            description: blocked === 'ACCOUNT_DELETED' ? 'Blocked login: account deleted' : 'Blocked login: account restricted',
            details: { status: account.status, isRestricted: Boolean(account.isRestricted), isDeleted: Boolean(account.isDeleted) },
          }),
        );
        fail(blocked);
      }

      const newHash = check.needsRehash ? await hashPassword(input.password) : null;
      const factor = await secondFactorRecords.find(db, account.id);
      if (factor || isRequiredFor(config, normalizeRole(account.role))) {
        // Only a right code clears the count: signing in again with the password must not
        // refill the budget for guessing codes.
        await guesses.refund(key);
        if (newHash) await accountsRecords.update(db, account.id, { password: newHash });
        if (factor) {
          const challenge = await newChallenge(db, account.id, 'verify', null, SECOND_FACTOR_LIMITS.challengeTtlMs);
          return { secondFactor: 'verify', challenge };
        }
        const secret = newTotpSecret();
        const challenge = await newChallenge(db, account.id, 'enroll', secret, SECOND_FACTOR_LIMITS.challengeTtlMs);
        return { secondFactor: 'enroll', challenge, setup: await setupOf(secret, account.username) };
      }

      await guesses.succeeded(key);
      return startSession(account, meta, { newHash });
    },

    /**
     * The step after the password: a code from the app or a recovery code ('verify'), or the
     * first code of a required factor being set up ('enroll', which returns the ten recovery
     * codes once). Wrong codes count with wrong passwords and lock the account the same way.
     */
    async loginSecondFactor(
      input: LoginSecondFactorInput,
      meta: { ip?: string; userAgent?: string },
    ): Promise<SecondFactorSession & { token: string }> {
      await countIp(meta.ip);
      const challenge = await findOpenChallenge(db, input.challenge, ['verify', 'enroll']);
      if (!challenge) fail('SIGN_IN_EXPIRED');
      const account = await accountsRecords.findById(db, challenge.accountId);
      if (!account) fail('SIGN_IN_EXPIRED');
      const key = signInLockKey(account.id);
      const spent = await guesses.spend(key);
      if (!spent.allowed) lockedOut(spent.retryAfterMs);
      const blocked = blockReason(account);
      if (blocked) fail(blocked);

      const wrongCode = async (): Promise<never> => {
        await wrongGuess(key, spent, account, meta.ip);
        fail('INVALID_CODE');
      };
      const useChallenge = async (trx: Transaction<Database>, now: string) => {
        if (!(await secondFactorRecords.useChallenge(trx, challenge.id, now))) fail('SIGN_IN_EXPIRED');
      };

      let result: SecondFactorSession & { token: string };
      try {
        if (challenge.purpose === 'verify') {
          const factor = await secondFactorRecords.find(db, account.id);
          if (!factor) fail('SIGN_IN_EXPIRED'); // reset meanwhile: start again with the password
          const accepted = await checkCode(db, factor, input.code);
          if (!accepted) return await wrongCode();
          result = await startSession(account, meta, {
            within: async (trx, _cmd, now) => {
              await useChallenge(trx, now);
              await consumeCode(trx, account.id, accepted, now);
            },
          });
        } else {
          const step = await checkTotp(challenge.pendingSecret ?? '', normalizeSecondFactorCode(input.code));
          if (step === null) return await wrongCode();
          let recoveryCodes: string[] = [];
          const session = await startSession(account, meta, {
            actor: { id: account.id, fullname: account.fullname, email: account.email },
            within: async (trx, cmd, now) => {
              await useChallenge(trx, now);
              if (await secondFactorRecords.find(trx, account.id)) fail('SIGN_IN_EXPIRED');
              recoveryCodes = await enableFactor(trx, cmd, account, challenge.pendingSecret!, step, now);
            },
          });
          result = { ...session, recoveryCodes };
        }
      } catch (err) {
        if (err instanceof CodeAlreadyUsed) return wrongCode();
        throw err;
      }
      await guesses.succeeded(key);
      return result;
    },

    /** Ends the cookie's session whatever its state; never fails for a stale cookie. */
    async logout(token: string | undefined): Promise<void> {
      if (!token) return;
      const session = await findSessionByToken(db, token);
      if (!session) return;
      const accountId = session.account.id;
      await runCommand(ctx, null, async (trx, cmd) => {
        await endSession(trx, session.sessionId, 'logout');
        if (session.account.currentSession === session.sessionId) {
          await accountsRecords.update(trx, accountId, { currentSession: null, lastLogoutAt: nowIso() });
        }
        cmd.afterCommit(() => announceEnded(events, accountId, [session.sessionId], 'logout'));
      });
    },
  };
}
