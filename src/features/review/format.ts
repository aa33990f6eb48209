import { COLLECTIONS } from '../../../common/collections';
import { MAINTENANCE } from '../../../common/maintenance';
import { manilaDateTime } from '../../../common/manila-time';
import { REVIEW_COLLECTIONS, type ReviewCollection } from '../../../common/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import type { PendingChange } from '../../../common/schemas/review';
import { DISEASE_ENUMS_ID, VARIETY_ENUMS_ID } from '../../../common/schemas/maintenance';
import { IMPORT_TEXTS } from '../../../common/spreadsheets';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';

/** A stored time as staff in Tarlac read it (Manila), or nothing. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : manilaDateTime(t);
}

export const nameOf = (person: PendingChange['author']) => person?.name || REVIEW_SCREEN.nobody;

/** The collections in the queue's filter, named as the server names them. */
export const COLLECTION_OPTIONS: Array<{ value: ReviewCollection; label: string }> = REVIEW_COLLECTIONS.map((value) => ({
  value,
  label: value === 'maintenance' ? MAINTENANCE.title : COLLECTIONS[value].label,
}));

/** Where the change's record is shown in the console (null: a new entry, or an import). */
export function recordPath(change: PendingChange): string | null {
  const id = change.recordId;
  if (!id) return null;
  if (change.collection === 'maintenance') {
    return `/dashboard/file_maintenance/${id === VARIETY_ENUMS_ID ? 'rice_variety' : id === DISEASE_ENUMS_ID ? 'rice_disease' : 'accounts'}`;
  }
  if (change.collection === 'rice_seed_varieties') return `/dashboard/rice_varieties?q=${encodeURIComponent(change.recordName)}`;
  return `/dashboard/${COLLECTIONS[change.collection].nav.route}?open=${encodeURIComponent(id)}`;
}

/** Manila's wall clock an hour from now, as a datetime-local input holds it. */
export function inAnHour(): string {
  return new Date(Date.now() + 8 * 3_600_000 + 3_600_000).toISOString().slice(0, 16);
}

/** An import row's result as the import dialogs name it (new, update, unchanged, error; a translation removed). */
export const importStatus = (status: string) =>
  (IMPORT_TEXTS.counts as Record<string, string>)[status] ?? (TRANSLATE_TEXTS.files.statuses as Record<string, string>)[status] ?? status;

/** An import's counts, as the import dialog names them. */
export const importSummary = (summary: Record<string, number>) =>
  REVIEW_SCREEN.importCounts(Object.entries(summary).map(([status, n]) => [importStatus(status), n]));
