/** Browser storage keys (DESIGN.md: localStorage holds only the logout reason and UI preferences). */
export const AUTO_LOGOUT_REASON = 'auto_logout_reason';
export const SIDEBAR_COLLAPSED = 'palayan:sidebar-collapsed';

export type LogoutReason = 'inactivity' | 'session_ended' | 'signed_out';

export function setLogoutReason(reason: LogoutReason): void {
  try { localStorage.setItem(AUTO_LOGOUT_REASON, reason); } catch { /* storage unavailable */ }
}

export function takeLogoutReason(): string | null {
  try { return localStorage.getItem(AUTO_LOGOUT_REASON); } catch { return null; }
}

export function clearLogoutReason(): void {
  try { localStorage.removeItem(AUTO_LOGOUT_REASON); } catch { /* storage unavailable */ }
}
