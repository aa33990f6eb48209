import { Bug, FileCog, Folder, History, LayoutDashboard, Microscope, Sprout, Users, type LucideIcon } from 'lucide-react';
import { COLLECTION_NAMES, COLLECTIONS, type CollectionName } from '../../common/collections';
import type { Permission } from '../../common/permissions';
import { SHELL } from '../../common/texts';

export interface NavEntry {
  label: string;
  path: string;
  icon: LucideIcon;
  permission: Permission;
}

/** Sidebar entries in SPEC.md order; each is shown only to roles holding its permission. */
/** Each collection's sidebar icon; a new collection without one shows a folder. */
const ICONS: Partial<Record<CollectionName, LucideIcon>> = { rice_seed_varieties: Sprout, rice_local_pests: Bug, rice_local_diseases: Microscope, accounts: Users };

export const NAV: NavEntry[] = [
  { label: SHELL.nav.dashboard, path: '/dashboard', icon: LayoutDashboard, permission: 'dashboard.view' },
  // The collections' screens (common/collections.ts), in its order.
  ...COLLECTION_NAMES.map((name) => {
    const { nav } = COLLECTIONS[name];
    return { label: nav.label, path: `/dashboard/${nav.route}`, icon: ICONS[name] ?? Folder, permission: nav.permission };
  }),
  { label: SHELL.nav.history, path: '/dashboard/history_logs', icon: History, permission: 'history.view' },
  { label: SHELL.nav.maintenance, path: '/dashboard/file_maintenance', icon: FileCog, permission: 'maintenance.manage' },
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
