import type { Permission } from './permissions.js';

/** What the console shows of one collection of records (SPEC.md section 3's names and texts). */
export interface CollectionEntry {
  /** History's label of the collection (filter, table, CSV). */
  label: string;
  /** What one record is called in the dashboard's activity sentences. */
  kind: string;
  /** The dashboard activity icon's type. */
  activity: 'pest' | 'disease' | 'variety' | 'admin';
  /** Its screen: the sidebar entry's label, path below /dashboard, and who sees it. */
  nav: { label: string; route: string; permission: Permission };
}

/**
 * The one registry of the console's collections, keyed by table name: History's collections
 * and labels, the activity kinds and types, the sidebar entries and the dashboard's live counts
 * are derived from it (docs/ARCHITECTURE.md, "Adding a collection"). In sidebar order.
 */
export const COLLECTIONS = {
  rice_seed_varieties: { label: 'Rice Varieties', kind: 'Rice variety', activity: 'variety', nav: { label: 'Rice Varieties', route: 'rice_varieties', permission: 'content.view' } },
  rice_local_pests: { label: 'Rice Pests', kind: 'Pest', activity: 'pest', nav: { label: 'Pest', route: 'rice_pests', permission: 'content.view' } },
  rice_local_diseases: { label: 'Rice Diseases', kind: 'Disease', activity: 'disease', nav: { label: 'Rice Disease', route: 'rice_diseases', permission: 'content.view' } },
  accounts: { label: 'User Accounts', kind: 'Account', activity: 'admin', nav: { label: 'Accounts', route: 'accounts', permission: 'accounts.manage' } },
} as const satisfies Record<string, CollectionEntry>;

export type CollectionName = keyof typeof COLLECTIONS;

/** The collections in sidebar order. */
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

export function collectionEntry(name: string | null | undefined): CollectionEntry | undefined {
  return name && Object.hasOwn(COLLECTIONS, name) ? COLLECTIONS[name as CollectionName] : undefined;
}
