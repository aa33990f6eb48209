import type { Kysely, Transaction } from 'kysely';
import { MAINTENANCE, MAINTENANCE_LIMITS } from '../../../../common/maintenance.js';
import {
  ACCOUNT_ENUMS_ID,
  DISEASE_ENUMS_ID,
  VARIETY_ENUMS_ID,
  currentReleaseYear,
  listBelongsTo,
  normalizeList,
  optionValueProblem,
  sameOption,
  type ListKey,
  type MaintenanceDocId,
  type MaintenanceDocument,
  type MaintenanceLists,
  type MaintenanceUsage,
  type SaveListsInput,
} from '../../../../common/schemas/maintenance.js';
import type { Database } from '../../../db/types.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand, type CommandDeps } from '../../../platform/writes/command.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { defaultsFor, effectiveLists, pick, present, stringList, yearsThroughOf } from './lists.js';
import { ensureYearRollover } from './option-lists.js';
import { maintenanceRepository, type MaintenanceRow } from './repository.js';
import { VERSION_TEXTS } from '../../../../common/versions.js';
import { recordVersion } from '../../publishing/versions/index.js';
import { maintenanceSnapshot } from './lists.js';
import { restoreOptionTranslations } from './restore-translations.js';
import { translatedCollections, type TranslatedParts } from '../translations/index.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The document, re-created with docs/PRODUCT.md's defaults if it went missing. */
async function load(db: Db, docId: MaintenanceDocId): Promise<MaintenanceRow> {
  const found = await maintenanceRepository.find(db, docId);
  if (found) return found;
  await maintenanceRepository.insertIfMissing(db, docId, defaultsFor(docId), nowIso());
  const created = await maintenanceRepository.find(db, docId);
  if (!created) fail('INTERNAL', MAINTENANCE.toasts.initFailed);
  return created;
}

/** A version restored: its number, and the translations its state held. */
interface Restore {
  from: number;
  translations?: Record<string, string>;
}

/** Another writer saved the document between its read and this write: the attempt rolls back and runs again. */
class WrittenSince extends Error {}

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
  deps: CommandDeps,
  parts: TranslatedParts,
  actor: Actor | null,
  docId: MaintenanceDocId,
  compute: (lists: Record<ListKey, string[]>, row: MaintenanceRow) => Change | null,
  restore?: Restore,
): Promise<WriteResult> {
  const restoredFrom = restore?.from;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let outcome;
    try {
      outcome = await runCommand(deps, actor, async (trx, cmd) => {
        const row = await load(trx, docId);
        const year = currentReleaseYear();
        const before = effectiveLists(docId, row.data, year);
        const change = compute(before.lists, row);
        if (!change && restoredFrom === undefined) return { kind: 'unchanged' as const, document: present(docId, row, year) };
        const next = change?.next ?? {};
        const data: Record<string, unknown> = { ...row.data, ...next };
        if (docId === VARIETY_ENUMS_ID) {
          // Years the rollover added count as part of what the user saw and kept.
          if (next.yearReleases === undefined) data.yearReleases = before.lists.yearReleases;
          data.yearsThrough = Math.max(year, yearsThroughOf(row.data, stringList(row.data.yearReleases, []), year));
        }
        const now = nowIso();
        const updated = await maintenanceRepository.updateAtVersion(trx, docId, row.version, data, now);
        // Rolled back, not committed empty: a write joined to this command (a review's publish) goes with it.
        if (updated === 0) throw new WrittenSince();
        const keys = Object.keys(next) as ListKey[];
        const name = MAINTENANCE.audit.names[docId];
        const auditId = await cmd.audit({
          action: restoredFrom === undefined ? 'UPDATE' : 'RESTORE_VERSION',
          collection: 'maintenance',
          documentId: docId,
          documentName: name,
          description: restoredFrom === undefined ? change!.description : VERSION_TEXTS.auditRestored(name, restoredFrom),
          changes: { before: pick(before.lists, keys), after: next },
          details: restoredFrom === undefined ? undefined : { restoredVersion: restoredFrom },
        });
        // A version restored brings its option values' translations back, for the values it has.
        const translations = restore?.translations
          ? await restoreOptionTranslations(trx, cmd, parts, docId, data, restore.translations, actor, now)
          : undefined;
        await recordVersion(trx, {
          collection: 'maintenance',
          documentId: docId,
          recordVersion: row.version + 1,
          auditId,
          actor,
          snapshot: { ...maintenanceSnapshot(docId, { data }), ...(translations ? { translations } : {}) },
          kind: restoredFrom === undefined ? 'edit' : 'restore',
          ...(restoredFrom === undefined ? {} : { restoredFrom }),
        });
        cmd.publish({ topic: 'maintenance', id: docId, op: 'update' });
        return { kind: 'written' as const, document: present(docId, { data, version: row.version + 1, updatedAt: now }, year) };
      });
    } catch (err) {
      if (err instanceof WrittenSince) continue;
      throw err;
    }
    return { document: outcome.document, changed: outcome.kind === 'written' };
  }
  fail('CONFLICT');
}

type Compute = (lists: Record<ListKey, string[]>, row: MaintenanceRow) => Change | null;

/** Add: one option unioned into a list ('Already exists.' for a case-insensitive duplicate). */
function adding(list: ListKey, value: string): Compute {
  return (lists) => {
    const current = lists[list];
    if (current.some((v) => sameOption(v, value))) fail('CONFLICT', MAINTENANCE.toasts.exists, { value: MAINTENANCE.toasts.exists });
    if (current.length >= MAINTENANCE_LIMITS.maxItemsPerList) invalid({ value: MAINTENANCE.errors.tooMany });
    return { next: { [list]: [...current, value] }, description: MAINTENANCE.audit.added(listTitle(list), value) };
  };
}

/** The years of stored varieties the year list lacks, added in one change, in year order; null when none is missing. */
function addingYears(years: readonly string[]): Compute {
  return (lists) => {
    const current = lists.yearReleases;
    const room = MAINTENANCE_LIMITS.maxItemsPerList - current.length;
    const missing = [...new Set(years.map((y) => y.trim()))]
      .filter((y) => !optionValueProblem('yearReleases', y) && !current.some((v) => sameOption(v, y)))
      .sort()
      .slice(0, Math.max(0, room));
    if (missing.length === 0) return null;
    const next = [...current, ...missing].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    return { next: { yearReleases: next }, description: MAINTENANCE.audit.yearsInUse(missing.join(', ')) };
  };
}

function removing(list: ListKey, value: string): Compute {
  return (lists) => {
    const current = lists[list];
    const exact = current.filter((v) => v !== value);
    const next = exact.length < current.length ? exact : current.filter((v) => v.trim() !== value.trim());
    if (next.length === current.length) return null;
    return { next: { [list]: next }, description: MAINTENANCE.audit.removed(listTitle(list), value.trim()) };
  };
}

/** Save Changes: whole lists, trimmed and deduplicated, at the version the page edited. */
function saving(docId: MaintenanceDocId, input: SaveListsInput): Compute {
  const keys = Object.keys(input.lists).filter((k) => input.lists[k as ListKey] !== undefined) as ListKey[];
  for (const key of keys) if (!listBelongsTo(docId, key)) invalid({ [`lists.${key}`]: MAINTENANCE.errors.wrongList });
  return (lists, row) => {
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
  };
}

function requireList(docId: MaintenanceDocId, list: ListKey): void {
  if (!listBelongsTo(docId, list)) fail('NOT_FOUND', MAINTENANCE.errors.wrongList);
}

/** File maintenance (super admin): read, count, add, remove, save. */
export function createMaintenanceService(ctx: Pick<AppContext, 'db' | 'events' | 'collections' | 'within'>) {
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
      return mutate(ctx, translatedCollections(ctx), actor, docId, adding(list, value));
    },

    /**
     * Puts the years stored varieties hold on the year list (the seed and the Firestore import):
     * a variety keeps its own year in the form, and another of that year can be added. Audited
     * as one change; nothing when every year is listed.
     */
    keepYearsInUse(actor: Actor | null, years: readonly string[]): Promise<WriteResult> {
      return mutate(ctx, translatedCollections(ctx), actor, VARIETY_ENUMS_ID, addingYears(years));
    },

    /** Subtracts one option from a list; removing one that is already gone changes nothing. */
    remove(actor: Actor, docId: MaintenanceDocId, list: ListKey, value: string): Promise<WriteResult> {
      requireList(docId, list);
      return mutate(ctx, translatedCollections(ctx), actor, docId, removing(list, value));
    },

    /**
     * What an add, remove or save would store, without writing (a change sent for review): the
     * same checks; null when it changes nothing.
     */
    async proposal(
      docId: MaintenanceDocId,
      change: { add: ListKey; value: string } | { remove: ListKey; value: string } | { save: SaveListsInput },
      from?: SaveListsInput['lists'],
    ) {
      const row = await load(db, docId);
      let compute: Compute;
      if ('add' in change) {
        requireList(docId, change.add);
        const value = change.value.trim();
        const problem = optionValueProblem(change.add, value);
        if (problem) invalid({ value: problem });
        compute = adding(change.add, value);
      } else if ('remove' in change) {
        requireList(docId, change.remove);
        compute = removing(change.remove, change.value);
      } else {
        compute = saving(docId, change.save);
      }
      const lists = { ...effectiveLists(docId, row.data, currentReleaseYear()).lists, ...from } as Record<ListKey, string[]>;
      const result = compute(lists, row);
      return result ? { version: row.version, lists: { ...from, ...result.next } } : null;
    },

    /** Save Changes: whole lists, trimmed and deduplicated, at the version the page edited. */
    save(actor: Actor, docId: MaintenanceDocId, input: SaveListsInput, restore?: Restore): Promise<WriteResult> {
      return mutate(ctx, translatedCollections(ctx), actor, docId, saving(docId, input), restore);
    },
  };
}
