import { COLLECTION_NAMES, COLLECTIONS } from '../../common/collections';
import type { Permission } from '../../common/permissions';
import { SHELL } from '../../common/texts';

/** The Translations screen (src/features/translations), also linked from the dashboard's completeness. */
export const TRANSLATIONS_PATH = '/dashboard/translations';

export interface NavEntry {
  label: string;
  path: string;
  permission: Permission;
}

/**
 * Sidebar entries in docs/PRODUCT.md order; each is shown only to roles holding its permission.
 * Their icons are in shell/nav-icons.ts (the router reads this table before sign-in).
 */
export const NAV: NavEntry[] = [
  { label: SHELL.nav.dashboard, path: '/dashboard', permission: 'dashboard.view' },
  // The collections' screens (common/collections.ts), in its order.
  ...COLLECTION_NAMES.map((name) => {
    const { nav } = COLLECTIONS[name];
    return { label: nav.label, path: `/dashboard/${nav.route}`, permission: nav.permission };
  }),
  // Changes waiting for a second person before the farmer app sees them (src/features/review).
  { label: SHELL.nav.review, path: '/dashboard/review', permission: 'content.view' },
  { label: SHELL.nav.history, path: '/dashboard/history_logs', permission: 'history.view' },
  { label: SHELL.nav.translations, path: TRANSLATIONS_PATH, permission: 'content.view' },
  { label: SHELL.nav.maintenance, path: '/dashboard/file_maintenance', permission: 'maintenance.manage' },
  { label: SHELL.nav.scannerModels, path: '/dashboard/scanner_models', permission: 'scannerModels.manage' },
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
