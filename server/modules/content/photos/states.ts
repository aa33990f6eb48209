import type { PhotoRow } from './repository/life.js';

/**
 * Every state a photo of a pest or disease can be in, and the moves between them. The state is
 * read from the row's columns here and nowhere else; each move is one call of this module.
 *
 *   staged    uploaded, not yet saved with an entry: entryId, retiredFrom and removedFrom null.
 *             Seen only by its uploader. intake.ts stagePhoto (an upload) makes it.
 *   held      staged, and named by its uploader's draft (catalog_draft_photos) or by a pending
 *             change (review_photo_holds): outlives the daily clean-up of staged photos while
 *             the draft or the change lasts; a held-for-review photo is seen by every reviewer.
 *   linked    one of an entry's photos, at its position: entryId set. entry-photos.ts attach
 *             links staged photos (their files moved into the entry's folder, moved back if the
 *             save fails); the Firebase import links the photos it takes in.
 *   retired   taken out of the entry by an edit: entryId null, retiredFrom the entry. Kept while
 *             a version of the entry holds it (entry-photos.ts retire; attach brings it back on a
 *             restore; prune deletes it once no kept version holds it).
 *   removed   taken out of its disease in Dataset health: entryId null, removedFrom the entry,
 *             with its place, when and by whom (entry-photos.ts removeFromEntry, putBack).
 *   in trash  linked to an entry that is deleted: the entry's soft delete changes no photo; the
 *             photos are the entry's again when it is restored.
 *   deleted   row and files gone: a staged photo discarded by its uploader, a save's exact copy,
 *             one staged longer than a day and held by no draft (variants.ts cleanupStaged), a
 *             retired photo no version holds (entry-photos.ts deleteUnheld).
 *
 * Alongside, a photo's files move from `pending` (its original stored) to `ready` (display and
 * thumbnail variants made, fingerprint taken) or `failed` (it could not be decoded): variants.ts.
 */
export type PhotoState = 'staged' | 'linked' | 'retired' | 'removed';

type StateColumns = Pick<PhotoRow, 'entryId' | 'retiredFrom' | 'removedFrom'>;

export function photoState(row: StateColumns): PhotoState {
  if (row.entryId) return 'linked';
  if (row.removedFrom) return 'removed';
  if (row.retiredFrom) return 'retired';
  return 'staged';
}

/**
 * Who may see a photo's files: one that is or was an entry's (versions and Dataset health show
 * retired and removed ones) any signed-in staff; a staged one only its uploader.
 */
export function mayView(row: StateColumns & Pick<PhotoRow, 'uploadedBy'>, accountId: string): boolean {
  return photoState(row) !== 'staged' || row.uploadedBy === accountId;
}
