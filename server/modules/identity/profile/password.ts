import type { ChangePasswordInput } from '../../../../common/schemas/profile.js';
import { CHANGE_PASSWORD } from '../../../../common/profile.js';
import { runCommand } from '../../../platform/writes/command.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { hashPassword, isHash } from '../../../platform/identity/passwords.js';
import { identityCheck, noticePasswordChanged, voidPasswordProofs } from '../credentials/index.js';
import { profileRepository } from './repository.js';

/**
 * Account Settings' Change password. The current password (and a code when the account has a
 * second factor) is checked by identityCheck, so a wrong one is counted in the sign-in budget
 * before it is compared and can lock the account like a wrong sign-in. The schema has already
 * refused a new password that fails the checklist, differs from its confirmation or equals the
 * current one. The new hash, the voided reset links and challenges, the end of the account's
 * other sessions (this one stays) and the audit entry are one transaction.
 */
export function createPasswordChange(ctx: AppContext) {
  const confirmIdentity = identityCheck(ctx);

  return async function changePassword(auth: AuthContext, input: ChangePasswordInput): Promise<{ endedSessions: number }> {
    const row = await profileRepository.findById(ctx.db, auth.user.id);
    if (!row || row.isDeleted) fail('NOT_FOUND');
    await confirmIdentity(auth, { password: input.currentPassword, code: input.code }, { password: 'currentPassword', code: 'code' });
    // bcrypt runs on libuv's thread pool, off the event loop.
    const hash = await hashPassword(input.newPassword);
    if (!isHash(hash)) fail('INTERNAL', CHANGE_PASSWORD.failed);
    let ended = 0;
    await runCommand(ctx, auth.actor, async (trx, cmd) => {
      const now = nowIso();
      await profileRepository.setPassword(trx, row.id, hash, now);
      await voidPasswordProofs(trx, row.id, now);
      const endedIds = await cmd.endSessions(row.id, 'password_changed', auth.sessionId);
      ended = endedIds.length;
      await cmd.audit({
        action: 'UPDATE',
        collection: 'accounts',
        documentId: row.id,
        documentName: row.fullname,
        description: 'Changed own password in Account Settings',
        changes: { before: { password: '(unchanged)' }, after: { password: '(changed)' } },
        details: { field: 'password', method: 'account_settings', endedSessions: ended },
      });
      cmd.publish({ topic: 'accounts', id: row.id, op: 'update' });
      cmd.afterCommit(() => noticePasswordChanged(ctx, row));
    });
    return { endedSessions: ended };
  };
}
