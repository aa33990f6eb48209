import type { Transaction } from 'kysely';
import { TRANSLATED_LISTS, optionField } from '../../../../common/languages.js';
import { currentReleaseYear, type ListKey, type MaintenanceDocId } from '../../../../common/schemas/maintenance.js';
import type { Database } from '../../../db/types.js';
import type { Actor } from '../../../platform/writes/audit.js';
import type { Command } from '../../../platform/writes/command.js';
import type { TranslatedParts } from '../translations/index.js';
import { restoreTranslations, touchUsers } from '../translations/index.js';
import { effectiveLists } from './lists.js';

/**
 * An option document's version restored: the translations its state held come back for the
 * values the restored lists have (each from its value's English), and the records showing those
 * values are synced again. Returns the translations now stored, for the new version's state.
 */
export async function restoreOptionTranslations(
  trx: Transaction<Database>,
  cmd: Command,
  parts: TranslatedParts,
  docId: MaintenanceDocId,
  data: Record<string, unknown>,
  translations: Record<string, string>,
  actor: Actor | null,
  now: string,
): Promise<Record<string, string> | undefined> {
  const lists = (TRANSLATED_LISTS as Partial<Record<string, readonly string[]>>)[docId];
  if (!lists || !actor) return undefined;
  const values = effectiveLists(docId, data, currentReleaseYear()).lists;
  const english: Record<string, string> = {};
  for (const list of lists) for (const value of values[list as ListKey]) english[optionField(list, value)] = value;
  await restoreTranslations(trx, 'maintenance', docId, translations, english, actor.id);
  await touchUsers(trx, cmd, parts, [docId], now);
  return Object.fromEntries(Object.entries(translations).filter(([key]) => english[key.slice(0, key.lastIndexOf('@'))] !== undefined));
}
