import type { Permission } from '../../common/permissions';
import { SHELL } from '../../common/texts';

export interface NavEntry {
  label: string;
  path: string;
  permission: Permission;
}

/**
 * Sidebar entries in SPEC.md order; each is shown only to roles holding its permission.
 * Their icons are in shell/nav-icons.ts (the router reads this table before sign-in).
 */
export const NAV: NavEntry[] = [
  { label: SHELL.nav.dashboard, path: '/dashboard', permission: 'dashboard.view' },
  { label: SHELL.nav.varieties, path: '/dashboard/rice_varieties', permission: 'content.view' },
  { label: SHELL.nav.pests, path: '/dashboard/rice_pests', permission: 'content.view' },
  { label: SHELL.nav.diseases, path: '/dashboard/rice_diseases', permission: 'content.view' },
  { label: SHELL.nav.accounts, path: '/dashboard/accounts', permission: 'accounts.manage' },
  { label: SHELL.nav.history, path: '/dashboard/history_logs', permission: 'history.view' },
  { label: SHELL.nav.maintenance, path: '/dashboard/file_maintenance', permission: 'maintenance.manage' },
];

function trimSlashes(path: string): string {
  return path.replace(/\/+$/, '') || '/';
}

/** The active entry: paths compared with trailing slashes ignored; the longest match wins. */
export function isActivePath(entryPath: string, currentPath: string): boolean {
  const entry = trimSlashes(entryPath);
  const current = trimSlashes(currentPath);
  if (entry === '/dashboard') return current === entry;
  return current === entry || current.startsWith(`${entry}/`);
}
