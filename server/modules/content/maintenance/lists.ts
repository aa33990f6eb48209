import { MAINTENANCE_LIMITS } from '../../../../common/maintenance.js';
import type { Snapshot } from '../../publishing/versions/index.js';
import {
  ACCOUNT_ENUMS_ID,
  DISEASE_ENUMS_ID,
  VARIETY_ENUMS_ID,
  defaultAccountEnums,
  defaultDiseaseEnums,
  defaultVarietyEnums,
  currentReleaseYear,
  DOCUMENT_LISTS,
  DEFAULT_SECURITY_QUESTIONS,
  type ListKey,
  type MaintenanceDocId,
  type MaintenanceDocument,
  type MaintenanceLists,
} from '../../../../common/schemas/maintenance.js';
import type { MaintenanceRow } from './repository.js';

/* How a stored option-list document becomes the lists users see (pure; no database). */

export function stringList(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : fallback;
}

// ---------------------------------------------------------------------------------------
// The year-release list gains the new year on its own. The document remembers, in
// `yearsThrough`, the last year it was extended through, so a year a user removed is not
// added back; only years after `yearsThrough` are added. Reads compute the extended list at
// once; the server persists it (with an audit entry and a live event) at start, hourly, and
// when the File maintenance screen opens.

function isYear(v: string): boolean {
  return /^\d{4}$/.test(v.trim());
}

/** The stored `yearsThrough`, or for older documents the newest year in the list. */
export function yearsThroughOf(data: Record<string, unknown>, years: string[], currentYear: number): number {
  const stored = data.yearsThrough;
  if (typeof stored === 'number' && Number.isInteger(stored)) return stored;
  const numeric = years.filter(isYear).map(Number);
  return numeric.length > 0 ? Math.max(...numeric) : currentYear;
}

/** The list with every year after `through` up to `currentYear` added (newest first if the list is). */
export function extendYears(years: string[], through: number, currentYear: number): { years: string[]; added: string[] } {
  const added: string[] = [];
  for (let y = Math.max(through + 1, MAINTENANCE_LIMITS.firstReleaseYear); y <= currentYear; y += 1) {
    if (!years.some((v) => v.trim() === String(y))) added.push(String(y));
  }
  if (added.length === 0) return { years, added };
  const numeric = years.every(isYear) && years.length >= 2;
  const descending = numeric && Number(years[0]) > Number(years[years.length - 1]);
  return { years: descending ? [...[...added].reverse(), ...years] : [...years, ...added], added };
}

/** The lists of a document as users see them (defaults filled in, new years added). */
export function effectiveLists(
  docId: MaintenanceDocId,
  data: Record<string, unknown>,
  currentYear: number,
): { lists: Record<ListKey, string[]>; usingDefaults: boolean; added: string[] } {
  if (docId === ACCOUNT_ENUMS_ID) {
    const stored = stringList(data.securityQuestions, []);
    const usingDefaults = stored.length === 0;
    return {
      lists: { securityQuestions: usingDefaults ? [...DEFAULT_SECURITY_QUESTIONS] : stored } as Record<ListKey, string[]>,
      usingDefaults,
      added: [],
    };
  }
  if (docId === DISEASE_ENUMS_ID) {
    return {
      lists: { affectedParts: stringList(data.affectedParts, defaultDiseaseEnums().affectedParts) } as Record<ListKey, string[]>,
      usingDefaults: false,
      added: [],
    };
  }
  const defaults = defaultVarietyEnums();
  const storedYears = stringList(data.yearReleases, defaults.yearReleases);
  const { years, added } = extendYears(storedYears, yearsThroughOf(data, storedYears, currentYear), currentYear);
  return {
    lists: {
      seasons: stringList(data.seasons, defaults.seasons),
      plantingMethods: stringList(data.plantingMethods, defaults.plantingMethods),
      environments: stringList(data.environments, defaults.environments),
      yearReleases: years,
    } as Record<ListKey, string[]>,
    usingDefaults: false,
    added,
  };
}

export function pick(lists: Record<ListKey, string[]>, keys: readonly ListKey[]): MaintenanceLists {
  const out: MaintenanceLists = {};
  for (const k of keys) out[k] = lists[k];
  return out;
}

export function present(
  docId: MaintenanceDocId,
  row: Pick<MaintenanceRow, 'data' | 'version' | 'updatedAt'>,
  currentYear = currentReleaseYear(),
): MaintenanceDocument {
  const { lists, usingDefaults } = effectiveLists(docId, row.data, currentYear);
  return { id: docId, version: row.version, updatedAt: row.updatedAt, lists: pick(lists, DOCUMENT_LISTS[docId]), usingDefaults };
}

export function defaultsFor(docId: MaintenanceDocId): Record<string, unknown> {
  if (docId === DISEASE_ENUMS_ID) return { ...defaultDiseaseEnums() };
  return docId === VARIETY_ENUMS_ID ? { ...defaultVarietyEnums(), yearsThrough: currentReleaseYear() } : { ...defaultAccountEnums() };
}

/** An option-list document as a version holds it: its lists as users see them. */
export function maintenanceSnapshot(docId: MaintenanceDocId, row: Pick<MaintenanceRow, 'data'>): Snapshot {
  return { fields: effectiveLists(docId, row.data, currentReleaseYear()).lists };
}
