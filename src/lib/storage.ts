import { SIGNED_IN_HINT_COOKIE } from '../../common/sessions';

/** Browser storage keys: localStorage holds only the logout reason and UI preferences, never a secret or a record. */
export const AUTO_LOGOUT_REASON = 'auto_logout_reason';
export const SIDEBAR_COLLAPSED = 'palayan:sidebar-collapsed';

export type LogoutReason = 'inactivity' | 'session_ended' | 'signed_out';

export function setLogoutReason(reason: LogoutReason): void {
  try {
    localStorage.setItem(AUTO_LOGOUT_REASON, reason);
  } catch {
    /* storage unavailable */
  }
}

export function takeLogoutReason(): string | null {
  try {
    return localStorage.getItem(AUTO_LOGOUT_REASON);
  } catch {
    return null;
  }
}

export function clearLogoutReason(): void {
  try {
    localStorage.removeItem(AUTO_LOGOUT_REASON);
  } catch {
    /* storage unavailable */
  }
}

/** Whether this browser may hold a session (the readable companion of the httpOnly cookie). */
export function mayHaveSession(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

/** The server no longer knows the session: a later visit need not ask again. */
export function forgetSessionHint(): void {
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
}
