import type { Kysely } from 'kysely';
import { MAINTENANCE } from '../../../../common/maintenance.js';
import {
  ACCOUNT_ENUMS_ID,
  DISEASE_ENUMS_ID,
  VARIETY_ENUMS_ID,
  defaultDiseaseEnums,
  defaultVarietyEnums,
  currentReleaseYear,
  DEFAULT_SECURITY_QUESTIONS,
  type AccountEnums,
  type DiseaseEnums,
  type OptionLists,
  type VarietyEnums,
} from '../../../../common/schemas/maintenance.js';
import type { Database } from '../../../db/types.js';
import { runCommand } from '../../../platform/writes/command.js';
import { recordVersion } from '../../publishing/versions/index.js';
import { maintenanceSnapshot } from './lists.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { EventBus } from '../../../platform/writes/events.js';
import { defaultsFor, effectiveLists, extendYears, stringList, yearsThroughOf } from './lists.js';
import { maintenanceRepository } from './repository.js';

/* The lists every form reads, the defaults made at start and the year's rollover. */

/**
 * Persists the years the year-release list gained when the year turned (once: concurrent
 * instances race on the version and the loser finds nothing left to add).
 */
export async function ensureYearRollover(
  db: Kysely<Database>,
  events: EventBus | null,
  currentYear = currentReleaseYear(),
): Promise<string[]> {
  const row = await maintenanceRepository.find(db, VARIETY_ENUMS_ID);
  if (!row) return [];
  const stored = stringList(row.data.yearReleases, defaultVarietyEnums().yearReleases);
  const { years, added } = extendYears(stored, yearsThroughOf(row.data, stored, currentYear), currentYear);
  if (added.length === 0) return [];
  const data = { ...row.data, yearReleases: years, yearsThrough: currentYear };
  const written = await runCommand({ db, events }, null, async (trx, cmd) => {
    const now = nowIso();
    if ((await maintenanceRepository.updateAtVersion(trx, VARIETY_ENUMS_ID, row.version, data, now)) === 0) return false;
    const auditId = await cmd.audit({
      action: 'UPDATE',
      collection: 'maintenance',
      documentId: VARIETY_ENUMS_ID,
      documentName: MAINTENANCE.audit.names[VARIETY_ENUMS_ID],
      description: MAINTENANCE.audit.newYear(added.join(', ')),
      changes: { before: { yearReleases: stored }, after: { yearReleases: years } },
    });
    await recordVersion(trx, {
      collection: 'maintenance',
      documentId: VARIETY_ENUMS_ID,
      recordVersion: row.version + 1,
      auditId,
      actor: null,
      snapshot: maintenanceSnapshot(VARIETY_ENUMS_ID, { data }),
      kind: 'edit',
    });
    cmd.publish({ topic: 'maintenance', id: VARIETY_ENUMS_ID, op: 'update' });
    return true;
  });
  return written ? added : [];
}

/** Creates the option-list documents with docs/PRODUCT.md's defaults when they are missing. */
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
  return {
    seasons: lists.seasons,
    plantingMethods: lists.plantingMethods,
    environments: lists.environments,
    yearReleases: lists.yearReleases,
  };
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
