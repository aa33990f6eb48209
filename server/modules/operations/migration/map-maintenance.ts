import { ACCOUNT_ENUMS_ID, DISEASE_ENUMS_ID, VARIETY_ENUMS_ID } from '../../../../common/schemas/maintenance.js';
import { maintenanceRecords } from '../../content/maintenance/index.js';
import { toIso, toList, type ExportCollections } from './firestore.js';
import { same, type ImportRun } from './import-run.js';

/** Option lists: only the lists of the three option-list documents. */
export async function importMaintenance(run: ImportRun, docs: ExportCollections[string]): Promise<void> {
  for (const [docId, doc] of Object.entries(docs)) {
    run.tick('maintenance');
    const seen = await run.seenBefore('maintenance', docId, doc);
    if (seen.same) continue;
    const lists: Record<string, string[]> = {};
    const keys =
      docId === VARIETY_ENUMS_ID
        ? ['seasons', 'plantingMethods', 'environments', 'yearReleases']
        : docId === ACCOUNT_ENUMS_ID
          ? ['securityQuestions']
          : docId === DISEASE_ENUMS_ID
            ? ['affectedParts']
            : null;
    if (!keys) {
      run.report.problems.push(`maintenance/${docId} is not an option-list document; ignored.`);
      run.count('maintenance', 'skipped');
      continue;
    }
    for (const k of keys) lists[k] = [...new Set(toList(doc[k]))];
    const existing = await maintenanceRecords.find(run.db, docId);
    const current = existing ? Object.fromEntries(keys.map((k) => [k, existing.data[k] ?? []])) : null;
    if (current && same(current, lists)) {
      run.count('maintenance', 'unchanged');
      await run.remember('maintenance', docId, seen.hash);
      continue;
    }
    if (!run.dryRun) {
      if (existing) await maintenanceRecords.update(run.db, docId, { ...existing.data, ...lists }, toIso(doc.updatedAt) ?? run.importedAt);
      else await maintenanceRecords.insertIfMissing(run.db, docId, lists, toIso(doc.createdAt) ?? run.importedAt);
    }
    run.count('maintenance', existing ? 'updated' : 'created');
    await run.remember('maintenance', docId, seen.hash);
  }
}
