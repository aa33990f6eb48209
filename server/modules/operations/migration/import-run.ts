import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { CATALOG_LIMITS } from '../../../../common/catalog.js';
import type { Database } from '../../../db/types.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { EXTENSION_OF, SNIFF_BYTES, sniffImageType, type SniffedType } from '../../content/photos/index.js';
import type { Storage } from '../../../platform/storage/storage.js';
import type { ExportCollections, ExportDoc } from './firestore.js';
import { fetchImageBytes, ImageFetchError } from './image-fetch.js';
import type { ImportOptions, ImportReport, Outcome } from './importer.js';
import { migrationRepository as repo, type ImportTable } from './repository.js';

export interface FetchedImage {
  body: Buffer;
  mime: SniffedType;
  ext: string;
}

/** Stable ids for rows the export has no id for (images), so a second run finds them again. */
export function stableId(...parts: string[]): string {
  const h = crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** One import run: what every collection's mapper shares (the report, the re-run memory, writes). */
export interface ImportRun {
  db: Kysely<Database>;
  storage: Storage;
  /** PHOTO_MAX_EDGE: fetched photos larger than this are stored at this size. */
  photoMaxEdge: number;
  dryRun: boolean;
  /** Image URLs are downloaded (--no-fetch turns it off); they stay links otherwise. */
  fetchImages: boolean;
  importedAt: string;
  report: ImportReport;
  count(collection: string, outcome: Outcome): void;
  tick(phase: string): void;
  /**
   * A document whose exported content is the same as at the last import is left alone, even
   * if staff changed the record since (a re-run never undoes their work).
   */
  seenBefore(collection: string, id: string, doc: ExportDoc): Promise<{ hash: string; same: boolean }>;
  remember(collection: string, id: string, hash: string): Promise<void>;
  /** Creates or updates one row; compares the mapped fields so an unchanged row is left alone. */
  upsert(table: ImportTable, collection: string, id: string, row: Record<string, unknown>): Promise<Outcome>;
  /** An image URL's bytes when fetching is on and they are an accepted image (by its bytes), else why not. */
  fetchImage(url: string): Promise<FetchedImage | { failed: string }>;
}

export function createImportRun(
  ctx: AppContext,
  collections: ExportCollections,
  order: readonly string[],
  options: ImportOptions,
): ImportRun {
  const { db, storage } = ctx;
  const dryRun = options.dryRun ?? false;
  const report: ImportReport = { dryRun, counts: {}, images: { fetched: 0, external: [], unchanged: 0 }, problems: [] };
  const total = order.reduce((n, c) => n + Object.keys(collections[c] ?? {}).length, 0);
  let done = 0;
  const importedAt = nowIso();
  const run: ImportRun = {
    db,
    storage,
    photoMaxEdge: ctx.config.photoMaxEdge,
    dryRun,
    fetchImages: options.fetchImages ?? false,
    importedAt,
    report,
    count(collection, outcome) {
      report.counts[collection] ??= { created: 0, updated: 0, unchanged: 0, skipped: 0 };
      report.counts[collection][outcome] += 1;
    },
    tick(phase) {
      done += 1;
      options.onProgress?.({ phase, done, total });
    },
    async seenBefore(collection, id, doc) {
      const hash = crypto.createHash('sha256').update(JSON.stringify(doc)).digest('hex');
      const last = await repo.lastImportHash(db, collection, id);
      if (last === hash) run.count(collection, 'unchanged');
      return { hash, same: last === hash };
    },
    async remember(collection, id, hash) {
      if (!dryRun) await repo.recordImport(db, collection, id, hash, importedAt);
    },
    async upsert(table, collection, id, row) {
      const existing = await repo.findById(db, table, id);
      if (!existing) {
        if (!dryRun) await repo.insert(db, table, { id, ...row });
        run.count(collection, 'created');
        return 'created';
      }
      const changed = Object.fromEntries(Object.entries(row).filter(([k, v]) => !same(existing[k], v)));
      if (Object.keys(changed).length === 0) {
        run.count(collection, 'unchanged');
        return 'unchanged';
      }
      if (!dryRun) await repo.update(db, table, id, changed);
      run.count(collection, 'updated');
      return 'updated';
    },
    async fetchImage(url) {
      if (!options.fetchImages) return { failed: 'fetching is off' };
      let body: Buffer;
      try {
        body = await fetchImageBytes(url, {
          maxBytes: options.maxImageBytes ?? CATALOG_LIMITS.maxUploadBytes,
          timeoutMs: options.fetchTimeoutMs ?? 10_000,
          allowPrivateAddresses: options.allowPrivateAddresses ?? false,
        });
      } catch (err) {
        if (err instanceof ImageFetchError) return { failed: err.message };
        throw err;
      }
      const sniffed = sniffImageType(body.subarray(0, SNIFF_BYTES));
      if (!('type' in sniffed)) return { failed: `not an accepted image (${sniffed.refused})` };
      return { body, mime: sniffed.type, ext: EXTENSION_OF[sniffed.type] };
    },
  };
  return run;
}
