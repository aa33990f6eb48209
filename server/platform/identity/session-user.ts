import type { Selectable } from 'kysely';
import { normalizeRole } from '../../../common/permissions.js';
import type { AccountIdentity, SessionUser } from '../../../common/schemas/auth.js';
import type { AccountsTable } from '../../db/types/accounts.js';

/** A stored account row, as the platform (sessions, policy) reads it. */
export type AccountRow = Selectable<AccountsTable>;

/** The identity fields of every account view, copied by name so no secret can slip through. */
export function toAccountIdentity(row: AccountRow): AccountIdentity {
  return { id: row.id, fullname: row.fullname, username: row.username, email: row.email, contactNo: row.contactNo, photoURL: row.photoURL };
}

/** The signed-in user's own view of their account: no hash, answer or session token. */
export function toSessionUser(row: AccountRow): SessionUser {
  return {
    ...toAccountIdentity(row),
    role: normalizeRole(row.role),
    securityQuestion: row.securityQuestion,
  };
}
