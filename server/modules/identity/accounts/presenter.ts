import { normalizeRole } from '../../../../common/permissions.js';
import { accountDisplayStatus } from '../../../../common/accounts.js';
import type { AdminAccount } from '../../../../common/schemas/accounts.js';
import { toAccountIdentity } from '../../../platform/identity/session-user.js';
import type { AccountRow } from './repository.js';

/** Blocked for login (docs/PRODUCT.md section 4): deleted, or restricted by status or flag. */
export function blockReason(row: AccountRow): 'ACCOUNT_DELETED' | 'ACCOUNT_RESTRICTED' | null {
  if (row.isDeleted) return 'ACCOUNT_DELETED';
  if (row.status === 'restricted' || row.isRestricted) return 'ACCOUNT_RESTRICTED';
  return null;
}

/**
 * The one presenter of the admin list and detail (super admin only). It copies named fields,
 * so a password hash, security answer or session id can never slip into a response.
 */
export function toAdminAccount(
  row: AccountRow & { hasActivities?: boolean; hasSecondFactor?: boolean; signInLockedUntil?: string | null },
): AdminAccount {
  return {
    ...toAccountIdentity(row),
    role: normalizeRole(row.role),
    status: row.status,
    displayStatus: accountDisplayStatus(row),
    isRestricted: Boolean(row.isRestricted),
    restrictedAt: row.restrictedAt,
    autoInactive: Boolean(row.autoInactive),
    autoInactiveAt: row.autoInactiveAt,
    lastLogin: row.lastLogin,
    lastLogoutAt: row.lastLogoutAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    hasActivities: row.hasActivities ?? false,
    hasSecondFactor: row.hasSecondFactor ?? false,
    needsPassword: !row.password,
    signInLockedUntil: row.signInLockedUntil && Date.parse(row.signInLockedUntil) > Date.now() ? row.signInLockedUntil : null,
    version: row.version,
  };
}
