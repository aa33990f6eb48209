import { CATALOG_COLLECTIONS } from '../../../../common/catalog.js';
import { moveStamps, recordsStamp } from '../../../platform/cache/stamps.js';
import { backfillFirstVersions } from '../../publishing/versions/index.js';
import { tidyVarietySearch } from '../../../db/variety-search.js';
import { sealAuditChain } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { readerOf } from '../../../platform/parsing/file-readers.js';
import { readCollections, type ExportCollections } from './firestore.js';
import type { exportTasks } from './read-worker.js';
import { createImportRun } from './import-run.js';
import { importAccounts } from './map-accounts.js';
import { importAuditLogs } from './map-audit-logs.js';
import { importCatalog } from './map-catalog.js';
import { importMaintenance } from './map-maintenance.js';
import { importVarieties } from './map-varieties.js';
import { createMaintenanceService } from '../../content/maintenance/index.js';
import { createVarietiesService } from '../../content/varieties/index.js';

export interface ImportOptions {
  dryRun?: boolean;
  /** Try to download image URLs into storage (otherwise they stay external). */
  fetchImages?: boolean;
  /** Deadline of one image's download (default 10 s). */
  fetchTimeoutMs?: number;
  /** Largest image body downloaded (default: the catalog's upload limit); a larger one is cut off and not imported. */
  maxImageBytes?: number;
  /** Fetch from loopback and private addresses too (tests); refused by default (image-fetch.ts). */
  allowPrivateAddresses?: boolean;
  onProgress?: (progress: { phase: string; done: number; total: number }) => void;
}

const exportReader = readerOf<typeof exportTasks>(new URL('./read-worker.js', import.meta.url));

const EXPORT_READ_LIMITS = { memoryMb: 1024, timeLimitMs: 600_000 };

/**
 * A Firebase export file read on a file reader's thread. It is the operator's file, read by a
 * command, not an upload: the thread may take up to a gigabyte and ten minutes, still capped.
 */
export function readExportFile(
  ctx: AppContext,
  file: string,
  limits: { memoryMb: number; timeLimitMs: number } = EXPORT_READ_LIMITS,
): Promise<ExportCollections> {
  return exportReader.run(ctx.files, 'export', [file], { field: 'file', ...limits });
}

export type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped';
export interface ImportReport {
  dryRun: boolean;
  counts: Record<string, Record<Outcome, number>>;
  images: { fetched: number; external: string[]; unchanged: number };
  problems: string[];
}

const ORDER = ['maintenance', 'accounts', 'rice_seed_varieties', 'rice_local_pests', 'rice_local_diseases', 'audit_logs'] as const;

/** Imports a Firebase export's JSON as it is parsed (its layout read here). */
export function importFirestoreExport(ctx: AppContext, json: unknown, options: ImportOptions = {}): Promise<ImportReport> {
  return importFirestoreCollections(ctx, readCollections(json), options);
}

/**
 * Imports a Firebase export laid out as collections (readExportFile's result), collection by
 * collection in ORDER, each by its own mapper (map-*.ts) over one shared run (import-run.ts):
 * ids kept, re-runs change nothing.
 */
export async function importFirestoreCollections(
  ctx: AppContext,
  collections: ExportCollections,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const dryRun = options.dryRun ?? false;
  const run = createImportRun(ctx, collections, ORDER, options);
  const { report } = run;
  for (const name of Object.keys(collections)) {
    if (!(ORDER as readonly string[]).includes(name))
      report.problems.push(`Collection "${name}" is not part of the console and was ignored.`);
  }
  await importMaintenance(run, collections.maintenance ?? {});
  await importAccounts(run, collections.accounts ?? {});
  await importVarieties(run, collections.rice_seed_varieties ?? {});
  for (const collection of ['rice_local_pests', 'rice_local_diseases'] as const)
    await importCatalog(run, collection, collections[collection] ?? {});
  await importAuditLogs(run, collections.audit_logs ?? {});

  const changed = Object.values(report.counts).reduce((n, c) => n + c.created + c.updated, 0);
  if (!dryRun && changed > 0) {
    await runCommand(ctx, null, async (trx, cmd) => {
      await cmd.audit({
        action: 'CREATE',
        collection: 'import',
        documentId: null,
        documentName: 'Firebase export',
        description: `Imported the Firebase export: ${Object.entries(report.counts)
          .map(([c, n]) => `${c} +${n.created} ~${n.updated}`)
          .join(', ')}`,
      });
      for (const topic of ['accounts', 'rice_seed_varieties', 'rice_local_pests', 'rice_local_diseases', 'maintenance'])
        cmd.publish({ topic, op: 'import' });
      await moveStamps(trx, CATALOG_COLLECTIONS.map(recordsStamp));
    });
  }
  // The years the imported varieties hold join the year list, so each keeps its own in the form.
  if (!dryRun) await createMaintenanceService(ctx).keepYearsInUse(null, await createVarietiesService(ctx).yearsInUse());
  // Chained now, not by a running server's sealer: the import may run with no server.
  if (!dryRun) await sealAuditChain(ctx.db);
  // Imported records start their versions from what was imported.
  if (!dryRun) await backfillFirstVersions(ctx);
  if (!dryRun) await tidyVarietySearch(ctx.db);
  return report;
}
