import type { LoginInput, SessionInfo } from '../../../common/schemas/auth.js';
import { writeAudit } from '../../platform/audit.js';
import { AttemptLimiter } from '../../platform/attempts.js';
import { nowIso } from '../../platform/clock.js';
import type { AppContext } from '../../platform/context.js';
import { fail } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import { announceEnded, endAccountSessions, findSessionByToken, openSession } from '../../platform/sessions.js';
import { blockReason, toSessionUser } from '../accounts/presenter.js';
import { accountsRepository, normalizeIdentity } from '../accounts/repository.js';

export function createAuthService(ctx: AppContext) {
  const { db, events, config } = ctx;
  const failures = new AttemptLimiter(config.loginFailuresPerAccount, config.loginFailureWindowMs);

  return {
    /**
     * SPEC.md section 4, Login outcome. The password is checked before the account's state,
     * so a blocked account reveals nothing to someone who does not know its password.
     */
    async login(input: LoginInput, meta: { ip?: string; userAgent?: string }): Promise<SessionInfo & { token: string }> {
      const key = normalizeIdentity(input.identifier);
      if (failures.isBlocked(key)) fail('RATE_LIMITED');
      const account = await accountsRepository.findByIdentifier(db, input.identifier);
      const check = await verifyPassword(input.password, account?.password);
      if (!account || !check.ok) {
        failures.fail(key);
        fail('INVALID_CREDENTIALS');
      }
      failures.reset(key);

      const blocked = blockReason(account);
      if (blocked) {
        await writeAudit(db, { id: account.id, fullname: account.fullname, email: account.email }, {
          action: 'LOGIN',
          collection: 'accounts',
          documentId: account.id,
          documentName: account.fullname,
          description: blocked === 'ACCOUNT_DELETED' ? 'Blocked login: account deleted' : 'Blocked login: account restricted',
          details: { status: account.status, isRestricted: Boolean(account.isRestricted), isDeleted: Boolean(account.isDeleted) },
        });
        fail(blocked);
      }

      const newHash = check.needsRehash ? await hashPassword(input.password) : null;
      const now = nowIso();
      const { opened, ended } = await db.transaction().execute(async (trx) => {
        const endedIds = await endAccountSessions(trx, account.id, 'replaced');
        const session = await openSession(trx, account.id, meta);
        await accountsRepository.update(trx, account.id, {
          status: 'active',
          autoInactive: 0,
          lastLogin: now,
          currentSession: session.sessionId,
          ...(newHash ? { password: newHash } : {}),
        });
        return { opened: session, ended: endedIds };
      });
      announceEnded(events, account.id, ended, 'replaced');
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
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('sessions').set({ endedAt: nowIso(), endedReason: 'logout' }).where('id', '=', session.sessionId).execute();
        if (session.account.currentSession === session.sessionId) {
          await accountsRepository.update(trx, accountId, { currentSession: null, lastLogoutAt: nowIso() });
        }
      });
      announceEnded(events, accountId, [session.sessionId], 'logout');
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
