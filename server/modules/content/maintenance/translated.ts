import { MAINTENANCE } from '../../../../common/maintenance.js';
import { TRANSLATED_LISTS, optionField, type TranslatedListDoc } from '../../../../common/languages.js';
import { currentReleaseYear, type ListKey, type MaintenanceDocId } from '../../../../common/schemas/maintenance.js';
import type { SourceRecord, TranslatedPart } from '../translations/index.js';
import { effectiveLists } from './lists.js';
import { maintenanceRepository } from './repository.js';
import { optionListsVersioned } from './versioned.js';

const DOCS = Object.keys(TRANSLATED_LISTS) as TranslatedListDoc[];

/**
 * The option values the farmer app shows (seasons, environments, planting methods, affected
 * parts), each its own translated field `<list>:<value>` of its document.
 */
export const optionListsTranslated: TranslatedPart = {
  collection: 'maintenance',
  async sources(db, ids) {
    const out = new Map<string, SourceRecord>();
    for (const docId of DOCS.filter((d) => !ids || ids.includes(d))) {
      const row = await maintenanceRepository.find(db, docId);
      if (!row) continue;
      const { lists } = effectiveLists(docId as MaintenanceDocId, row.data, currentReleaseYear());
      const fields: Record<string, string> = {};
      for (const list of TRANSLATED_LISTS[docId]) for (const value of lists[list as ListKey]) fields[optionField(list, value)] = value;
      out.set(docId, { name: MAINTENANCE.audit.names[docId as MaintenanceDocId], version: Number(row.version), fields });
    }
    return out;
  },
  async touch(trx, docId, version, now, cmd) {
    const row = await maintenanceRepository.find(trx, docId);
    if (!row) return 0;
    const changed = await maintenanceRepository.updateAtVersion(trx, docId, version, row.data, now);
    if (changed) cmd.publish({ topic: 'maintenance', id: docId, op: 'update' });
    return changed;
  },
  async snapshots(db, ids) {
    return new Map([...(await optionListsVersioned.current(db, ids))].map(([id, state]) => [id, state.snapshot]));
  },
};
