import { normalizeRole } from '../../../common/permissions.js';
import type { SessionUser } from '../../../common/schemas/auth.js';
import type { AccountRow } from './repository.js';

/** The signed-in user's own view of their account: no hash, answer or session token. */
export function toSessionUser(row: AccountRow): SessionUser {
  return {
    id: row.id,
    fullname: row.fullname,
    username: row.username,
    email: row.email,
    contactNo: row.contactNo,
    photoURL: row.photoURL,
    role: normalizeRole(row.role),
    securityQuestion: row.securityQuestion,
  };
}

/** Blocked for login (SPEC.md section 4): deleted, or restricted by status or flag. */
export function blockReason(row: AccountRow): 'ACCOUNT_DELETED' | 'ACCOUNT_RESTRICTED' | null {
  if (row.isDeleted) return 'ACCOUNT_DELETED';
  if (row.status === 'restricted' || row.isRestricted) return 'ACCOUNT_RESTRICTED';
  return null;
}
