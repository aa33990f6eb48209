import { byCatalogCollection, CATALOG_COLLECTIONS } from './catalog.js';
import { catalogFieldsOf, catalogLabels } from './catalog-fields.js';
import { MAINTENANCE } from './maintenance.js';
import { VARIETIES } from './varieties.js';
import { translationKeyLabel } from './languages.js';

/**
 * Versions: every saved state of a variety, pest, disease and option list, listed, compared and
 * restored from the record's view (server/modules/publishing/versions).
 */
export const VERSION_COLLECTIONS = ['rice_seed_varieties', ...CATALOG_COLLECTIONS, 'maintenance'] as const;
export type VersionCollection = (typeof VERSION_COLLECTIONS)[number];

/** The API path of each collection's records; a record's versions are under `<base>/:id/versions`. */
export const VERSION_API_BASE: Record<VersionCollection, string> = {
  rice_seed_varieties: '/api/varieties',
  ...byCatalogCollection((kind) => `/api/${kind.route}`),
  maintenance: '/api/maintenance/documents',
};

/** The fields a version of each collection holds, in the order the comparison shows them. */
export const VERSION_FIELDS: Record<VersionCollection, Readonly<Record<string, string>>> = {
  rice_seed_varieties: {
    varietyName: VARIETIES.columns.varietyName,
    releaseName: VARIETIES.columns.releaseName,
    breedingCode: VARIETIES.columns.breedingCode,
    breederOrigin: VARIETIES.columns.breederOrigin,
    yearRelease: VARIETIES.columns.yearRelease,
    location: VARIETIES.columns.location,
    averageYield: VARIETIES.view.averageYield,
    maxYield: VARIETIES.view.maxYield,
    maturityDays: VARIETIES.view.maturityDays,
    plantHeight: VARIETIES.view.plantHeight,
    tillers: VARIETIES.view.tillers,
    season: VARIETIES.view.season,
    plantingMethod: VARIETIES.view.plantingMethod,
    environment: VARIETIES.view.environment,
    recommendedInTarlac: VARIETIES.columns.recommendedInTarlac,
  },
  ...byCatalogCollection((kind) => catalogLabels(catalogFieldsOf(kind))),
  maintenance: Object.fromEntries(Object.entries(MAINTENANCE.lists).map(([key, list]) => [key, list.title])),
};

/** What a version changed from the one before it, kept with the version so the list never reads snapshots. */
export interface VersionSummary {
  /** create: the record's first save; first: the state it had when versions began; edit; restore. */
  kind: 'create' | 'first' | 'edit' | 'restore';
  /** Field keys that differ from the version before. */
  changed: string[];
  photosAdded: number;
  photosRemoved: number;
  photosReordered: boolean;
  /** The number of photos this version holds (pests and diseases). */
  photoCount: number | null;
  /** The version a restore brought back. */
  restoredFrom: number | null;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** A version's changes in words: "Changed Treatments and Symptoms; 3 photos added". */
export function describeVersion(collection: VersionCollection, s: VersionSummary): string {
  const labels = VERSION_FIELDS[collection];
  const parts: string[] = [];
  if (s.kind === 'restore' && s.restoredFrom !== null) parts.push(VERSION_TEXTS.restoredFrom(s.restoredFrom));
  if (s.kind === 'first') parts.push(VERSION_TEXTS.firstVersion);
  if (s.kind === 'create') parts.push(VERSION_TEXTS.created);
  const opening = s.kind === 'first' || s.kind === 'create';
  if (opening && s.photoCount !== null) parts.push(plural(s.photoCount, 'photo', 'photos'));
  const names = s.changed.map((key) => labels[key] ?? translationKeyLabel(collection, key));
  if (!opening && names.length > 0) parts.push(`${VERSION_TEXTS.changed} ${joinWords(names)}`);
  const photos: string[] = [];
  if (s.photosAdded > 0) photos.push(`${plural(s.photosAdded, 'photo', 'photos')} added`);
  if (s.photosRemoved > 0) photos.push(`${plural(s.photosRemoved, 'photo', 'photos')} removed`);
  if (s.photosReordered) photos.push('photos reordered');
  if (!opening && photos.length > 0) parts.push(photos.join(', '));
  if (parts.length === 0) parts.push(VERSION_TEXTS.noChanges);
  return parts.join('; ');
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

export const VERSION_TEXTS = {
  tab: 'Versions',
  details: 'Details',
  title: 'Versions',
  empty: 'No versions yet.',
  version: (n: number) => `Version ${n}`,
  current: 'Current',
  firstVersion: 'As it was when versions began',
  created: 'Created',
  changed: 'Changed',
  noChanges: 'Saved without changes',
  restoredFrom: (n: number) => `Restored version ${n}`,
  unknownAuthor: 'Before versions were kept',
  loadMore: 'Load more',
  compare: 'Compare',
  compareHint: 'Choose two versions to compare them field by field.',
  compareTitle: (a: number, b: number) => `Version ${a} and version ${b}`,
  field: 'Field',
  showUnchanged: 'Show unchanged fields',
  hideUnchanged: 'Hide unchanged fields',
  photosAdded: (n: number) => `Photos added (${n.toLocaleString('en-US')})`,
  photosRemoved: (n: number) => `Photos removed (${n.toLocaleString('en-US')})`,
  photoCounts: (a: number, an: number, b: number, bn: number) =>
    `Photos: ${plural(an, 'photo', 'photos')} in version ${a}, ${plural(bn, 'photo', 'photos')} in version ${b}.`,
  photosSame: 'Same photos in the same order.',
  photosReordered: 'Same photos in a different order.',
  photosShown: (shown: number, total: number) => `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
  restore: 'Restore this version',
  restoring: 'Restoring...',
  restoreTitle: (n: number) => `Restore version ${n}?`,
  restoreText: "The record is saved again with this version's values. The current values stay in the versions list, so this can be undone.",
  restorePhotosText: (n: number) => `Its ${n.toLocaleString('en-US')} ${n === 1 ? 'photo comes' : 'photos come'} back in their order.`,
  restoreConfirm: 'Restore',
  cancel: 'Cancel',
  close: 'Close',
  restored: (n: number) => `Version ${n} restored.`,
  optionGone: (value: string) => `"${value}" is no longer in the list. Choose a current value.`,
  chooseCurrent: 'Choose a current value',
  photosMissing: (n: number) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? 'photo of this version is' : 'photos of this version are'} no longer stored and stay out.`,
  auditRestored: (name: string, n: number) => `Restored version ${n} of ${name}`,
  auditRestoredPrefix: (n: number) => `Restored version ${n} of`,
  viewVersion: (n: number) => `Version ${n}`,
  openVersion: 'Open in Versions',
} as const;

export const VERSION_LIMITS = {
  pageSize: 20,
  /** Photos listed per side of a comparison (thumbnails); the counts are exact. */
  comparePhotos: 200,
} as const;
