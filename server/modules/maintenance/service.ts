import type { Kysely, Transaction } from 'kysely';
import { MAINTENANCE, MAINTENANCE_LIMITS } from '../../../common/maintenance.js';
import {
  ACCOUNT_ENUMS_ID, DISEASE_ENUMS_ID, VARIETY_ENUMS_ID, defaultAccountEnums, defaultDiseaseEnums, type DiseaseEnums, defaultVarietyEnums, currentReleaseYear,
  DOCUMENT_LISTS, listBelongsTo, normalizeList, optionValueProblem, sameOption,
  type AccountEnums, type ListKey, type MaintenanceDocId, type MaintenanceDocument, type MaintenanceLists,
  type MaintenanceUsage, type OptionLists, type SaveListsInput, type VarietyEnums, DEFAULT_SECURITY_QUESTIONS,
} from '../../../common/schemas/maintenance.js';
import type { Database } from '../../db/types.js';
import type { Actor } from '../../platform/audit.js';
import { runCommand } from '../../platform/command.js';
import { nowIso } from '../../platform/clock.js';
import type { AppContext } from '../../platform/context.js';
import { fail, invalid } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { maintenanceRepository, type MaintenanceRow } from './repository.js';

type Db = Kysely<Database> | Transaction<Database>;

function stringList(value: unknown, fallback: string[]): string[] {
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
function yearsThroughOf(data: Record<string, unknown>, years: string[], currentYear: number): number {
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
function effectiveLists(docId: MaintenanceDocId, data: Record<string, unknown>, currentYear: number): { lists: Record<ListKey, string[]>; usingDefaults: boolean; added: string[] } {
  if (docId === ACCOUNT_ENUMS_ID) {
    const stored = stringList(data.securityQuestions, []);
    const usingDefaults = stored.length === 0;
    return { lists: { securityQuestions: usingDefaults ? [...DEFAULT_SECURITY_QUESTIONS] : stored } as Record<ListKey, string[]>, usingDefaults, added: [] };
  }
  if (docId === DISEASE_ENUMS_ID) {
    return { lists: { affectedParts: stringList(data.affectedParts, defaultDiseaseEnums().affectedParts) } as Record<ListKey, string[]>, usingDefaults: false, added: [] };
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

function pick(lists: Record<ListKey, string[]>, keys: readonly ListKey[]): MaintenanceLists {
  const out: MaintenanceLists = {};
  for (const k of keys) out[k] = lists[k];
  return out;
}

function present(docId: MaintenanceDocId, row: Pick<MaintenanceRow, 'data' | 'version' | 'updatedAt'>, currentYear = currentReleaseYear()): MaintenanceDocument {
  const { lists, usingDefaults } = effectiveLists(docId, row.data, currentYear);
  return { id: docId, version: row.version, updatedAt: row.updatedAt, lists: pick(lists, DOCUMENT_LISTS[docId]), usingDefaults };
}

function defaultsFor(docId: MaintenanceDocId): Record<string, unknown> {
  if (docId === DISEASE_ENUMS_ID) return { ...defaultDiseaseEnums() };
  return docId === VARIETY_ENUMS_ID ? { ...defaultVarietyEnums(), yearsThrough: currentReleaseYear() } : { ...defaultAccountEnums() };
}

/** The document, re-created with SPEC.md's defaults if it went missing. */
async function load(db: Db, docId: MaintenanceDocId): Promise<MaintenanceRow> {
  const found = await maintenanceRepository.find(db, docId);
  if (found) return found;
  await maintenanceRepository.insertIfMissing(db, docId, defaultsFor(docId), nowIso());
  const created = await maintenanceRepository.find(db, docId);
  if (!created) fail('INTERNAL', MAINTENANCE.toasts.initFailed);
  return created;
}

const listTitle = (key: ListKey) => MAINTENANCE.lists[key].title;

interface Change {
  /** The lists as they are to be stored (only the changed ones). */
  next: MaintenanceLists;
  description: string;
}

interface WriteResult {
  document: MaintenanceDocument;
  changed: boolean;
}

/**
 * One change to a document: read it, compute the change from what users see, write it only
 * if nobody wrote in between (version), with its audit entry in the same transaction; publish
 * the live event after commit. A concurrent writer makes it retry on the newer document.
 */
async function mutate(
  db: Kysely<Database>, events: EventBus | null, actor: Actor | null, docId: MaintenanceDocId,
  compute: (lists: Record<ListKey, string[]>, row: MaintenanceRow) => Change | null,
): Promise<WriteResult> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const outcome = await runCommand({ db, events }, actor, async (trx, cmd) => {
      const row = await load(trx, docId);
      const year = currentReleaseYear();
      const before = effectiveLists(docId, row.data, year);
      const change = compute(before.lists, row);
      if (!change) return { kind: 'unchanged' as const, document: present(docId, row, year) };
      const data: Record<string, unknown> = { ...row.data, ...change.next };
      if (docId === VARIETY_ENUMS_ID) {
        // Years the rollover added count as part of what the user saw and kept.
        if (change.next.yearReleases === undefined) data.yearReleases = before.lists.yearReleases;
        data.yearsThrough = Math.max(year, yearsThroughOf(row.data, stringList(row.data.yearReleases, []), year));
      }
      const now = nowIso();
      const updated = await maintenanceRepository.updateAtVersion(trx, docId, row.version, data, now);
      if (updated === 0) return { kind: 'retry' as const };
      const keys = Object.keys(change.next) as ListKey[];
      await cmd.audit({
        action: 'UPDATE',
        collection: 'maintenance',
        documentId: docId,
        documentName: MAINTENANCE.audit.names[docId],
        description: change.description,
        changes: { before: pick(before.lists, keys), after: change.next },
      });
      cmd.publish({ topic: 'maintenance', id: docId, op: 'update' });
      return { kind: 'written' as const, document: present(docId, { data, version: row.version + 1, updatedAt: now }, year) };
    });
    if (outcome.kind === 'retry') continue;
    return { document: outcome.document, changed: outcome.kind === 'written' };
  }
  fail('CONFLICT');
}

function requireList(docId: MaintenanceDocId, list: ListKey): void {
  if (!listBelongsTo(docId, list)) fail('NOT_FOUND', MAINTENANCE.errors.wrongList);
}

/**
 * Persists the years the year-release list gained when the year turned (once: concurrent
 * instances race on the version and the loser finds nothing left to add).
 */
export async function ensureYearRollover(db: Kysely<Database>, events: EventBus | null, currentYear = currentReleaseYear()): Promise<string[]> {
  const row = await maintenanceRepository.find(db, VARIETY_ENUMS_ID);
  if (!row) return [];
  const stored = stringList(row.data.yearReleases, defaultVarietyEnums().yearReleases);
  const { years, added } = extendYears(stored, yearsThroughOf(row.data, stored, currentYear), currentYear);
  if (added.length === 0) return [];
  const data = { ...row.data, yearReleases: years, yearsThrough: currentYear };
  const written = await runCommand({ db, events }, null, async (trx, cmd) => {
    const now = nowIso();
    if (await maintenanceRepository.updateAtVersion(trx, VARIETY_ENUMS_ID, row.version, data, now) === 0) return false;
    await cmd.audit({
      action: 'UPDATE',
      collection: 'maintenance',
      documentId: VARIETY_ENUMS_ID,
      documentName: MAINTENANCE.audit.names[VARIETY_ENUMS_ID],
      description: MAINTENANCE.audit.newYear(added.join(', ')),
      changes: { before: { yearReleases: stored }, after: { yearReleases: years } },
    });
    cmd.publish({ topic: 'maintenance', id: VARIETY_ENUMS_ID, op: 'update' });
    return true;
  });
  return written ? added : [];
}

/** Creates the option-list documents with SPEC.md's defaults when they are missing. */
export async function ensureMaintenanceDefaults(db: Kysely<Database>): Promise<void> {
  const now = nowIso();
  await maintenanceRepository.insertIfMissing(db, VARIETY_ENUMS_ID, defaultsFor(VARIETY_ENUMS_ID), now);
  await maintenanceRepository.insertIfMissing(db, ACCOUNT_ENUMS_ID, defaultsFor(ACCOUNT_ENUMS_ID), now);
  await maintenanceRepository.insertIfMissing(db, DISEASE_ENUMS_ID, defaultsFor(DISEASE_ENUMS_ID), now);
  await ensureYearRollover(db, null);
}

/** The rice variety lists in the order forms show them (new years included). */
export async function getVarietyEnums(db: Kysely<Database>): Promise<VarietyEnums> {
  const doc = await maintenanceRepository.find(db, VARIETY_ENUMS_ID);
  const { lists } = effectiveLists(VARIETY_ENUMS_ID, doc?.data ?? defaultsFor(VARIETY_ENUMS_ID), currentReleaseYear());
  return { seasons: lists.seasons, plantingMethods: lists.plantingMethods, environments: lists.environments, yearReleases: lists.yearReleases };
}

/** An empty or missing security-question list means the five defaults apply. */
export async function getAccountEnums(db: Kysely<Database>): Promise<AccountEnums> {
  const doc = await maintenanceRepository.find(db, ACCOUNT_ENUMS_ID);
  const list = stringList(doc?.data.securityQuestions, []);
  return { securityQuestions: list.length > 0 ? list : [...DEFAULT_SECURITY_QUESTIONS] };
}

/** The parts of the plant a disease may name (the managed list, in its order). */
export async function getDiseaseEnums(db: Kysely<Database>): Promise<DiseaseEnums> {
  const doc = await maintenanceRepository.find(db, DISEASE_ENUMS_ID);
  return { affectedParts: stringList(doc?.data.affectedParts, defaultDiseaseEnums().affectedParts) };
}

export async function getOptionLists(db: Kysely<Database>): Promise<OptionLists> {
  return { riceVarieties: await getVarietyEnums(db), accounts: await getAccountEnums(db), diseases: await getDiseaseEnums(db) };
}

/** File maintenance (super admin): read, count, add, remove, save. */
export function createMaintenanceService(ctx: Pick<AppContext, 'db' | 'events'>) {
  const { db, events } = ctx;
  return {
    async document(docId: MaintenanceDocId): Promise<MaintenanceDocument> {
      if (docId === VARIETY_ENUMS_ID) await ensureYearRollover(db, events);
      return present(docId, await load(db, docId));
    },

    async usage(docId: MaintenanceDocId): Promise<MaintenanceUsage> {
      const { lists } = effectiveLists(docId, (await load(db, docId)).data, currentReleaseYear());
      const toRecord = (values: string[], counts: Map<string, number>) => Object.fromEntries(values.map((v) => [v, counts.get(v) ?? 0]));
      if (docId === ACCOUNT_ENUMS_ID) {
        const counts = await maintenanceRepository.securityQuestionUsage(db);
        return { id: docId, counts: 'accounts', usage: { securityQuestions: toRecord(lists.securityQuestions, counts) } };
      }
      if (docId === DISEASE_ENUMS_ID) {
        const counts = await maintenanceRepository.affectedPartUsage(db, lists.affectedParts);
        return { id: docId, counts: 'diseases', usage: { affectedParts: toRecord(lists.affectedParts, counts) } };
      }
      const counts = await maintenanceRepository.varietyUsage(db, { seasons: lists.seasons, environments: lists.environments });
      return {
        id: docId,
        counts: 'varieties',
        usage: {
          seasons: toRecord(lists.seasons, counts.seasons),
          plantingMethods: toRecord(lists.plantingMethods, counts.plantingMethods),
          environments: toRecord(lists.environments, counts.environments),
          yearReleases: toRecord(lists.yearReleases, counts.yearReleases),
        },
      };
    },

    /** Unions one option into a list ('Already exists.' for a case-insensitive duplicate). */
    add(actor: Actor, docId: MaintenanceDocId, list: ListKey, rawValue: string): Promise<WriteResult> {
      requireList(docId, list);
      const value = rawValue.trim();
      const problem = optionValueProblem(list, value);
      if (problem) invalid({ value: problem });
      return mutate(db, events, actor, docId, (lists) => {
        const current = lists[list];
        if (current.some((v) => sameOption(v, value))) fail('CONFLICT', MAINTENANCE.toasts.exists, { value: MAINTENANCE.toasts.exists });
        if (current.length >= MAINTENANCE_LIMITS.maxItemsPerList) invalid({ value: MAINTENANCE.errors.tooMany });
        return { next: { [list]: [...current, value] }, description: MAINTENANCE.audit.added(listTitle(list), value) };
      });
    },

    /** Subtracts one option from a list; removing one that is already gone changes nothing. */
    remove(actor: Actor, docId: MaintenanceDocId, list: ListKey, value: string): Promise<WriteResult> {
      requireList(docId, list);
      return mutate(db, events, actor, docId, (lists) => {
        const current = lists[list];
        const exact = current.filter((v) => v !== value);
        const next = exact.length < current.length ? exact : current.filter((v) => v.trim() !== value.trim());
        if (next.length === current.length) return null;
        return { next: { [list]: next }, description: MAINTENANCE.audit.removed(listTitle(list), value.trim()) };
      });
    },

    /** Save Changes: whole lists, trimmed and deduplicated, at the version the page edited. */
    save(actor: Actor, docId: MaintenanceDocId, input: SaveListsInput): Promise<WriteResult> {
      const keys = Object.keys(input.lists).filter((k) => input.lists[k as ListKey] !== undefined) as ListKey[];
      for (const key of keys) if (!listBelongsTo(docId, key)) invalid({ [`lists.${key}`]: MAINTENANCE.errors.wrongList });
      return mutate(db, events, actor, docId, (lists, row) => {
        if (row.version !== input.version) {
          fail('VERSION_CONFLICT', undefined, undefined, { current: present(docId, row), currentVersion: row.version });
        }
        const next: MaintenanceLists = {};
        for (const key of keys) {
          const values = normalizeList(input.lists[key] ?? []);
          for (const v of values) {
            // Values new to the list pass the same check as Add; kept ones stay as they are.
            if (lists[key].some((old) => sameOption(old, v))) continue;
            const problem = optionValueProblem(key, v);
            if (problem) invalid({ [`lists.${key}`]: problem });
          }
          const unchanged = values.length === lists[key].length && values.every((v, i) => v === lists[key][i]);
          if (!unchanged) next[key] = values;
        }
        const changed = Object.keys(next) as ListKey[];
        if (changed.length === 0) return null;
        return { next, description: MAINTENANCE.audit.saved(changed.map(listTitle).join(', ')) };
      });
    },
  };
}
