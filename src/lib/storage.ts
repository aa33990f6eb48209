import { SIGNED_IN_HINT_COOKIE } from '../../common/sessions';

/**
 * Browser storage keys: localStorage holds only the logout reason and UI preferences, never a
 * secret or a record; this tab's sessionStorage the page a sign-out left.
 */
export const AUTO_LOGOUT_REASON = 'auto_logout_reason';
export const SIDEBAR_COLLAPSED = 'palayan:sidebar-collapsed';
const RETURN_TO = 'palayan:return-to';
/** Pests and diseases shown as cards or as a list. */
export const CATALOG_VIEW = 'palayan:catalog-view';

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

/** A sign-out the user did not ask for (inactivity, a session ended) left this page of this account. */
export function rememberReturnTo(userId: string, path: string): void {
  try {
    sessionStorage.setItem(RETURN_TO, JSON.stringify({ userId, path }));
  } catch {
    /* storage unavailable */
  }
}

/**
 * The page to return to after signing in again, once: only the same account's, and only a
 * page of the console (an address of this site under /dashboard).
 */
export function takeReturnTo(userId: string): string | null {
  try {
    const raw = sessionStorage.getItem(RETURN_TO);
    sessionStorage.removeItem(RETURN_TO);
    if (!raw) return null;
    const kept = JSON.parse(raw) as { userId?: unknown; path?: unknown };
    if (kept.userId !== userId || typeof kept.path !== 'string') return null;
    return /^\/dashboard(?:[/?#]|$)/.test(kept.path) && !kept.path.startsWith('//') ? kept.path : null;
  } catch {
    return null;
  }
}

/** A UI preference of this browser (localStorage), or null. */
export function readPreference(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writePreference(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* preference only */
  }
}
