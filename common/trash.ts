import { COLLECTION_NAMES, COLLECTIONS, type CollectionName, type TrashEntry } from './collections.js';

/**
 * The trash: soft-deleted varieties, pests, diseases and accounts, listed for super
 * admins with who deleted them and when, and restored exactly as they were. Records are never
 * deleted for good: audit entries name them and disease photos are the scanner's training data.
 * Which collections have one, and what it knows of each, is the registry's (common/collections.ts).
 */
export type TrashCollection = { [K in CollectionName]: (typeof COLLECTIONS)[K] extends { trash: TrashEntry } ? K : never }[CollectionName];

export const TRASH_COLLECTIONS = COLLECTION_NAMES.filter((name) => 'trash' in COLLECTIONS[name]) as [TrashCollection, ...TrashCollection[]];

export function trashEntry(collection: TrashCollection): TrashEntry {
  return COLLECTIONS[collection].trash;
}

export const TRASH_LIMITS = {
  pageSize: 20,
  searchMax: 200,
} as const;

export const TRASH = {
  tab: 'Trash',
  /** Under a delete confirmation: where the record goes, and who can bring it back. */
  deleteNote: (canRestore: boolean) =>
    canRestore ? 'It goes to the Trash, where you can restore it.' : 'It goes to the Trash, where a super admin can restore it.',
  liveTab: 'Records',
  explanation:
    'Deleted records wait here and can be restored exactly as they were. They cannot be deleted for ' +
    'good: the history and the disease scanner\u2019s training photos depend on them.',
  /** Accounts come back without their old keys (a deleted account's password may have leaked). */
  accountsExplanation:
    'A restored account comes back restricted, without its password, security question or two-step ' +
    'sign-in. Unrestrict it, then set a new password in its edit form.',
  searchPlaceholder: 'Search deleted records',
  columns: { name: 'Name', details: 'Details', deletedBy: 'Deleted by', deletedAt: 'Deleted', actions: 'Actions' },
  restore: 'Restore',
  restoring: 'Restoring\u2026',
  restoreLabel: (name: string) => `Restore ${name}`,
  restored: (name: string) => `Restored ${name}`,
  empty: 'Nothing has been deleted here.',
  noMatch: 'No deleted records match your search.',
  unknownDeleter: 'Unknown',
  photos: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'photo' : 'photos'}`,
  /** 409 on restore: a live record now has the same name. */
  nameTaken: (noun: string, otherName: string) =>
    `A ${noun} named \u201c${otherName}\u201d exists. Rename or delete it first, then restore this one.`,
  notInTrash: 'This record is not in the trash (it may have been restored already).',
  /** The audit entry's description. */
  auditDescription: (noun: string, name: string) => `Restored ${noun} ${name}`,
} as const;
