import { ACCOUNTS } from '../../../../common/accounts.js';
import type { AdminAccount } from '../../../../common/schemas/accounts.js';
import { nowIso } from '../../../platform/support/clock.js';
import { runCommand } from '../../../platform/writes/command.js';
import { forgetSignInLock, signInLockedUntil } from '../../../platform/identity/throttle.js';
import { noticeUnlock } from '../credentials/index.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { accountsRepository as repo, type AccountListRow } from './repository.js';

const M = ACCOUNTS.messages;

/** What the restriction needs of the accounts service: the live record and its checks. */
interface AccountLookups {
  loadLive(id: string): Promise<AccountListRow>;
  assertNameTyped(row: AccountListRow, typed: string): void;
  present(id: string): Promise<AdminAccount>;
}

/** Restrict and unrestrict (docs/PRODUCT.md section 2, Admin accounts). */
export function createRestriction(ctx: AppContext, { loadLive, assertNameTyped, present }: AccountLookups) {
  return {
    /** Restrict: status restricted, isRestricted, restrictedAt; the account's open session ends at once. */
    async restrict(id: string, confirmName: string, auth: AuthContext): Promise<AdminAccount> {
      if (id === auth.user.id) fail('FORBIDDEN', M.cannotRestrictSelf);
      const current = await loadLive(id);
      assertNameTyped(current, confirmName);
      const at = nowIso();
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (!(await repo.restrict(trx, id, at))) {
          if (!(await repo.findLive(trx, id))) fail('NOT_FOUND');
          fail('CONFLICT', M.alreadyRestricted);
        }
        await cmd.endSessions(id, 'restricted');
        await cmd.audit({
          action: 'RESTRICT',
          collection: 'accounts',
          documentId: id,
          documentName: current.fullname,
          description: `Restricted admin account ${current.username}`,
          changes: {
            before: { status: current.status, isRestricted: false, restrictedAt: null },
            after: { status: 'restricted', isRestricted: true, restrictedAt: at },
          },
        });
        cmd.publish({ topic: 'accounts', id, op: 'restrict' });
      });
      return present(id);
    },

    /** Unrestrict (no confirmation): status active, isRestricted false, restrictedAt null. */
    async unrestrict(id: string, auth: AuthContext): Promise<AdminAccount> {
      const current = await loadLive(id);
      const at = nowIso();
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (!(await repo.unrestrict(trx, id, at))) {
          if (!(await repo.findLive(trx, id))) fail('NOT_FOUND');
          fail('CONFLICT', M.notRestricted);
        }
        await cmd.audit({
          action: 'UNRESTRICT',
          collection: 'accounts',
          documentId: id,
          documentName: current.fullname,
          description: `Unrestricted admin account ${current.username}`,
          changes: {
            before: { status: current.status, isRestricted: Boolean(current.isRestricted), restrictedAt: current.restrictedAt },
            after: { status: 'active', isRestricted: false, restrictedAt: null },
          },
        });
        cmd.publish({ topic: 'accounts', id, op: 'unrestrict' });
      });
      return present(id);
    },

    /** Ends the account's sign-in lock (wrong passwords or codes) at once; audited, and mailed to the account. */
    async unlock(id: string, auth: AuthContext): Promise<AdminAccount> {
      const current = await loadLive(id);
      if (!(await signInLockedUntil(ctx.db, id))) fail('CONFLICT', M.notLocked);
      await noticeUnlock(ctx, current, auth.actor, undefined, async (trx, cmd) => {
        await forgetSignInLock(trx, id);
        cmd.publish({ topic: 'accounts', id, op: 'update' });
      });
      return present(id);
    },
  };
}
