import type { Permission } from './permissions.js';

/** The dashboard activity icons' types (each a collection's, or none). */
export const ACTIVITY_TYPES = ['pest', 'disease', 'variety', 'admin'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** What the trash knows of a collection whose records are soft-deleted. */
export interface TrashEntry {
  /** What one record is called in sentences and in the restore's audit description. */
  noun: string;
  /** The Trash tab's heading. */
  heading: string;
  /** The columns holding a record's name and its second line (listed and searched). */
  columns: { name: string; detail: string };
  /** Whether a live record with the same name (trimmed, any case) blocks the restore. */
  uniqueName: boolean;
  /** Its photos (catalog_images.entryId) stay linked while deleted; the list counts them. */
  photos?: true;
}

/** What the console shows of one collection of records (docs/PRODUCT.md section 3's names and texts). */
export interface CollectionEntry {
  /** History's label of the collection (filter, table, CSV). */
  label: string;
  /** What one record is called in the dashboard's activity sentences. */
  kind: string;
  /** The dashboard activity icon's type. */
  activity: ActivityType;
  /** Its screen: the sidebar entry's label, path below /dashboard, and who sees it. */
  nav: { label: string; route: string; permission: Permission };
  /**
   * Its dashboard card: the field of GET /api/dashboard/counts, the card's label, the values
   * live (not deleted) rows must also have to be counted, and whether its creates and updates
   * count in the weekly content chart.
   */
  dashboard: { count: string; card: string; only?: Record<string, string | readonly string[]>; weekly: boolean };
  /** Its Trash tab, when its records are soft-deleted. */
  trash?: TrashEntry;
}

/**
 * The one registry of the console's collections, keyed by table name: History's collections
 * and labels, the activity kinds and types, the sidebar entries, the dashboard's count cards and
 * the trash are derived from it (docs/ARCHITECTURE.md, "Adding a collection"). In sidebar order.
 */
export const COLLECTIONS = {
  rice_seed_varieties: {
    label: 'Rice Varieties',
    kind: 'Rice variety',
    activity: 'variety',
    nav: { label: 'Rice Varieties', route: 'rice_varieties', permission: 'content.view' },
    dashboard: { count: 'varieties', card: 'Rice Varieties', weekly: true },
    trash: {
      noun: 'rice variety',
      heading: 'Deleted rice varieties',
      columns: { name: 'varietyName', detail: 'releaseName' },
      uniqueName: true,
    },
  },
  rice_local_pests: {
    label: 'Rice Pests',
    kind: 'Pest',
    activity: 'pest',
    nav: { label: 'Pest', route: 'rice_pests', permission: 'content.view' },
    dashboard: { count: 'pests', card: 'Total Pests', weekly: true },
    trash: { noun: 'pest', heading: 'Deleted pests', columns: { name: 'name', detail: 'scientificName' }, uniqueName: true, photos: true },
  },
  rice_local_diseases: {
    label: 'Rice Diseases',
    kind: 'Disease',
    activity: 'disease',
    nav: { label: 'Rice Disease', route: 'rice_diseases', permission: 'content.view' },
    dashboard: { count: 'diseases', card: 'Total Diseases', weekly: true },
    trash: {
      noun: 'disease',
      heading: 'Deleted diseases',
      columns: { name: 'name', detail: 'scientificName' },
      uniqueName: true,
      photos: true,
    },
  },
  accounts: {
    label: 'User Accounts',
    kind: 'Account',
    activity: 'admin',
    nav: { label: 'Accounts', route: 'accounts', permission: 'accounts.manage' },
    // docs/PRODUCT.md section 6: active admins of either role.
    dashboard: { count: 'admins', card: 'Admin Users', only: { status: 'active', role: ['SYSTEM_ADMIN', 'ADMIN'] }, weekly: false },
    // Usernames and emails stay reserved while deleted (unique columns), so no name check.
    trash: {
      noun: 'admin account',
      heading: 'Deleted admin accounts',
      columns: { name: 'fullname', detail: 'username' },
      uniqueName: false,
    },
  },
} as const satisfies Record<string, CollectionEntry>;

export type CollectionName = keyof typeof COLLECTIONS;

/** The collections in sidebar order. */
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/** The fields of the dashboard's counts, one per collection. */
export type DashboardCountKey = (typeof COLLECTIONS)[CollectionName]['dashboard']['count'];

export function collectionEntry(name: string | null | undefined): CollectionEntry | undefined {
  return name && Object.hasOwn(COLLECTIONS, name) ? COLLECTIONS[name as CollectionName] : undefined;
}
