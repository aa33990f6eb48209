import type { Kysely } from 'kysely';
import {
  ACCOUNT_ENUMS_ID, VARIETY_ENUMS_ID, defaultAccountEnums, defaultVarietyEnums,
  type AccountEnums, type OptionLists, type VarietyEnums, DEFAULT_SECURITY_QUESTIONS,
} from '../../../common/schemas/maintenance.js';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../platform/clock.js';
import { maintenanceRepository } from './repository.js';

function stringList(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : fallback;
}

/** Creates the option-list documents with SPEC.md's defaults when they are missing. */
export async function ensureMaintenanceDefaults(db: Kysely<Database>): Promise<void> {
  const now = nowIso();
  await maintenanceRepository.insertIfMissing(db, VARIETY_ENUMS_ID, defaultVarietyEnums(), now);
  await maintenanceRepository.insertIfMissing(db, ACCOUNT_ENUMS_ID, defaultAccountEnums(), now);
}

export async function getVarietyEnums(db: Kysely<Database>): Promise<VarietyEnums> {
  const doc = await maintenanceRepository.find(db, VARIETY_ENUMS_ID);
  const defaults = defaultVarietyEnums();
  const d = doc?.data ?? {};
  return {
    seasons: stringList(d.seasons, defaults.seasons),
    plantingMethods: stringList(d.plantingMethods, defaults.plantingMethods),
    environments: stringList(d.environments, defaults.environments),
    yearReleases: stringList(d.yearReleases, defaults.yearReleases),
  };
}

/** An empty or missing security-question list means the five defaults apply. */
export async function getAccountEnums(db: Kysely<Database>): Promise<AccountEnums> {
  const doc = await maintenanceRepository.find(db, ACCOUNT_ENUMS_ID);
  const list = stringList(doc?.data.securityQuestions, []);
  return { securityQuestions: list.length > 0 ? list : [...DEFAULT_SECURITY_QUESTIONS] };
}

export async function getOptionLists(db: Kysely<Database>): Promise<OptionLists> {
  return { riceVarieties: await getVarietyEnums(db), accounts: await getAccountEnums(db) };
}
