import { CATALOG_KIND_LIST, CATALOG_LIMITS, type CatalogKind } from '../../../../common/catalog.js';
import { appContext, type AppContext } from '../../../platform/http/context.js';
import { BoundedQueue } from '../../../platform/background/queue.js';
import { makeVariants } from './pixels/images.js';
import { fingerprintPixels } from './pixels/fingerprint.js';
import { readStored } from '../../../platform/storage/stored-files.js';
import { nowIso } from '../../../platform/support/clock.js';
import { photosRepository, type PhotoRow } from './repository/life.js';
import { photoWork } from './repository/work.js';

/** Variant decodes at once: this machine has 2 cores shared with the web server. */
export const VARIANT_CONCURRENCY = 2;
/** While photos are arriving, variants yield a core to the uploads (the save comes first). */
export const VARIANT_CONCURRENCY_DURING_UPLOADS = 1;
/** Open screens hear about ready thumbnails at most this often per entry. */
export const READY_EVENT_THROTTLE_MS = 1500;
export const CLEANUP_EVERY_MS = 60 * 60 * 1000;
/** How often an instance looks for pending photos nobody holds (another instance died). */
export const SWEEP_EVERY_MS = 30 * 1000;

export function kindOfCollection(collection: string): CatalogKind | undefined {
  return CATALOG_KIND_LIST.find((k) => k.collection === collection);
}

/** Variants do not depend on where the original lives (it moves when the entry is saved). */
export function variantKeys(kind: CatalogKind, imageId: string): { display: string; thumb: string } {
  const shard = imageId.slice(0, 2);
  return {
    display: `${kind.folder}/_variants/${shard}/${imageId}_display.jpg`,
    thumb: `${kind.folder}/_variants/${shard}/${imageId}_thumb.jpg`,
  };
}

export async function deleteImageFiles(ctx: AppContext, rows: PhotoRow[]): Promise<void> {
  for (const row of rows) {
    for (const key of [row.originalKey, row.displayKey, row.thumbKey]) {
      if (!key) continue;
      await ctx.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'could not delete a catalog file'));
    }
    const kind = kindOfCollection(row.collection);
    if (kind && !row.displayKey) {
      const keys = variantKeys(kind, row.id);
      await ctx.storage.delete(keys.display).catch(() => undefined);
      await ctx.storage.delete(keys.thumb).catch(() => undefined);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The catalog's background work for one app: the bounded variant queue, throttled live
 * events when thumbnails become ready, and the daily clean-up of staged photos never saved.
 */
export class PhotoRuntime {
  readonly queue: BoundedQueue;
  private readyEntries = new Map<string, Set<string>>();
  private flushTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private uploadsInFlight = 0;

  constructor(private readonly ctx: AppContext) {
    this.queue = new BoundedQueue(
      VARIANT_CONCURRENCY,
      (id) => this.makeVariantsFor(id),
      (id, err) => ctx.log.error({ err, imageId: id }, 'thumbnail job failed'),
    );
  }

  /** Marks an upload as running until the returned function is called. */
  beginUpload(): () => void {
    this.uploadsInFlight += 1;
    this.queue.setConcurrency(VARIANT_CONCURRENCY_DURING_UPLOADS);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.uploadsInFlight -= 1;
      if (this.uploadsInFlight === 0) this.queue.setConcurrency(VARIANT_CONCURRENCY);
    };
  }

  /** Queues pending photos that no live instance holds (after a start, or another's death). */
  async sweep(): Promise<void> {
    if (this.queue.size > 0) return;
    for (const { id } of await photoWork.pendingIds(this.ctx.db)) this.queue.push(id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.queue.stop();
    this.flushEvents();
  }

  /** One photo, by whichever instance claims it first; a failure hands it back at once. */
  private async makeVariantsFor(imageId: string): Promise<void> {
    const { db, config } = this.ctx;
    if (!(await photoWork.claim(db, imageId, config.instanceId))) return;
    try {
      await this.makeClaimedVariants(imageId);
    } catch (err) {
      await photoWork.release(db, imageId, config.instanceId).catch(() => undefined);
      throw err;
    }
  }

  private async makeClaimedVariants(imageId: string): Promise<void> {
    let row: PhotoRow | undefined;
    let input: Buffer | null = null;
    // The original may be moved by a save between reading its key and opening it: re-read.
    for (const delay of [0, 100, 400, 1500, 4000]) {
      if (delay) await sleep(delay);
      if (this.stopped) return;
      row = await photosRepository.find(this.ctx.db, imageId);
      if (!row || row.status !== 'pending' || !row.originalKey) return;
      try {
        input = await readStored(this.ctx.storage, row.originalKey);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    if (!row || !input) return;
    const kind = kindOfCollection(row.collection);
    if (!kind) return;
    let variants;
    try {
      variants = await makeVariants(input, {
        displaySize: CATALOG_LIMITS.displaySize,
        thumbSize: CATALOG_LIMITS.thumbSize,
        maxPixels: CATALOG_LIMITS.maxImagePixels,
      });
    } catch (err) {
      this.ctx.log.warn({ err, imageId }, 'a catalog photo could not be decoded');
      await photoWork.markFailed(this.ctx.db, imageId);
      if (row.entryId) this.noteReady(row.collection, row.entryId);
      return;
    }
    // The original's bytes are not needed past here: let them go while the variants are written.
    // eslint-disable-next-line no-useless-assignment -- releases the buffer for the collector
    input = null;
    const keys = variantKeys(kind, imageId);
    await this.ctx.storage.put(keys.display, variants.display);
    await this.ctx.storage.put(keys.thumb, variants.thumb);
    const fingerprint = await fingerprintPixels(variants.pixels);
    const updated = await photoWork.markReady(this.ctx.db, imageId, {
      displayKey: keys.display,
      thumbKey: keys.thumb,
      width: row.width ?? variants.width,
      height: row.height ?? variants.height,
      ...fingerprint,
    });
    if (!updated) {
      // Discarded while it was being processed.
      await this.ctx.storage.delete(keys.display);
      await this.ctx.storage.delete(keys.thumb);
      return;
    }
    if (updated.entryId) this.noteReady(updated.collection, updated.entryId);
  }

  private noteReady(collection: string, entryId: string): void {
    let set = this.readyEntries.get(collection);
    if (!set) this.readyEntries.set(collection, (set = new Set()));
    set.add(entryId);
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flushEvents(), READY_EVENT_THROTTLE_MS);
      this.flushTimer.unref();
    }
  }

  /** Publishes one 'images' event per entry whose thumbnails changed since the last flush. */
  flushEvents(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const pending = this.readyEntries;
    this.readyEntries = new Map();
    for (const [topic, ids] of pending) {
      for (const id of ids) this.ctx.events.publish({ topic, id, op: 'images' });
    }
  }

  /** Removes staged photos (rows and files) older than `maxAgeMs`; returns how many. */
  async cleanupStaged(maxAgeMs: number = CATALOG_LIMITS.stagedMaxAgeMs, now: number = Date.now()): Promise<number> {
    const before = new Date(now - maxAgeMs).toISOString();
    let removed = 0;
    for (;;) {
      const rows = await photosRepository.staleStaged(this.ctx.db, before, 500);
      if (rows.length === 0) break;
      await photosRepository.delete(
        this.ctx.db,
        rows.map((r) => r.id),
      );
      await deleteImageFiles(this.ctx, rows);
      removed += rows.length;
      if (rows.length < 500) break;
    }
    if (removed > 0) this.ctx.log.info({ removed, at: nowIso() }, 'removed staged photos that were never saved');
    return removed;
  }
}

const runtimes = new WeakMap<AppContext, PhotoRuntime>();

/** The one runtime of an app (tests use it to wait for thumbnails or run the clean-up). */
export function photoRuntime(ctx: AppContext): PhotoRuntime {
  const app = appContext(ctx);
  let runtime = runtimes.get(app);
  if (!runtime) runtimes.set(app, (runtime = new PhotoRuntime(app)));
  return runtime;
}
