import { maintenanceDocIdSchema, type ListKey, type SaveListsInput } from '../../../../common/schemas/maintenance.js';
import type { RestoreRequest, VersionedCollection } from '../../publishing/versions/index.js';
import { candidate } from '../../publishing/versions/index.js';
import { fieldKeys } from '../../publishing/versions/index.js';
import type { Snapshot } from '../../publishing/versions/index.js';
import { maintenanceSnapshot } from './lists.js';
import { maintenanceRepository } from './repository.js';
import { translationsRecords } from '../translations/index.js';
import { createMaintenanceService } from './service.js';

/** An option-list document as versions sees it: its lists as users see them; restored through File Maintenance's save. */
export const optionListsVersioned: VersionedCollection = {
  collection: 'maintenance',

  async current(db, ids) {
    const out = new Map<string, { snapshot: Snapshot; recordVersion: number }>();
    for (const id of ids) {
      const docId = maintenanceDocIdSchema.safeParse(id);
      const row = docId.success ? await maintenanceRepository.find(db, docId.data) : undefined;
      if (row && docId.success) {
        const translations = (await translationsRecords.snapshotsOf(db, 'maintenance', [id])).get(id) ?? {};
        out.set(id, { snapshot: { ...maintenanceSnapshot(docId.data, row), translations }, recordVersion: Number(row.version) });
      }
    }
    return out;
  },

  async restore(ctx, request: RestoreRequest): Promise<number> {
    const docId = maintenanceDocIdSchema.parse(request.id);
    const values = candidate('maintenance', request);
    const lists: SaveListsInput['lists'] = {};
    for (const key of fieldKeys('maintenance', request.id)) {
      const list = values[key];
      if (Array.isArray(list)) lists[key as ListKey] = list.map(String);
    }
    await createMaintenanceService(ctx).save(
      request.actor,
      docId,
      { version: request.input.version, lists },
      { from: request.number, ...(request.snapshot.translations ? { translations: request.snapshot.translations } : {}) },
    );
    return 0;
  },
};
