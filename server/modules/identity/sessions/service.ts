import type { SessionList } from '../../../../common/schemas/sessions.js';
import { describeUserAgent, SESSIONS } from '../../../../common/sessions.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { runCommand } from '../../../platform/writes/command.js';
import { fail } from '../../../platform/http/errors.js';
import { announceEnded, endSession, openSessionsOf, type EndReason } from '../../../platform/identity/sessions.js';
import { sessionsRepository } from './repository.js';

const REASON: EndReason = 'signed_out';

/**
 * Sessions you can see and end: one's own in Account Settings, any account's for a
 * super admin. Each end is audited (SIGN_OUT) in its transaction, and the ended tabs hear it on
 * the live stream after commit and go to the login page.
 */
export function createSessionsService(ctx: AppContext) {
  const { db, events, config } = ctx;

  async function list(accountId: string, auth: AuthContext): Promise<SessionList> {
    const rows = await openSessionsOf(db, accountId, config.sessionIdleTimeoutMs);
    return {
      items: rows.map((s) => ({
        id: s.id,
        device: describeUserAgent(s.userAgent),
        ip: s.ip,
        signedInAt: s.createdAt,
        lastActiveAt: s.lastSeenAt,
        current: s.id === auth.sessionId,
      })),
    };
  }

  async function liveAccount(accountId: string) {
    const account = await sessionsRepository.liveAccount(db, accountId);
    if (!account) fail('NOT_FOUND');
    return account;
  }

  /** Ends one session of the account (never the asker's own: that is Logout). */
  async function endOne(
    accountId: string,
    documentName: string,
    sessionId: string,
    auth: AuthContext,
    describe: (device: string) => string,
  ): Promise<void> {
    if (sessionId === auth.sessionId) fail('VALIDATION_FAILED', SESSIONS.useLogout);
    await runCommand(ctx, auth.actor, async (trx, cmd) => {
      const session = await sessionsRepository.findOpen(trx, accountId, sessionId);
      if (!session || !(await endSession(trx, sessionId, REASON))) fail('NOT_FOUND', SESSIONS.notFound);
      const device = describeUserAgent(session.userAgent);
      await cmd.audit({
        action: 'SIGN_OUT',
        collection: 'accounts',
        documentId: accountId,
        documentName,
        description: describe(device),
        details: { sessionId, device, ip: session.ip },
      });
      cmd.afterCommit(() => announceEnded(events, accountId, [sessionId], REASON));
    });
  }

  /** Ends every open session of the account but the asker's own; audited once with the count. */
  async function endMany(accountId: string, auth: AuthContext, documentName: string, describe: (n: number) => string): Promise<number> {
    return runCommand(ctx, auth.actor, async (trx, cmd) => {
      // One update for all of them; their tabs are told after commit (runCommand). Only the
      // asker's own account can hold the asker's session.
      const done = await cmd.endSessions(accountId, REASON, accountId === auth.user.id ? auth.sessionId : undefined);
      if (done.length > 0) {
        await cmd.audit({
          action: 'SIGN_OUT',
          collection: 'accounts',
          documentId: accountId,
          documentName,
          description: describe(done.length),
          details: { sessionIds: done },
        });
      }
      return done.length;
    });
  }

  return {
    listOwn: (auth: AuthContext) => list(auth.user.id, auth),
    endOwn: (sessionId: string, auth: AuthContext) => endOne(auth.user.id, auth.user.fullname, sessionId, auth, SESSIONS.audit.own),
    endOwnOthers: (auth: AuthContext) => endMany(auth.user.id, auth, auth.user.fullname, SESSIONS.audit.others),

    async listOf(accountId: string, auth: AuthContext): Promise<SessionList> {
      await liveAccount(accountId);
      return list(accountId, auth);
    },
    async endOf(accountId: string, sessionId: string, auth: AuthContext): Promise<void> {
      const account = await liveAccount(accountId);
      await endOne(accountId, account.fullname, sessionId, auth, (device) => SESSIONS.audit.ofAccount(account.username, device));
    },
    async endAllOf(accountId: string, auth: AuthContext): Promise<number> {
      const account = await liveAccount(accountId);
      return endMany(accountId, auth, account.fullname, (n) => SESSIONS.audit.allOfAccount(account.username, n));
    },
  };
}
