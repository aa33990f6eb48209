import type { LoginInput, SessionInfo } from '../../../common/schemas/auth.js';
import { LOGIN } from '../../../common/texts.js';
import { runCommand } from '../../platform/command.js';
import { nowIso } from '../../platform/clock.js';
import type { AppContext } from '../../platform/context.js';
import { fail } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import { minutesToWait, Throttle, type ThrottleState } from '../../platform/throttle.js';
import { announceEnded, endSession, findSessionByToken, makeRoomForSession, openSession } from '../../platform/sessions.js';
import { toSessionUser } from '../../platform/session-user.js';
import { blockReason } from '../accounts/presenter.js';
import { accountsRepository, normalizeIdentity } from '../accounts/repository.js';

export function createAuthService(ctx: AppContext) {
  const { db, events, config } = ctx;
  // Failures count per account (username and email share one budget; unknown names count by
  // the name typed), attempts per client address; both in the database, shared by instances.
  const failures = new Throttle(db, 'login-failures', config.loginFailuresPerAccount, config.loginFailureWindowMs);
  const perIp = new Throttle(db, 'login-ip', config.loginRateLimitPerMinute, 60_000);

  /** The owner of a locked account is told so, and for how long, even with the right password. */
  function locked(state: ThrottleState): never {
    const seconds = Math.ceil(state.retryAfterMs / 1000);
    fail('RATE_LIMITED', LOGIN.locked(minutesToWait(state.retryAfterMs)), undefined, { retryAfterSeconds: seconds });
  }

  return {
    /**
     * SPEC.md section 4, Login outcome. The password is checked before the account's state,
     * so a blocked account reveals nothing to someone who does not know its password.
     */
    async login(input: LoginInput, meta: { ip?: string; userAgent?: string }): Promise<SessionInfo & { token: string }> {
      if (meta.ip) {
        const ip = await perIp.hit(meta.ip);
        if (ip.count > perIp.max) fail('RATE_LIMITED', LOGIN.tooManyAttempts, undefined, { retryAfterSeconds: Math.ceil(ip.retryAfterMs / 1000) });
      }
      const account = await accountsRepository.findByIdentifier(db, input.identifier);
      const key = account ? `account:${account.id}` : `name:${normalizeIdentity(input.identifier)}`;
      const before = await failures.check(key);
      if (before.blocked) locked(before);
      const check = await verifyPassword(input.password, account?.password);
      if (!account || !check.ok) {
        const after = await failures.hit(key);
        if (after.blocked) locked(after);
        fail('INVALID_CREDENTIALS');
      }
      if (before.count > 0) await failures.clear(key);

      const blocked = blockReason(account);
      if (blocked) {
        // No change event of its own: the command announces the entry to History (audit_logs).
        await runCommand(ctx, { id: account.id, fullname: account.fullname, email: account.email }, (_trx, cmd) => cmd.audit({
          action: 'LOGIN',
          collection: 'accounts',
          documentId: account.id,
          documentName: account.fullname,
          description: blocked === 'ACCOUNT_DELETED' ? 'Blocked login: account deleted' : 'Blocked login: account restricted',
          details: { status: account.status, isRestricted: Boolean(account.isRestricted), isDeleted: Boolean(account.isDeleted) },
        }));
        fail(blocked);
      }

      const newHash = check.needsRehash ? await hashPassword(input.password) : null;
      const now = nowIso();
      const opened = await runCommand(ctx, null, async (trx, cmd) => {
        const room = await makeRoomForSession(trx, account.id, config);
        cmd.afterCommit(() => {
          announceEnded(events, account.id, room.replaced, 'replaced');
          announceEnded(events, account.id, room.idle, 'inactivity');
        });
        const session = await openSession(trx, account.id, meta);
        await accountsRepository.update(trx, account.id, {
          status: 'active',
          autoInactive: 0,
          lastLogin: now,
          currentSession: session.sessionId,
          ...(newHash ? { password: newHash } : {}),
        });
        return session;
      });
      const fresh = await accountsRepository.findById(db, account.id);
      return {
        token: opened.token,
        sessionId: opened.sessionId,
        user: toSessionUser(fresh!),
        idleTimeoutMs: config.sessionIdleTimeoutMs,
      };
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
          await accountsRepository.update(trx, accountId, { currentSession: null, lastLogoutAt: nowIso() });
        }
        cmd.afterCommit(() => announceEnded(events, accountId, [session.sessionId], 'logout'));
      });
    },
  };
}
