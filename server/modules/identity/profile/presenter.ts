import type { Profile } from '../../../../common/schemas/profile.js';
import { toAccountIdentity } from '../../../platform/identity/session-user.js';
import type { AccountRow } from '../accounts/index.js';

/** The own account as Account Settings shows it: no hash, no answer, no session. */
export function toProfile(row: AccountRow): Profile {
  return {
    ...toAccountIdentity(row),
    securityQuestion: row.securityQuestion,
    hasSecurityAnswer: Boolean(row.securityAnswer && row.securityAnswer.trim() !== ''),
    version: row.version,
  };
}
