import { useSyncExternalStore } from 'react';
import { CATALOG_LIMITS, type CatalogKind } from '../../../common/catalog';
import { ApiError } from '../../lib/api';
import { uploadPhoto } from './api';
import { EMPTY_STATS, statsOf, type UploadStats } from './upload-stats';
import { prepareForUpload, type PhotoSizing } from './prepare-photo';
import { isConnectionLost, ReconnectWait } from './reconnect';
import { sameFile, type RestoredPhoto, type UploadItem } from './upload-item';

export type { UploadItem } from './upload-item';

/** Marks a chosen file that has no staged id yet; never sent to the server. */
export const PENDING_PREFIX = 'pending:';

const NOTIFY_EVERY_MS = 120;

/**
 * The bulk uploader's state, kept outside React so 2000 files and their progress events do
 * not re-render the dialog on every event: a few uploads run at once, each file has its own
 * status and progress, a failed file is retried on its own, and subscribers hear at most
 * every ~120 ms.
 */
export class UploadBatch {
  items: UploadItem[] = [];
  stats: UploadStats = EMPTY_STATS;
  /** Changes whenever the set or order of uploaded image ids changes. */
  doneVersion = 0;
  /** Changes whenever files are added to or taken out of the batch (a copy left out included). */
  itemsVersion = 0;
  private version = 0;
  private nextKey = 1;
  private waiting: UploadItem[] = [];
  private controllers = new Map<number, AbortController>();
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private samples: Array<{ at: number; sent: number }> = [];
  private closed = false;
  /** While the connection is lost the queue waits, then tries again by itself. */
  readonly connection = new ReconnectWait(
    () => this.notify(true),
    () => this.pump(),
  );

  private readonly concurrency: number;
  /** The entry being edited (its saved photos count as the entry's), null for a new one. */
  readonly entryId: string | null;
  private readonly discard: (ids: string[]) => void;
  private readonly sizing: () => Promise<PhotoSizing>;
  /** A super admin's choice for this batch: photos are sent and stored at their full size. */
  keepOriginals = false;

  constructor(
    private readonly kind: CatalogKind,
    options: { concurrency?: number; entryId?: string | null; discard?: (ids: string[]) => void; sizing?: () => Promise<PhotoSizing> } = {},
  ) {
    this.concurrency = options.concurrency ?? CATALOG_LIMITS.browserUploadConcurrency;
    this.entryId = options.entryId ?? null;
    this.discard = options.discard ?? (() => {});
    this.sizing = options.sizing ?? (() => Promise.resolve({ maxEdge: 0, quality: CATALOG_LIMITS.photoResizeQuality }));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** Files chosen: a file a continued draft waits for takes its place; any other joins the end. */
  add(files: File[]): void {
    for (const file of files) {
      const waitingFor = this.items.find((i) => i.status === 'missing' && sameFile(i, file));
      if (waitingFor) {
        Object.assign(waitingFor, { file, name: file.name, size: file.size, status: 'queued' });
        this.waiting.push(waitingFor);
        continue;
      }
      if (this.draftHas(file)) continue;
      const item: UploadItem = {
        key: this.nextKey++,
        file,
        source: { name: file.name, size: file.size, lastModified: file.lastModified },
        name: file.name,
        size: file.size,
        status: 'queued',
        loaded: 0,
        imageId: null,
        error: null,
        sha256: null,
        similar: [],
      };
      this.items.push(item);
      this.waiting.push(item);
    }
    this.itemsVersion += 1;
    this.pump();
    this.notify(true);
  }

  /** How many of `files` would join the batch (not the files a continued draft waits for or has). */
  countNew(files: readonly File[]): number {
    return files.filter((f) => !this.draftHas(f)).length;
  }

  /** A continued draft's photo made from this file: uploaded, or waiting for it. */
  private draftHas(file: File): boolean {
    return this.items.some((i) => (i.status === 'missing' || i.thumbUrl !== undefined) && sameFile(i, file));
  }

  /** A draft's photos in their order: those uploaded as done, the others waiting for their file. */
  restore(photos: readonly RestoredPhoto[]): void {
    for (const p of photos) {
      this.items.push({
        key: this.nextKey++,
        file: new File([], p.name),
        source: { name: p.name, size: p.size, lastModified: p.lastModified },
        name: p.name,
        size: p.size,
        status: p.id ? 'done' : 'missing',
        loaded: p.id ? p.size : 0,
        imageId: p.id,
        error: null,
        sha256: null,
        similar: [],
        thumbUrl: p.thumbUrl,
      });
    }
    this.doneVersion += 1;
    this.itemsVersion += 1;
    this.notify(true);
  }

  /** Leaves out a continued draft's photos whose files were not chosen again. */
  removeMissing(): void {
    this.items = this.items.filter((i) => i.status !== 'missing');
    this.itemsVersion += 1;
    this.notify(true);
  }

  /** Takes one file out of the batch; returns its staged id when it had been uploaded. */
  remove(key: number): string | null {
    const item = this.items.find((i) => i.key === key);
    if (!item) return null;
    this.controllers.get(key)?.abort();
    this.items = this.items.filter((i) => i !== item);
    this.waiting = this.waiting.filter((i) => i !== item);
    if (item.status === 'done') this.doneVersion += 1;
    this.itemsVersion += 1;
    this.notify(true);
    return item.imageId;
  }

  retry(key: number): void {
    this.requeue(this.items.filter((i) => i.key === key && i.status === 'failed'));
  }

  retryFailed(): void {
    this.requeue(this.items.filter((i) => i.status === 'failed'));
  }

  private requeue(items: UploadItem[]): void {
    for (const item of items) {
      Object.assign(item, { status: 'queued', error: null, loaded: 0 });
      this.waiting.push(item);
    }
    this.pump();
    this.notify(true);
  }

  /** Removes every failed file. */
  removeFailed(): void {
    this.items = this.items.filter((i) => i.status !== 'failed');
    this.itemsVersion += 1;
    this.notify(true);
  }

  /** Stops everything; returns the staged ids so the caller can discard them. */
  close(): string[] {
    this.closed = true;
    this.connection.stop();
    this.waiting = [];
    this.controllers.forEach((c) => c.abort());
    this.controllers.clear();
    if (this.timer) clearTimeout(this.timer);
    return this.uploadedIds();
  }

  /**
   * Every chosen file in order: its staged id once uploaded, a placeholder before. Rules on how
   * many photos an entry has are checked on this list, so they answer before uploads finish.
   */
  chosenIds(): string[] {
    return this.items
      .filter((item) => item.status !== 'skipped')
      .map((item) => (item.status === 'done' && item.imageId ? item.imageId : `${PENDING_PREFIX}${item.key}`));
  }

  /** Staged image ids in the order the files were picked. */
  uploadedIds(): string[] {
    const ids: string[] = [];
    for (const item of this.items) if (item.status === 'done' && item.imageId) ids.push(item.imageId);
    return ids;
  }

  private pump(): void {
    while (!this.closed && !this.connection.paused && this.controllers.size < this.concurrency && this.waiting.length > 0) {
      const item = this.waiting.shift()!;
      if (item.status !== 'queued' || !this.items.includes(item)) continue;
      void this.run(item);
    }
  }

  private async run(item: UploadItem): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(item.key, controller);
    try {
      const keepOriginal = this.keepOriginals;
      await prepareForUpload(item, { keepOriginal, sizing: this.sizing, signal: controller.signal, onStep: () => this.notify(false) });
      item.status = 'uploading';
      this.notify(false);
      const staged = await uploadPhoto(
        this.kind,
        item.file,
        (fraction) => {
          item.loaded = Math.round(fraction * item.size);
          this.notify(false);
        },
        controller.signal,
        keepOriginal,
      );
      item.loaded = item.size;
      item.imageId = staged.id;
      item.sha256 = staged.sha256 ?? null;
      item.similar = staged.similar ?? [];
      this.connection.succeeded();
      item.status = this.copiesAnother(item) ? 'skipped' : 'done';
      if (item.status === 'skipped') {
        this.discard([staged.id]);
        this.itemsVersion += 1;
      } else this.doneVersion += 1;
    } catch (err) {
      if ((err as Error).name === 'AbortError') {
        if (!this.closed && this.items.includes(item)) {
          item.status = 'queued';
          item.loaded = 0;
        }
      } else if (isConnectionLost(err) && !this.closed && this.items.includes(item)) {
        // Back to the front of the queue; the queue waits for the connection.
        item.status = 'queued';
        item.loaded = 0;
        this.waiting.unshift(item);
        this.connection.lost();
      } else {
        item.status = 'failed';
        item.loaded = 0;
        item.error = err instanceof ApiError ? err.message : 'The photo could not be converted.';
      }
    } finally {
      this.controllers.delete(item.key);
      if (!this.closed) this.pump();
      this.notify(false);
    }
  }

  /** The same bytes as a photo already in the entry: an uploaded file of this batch, or a saved photo of the entry. */
  private copiesAnother(item: UploadItem): boolean {
    if (item.sha256 && this.items.some((other) => other !== item && other.status === 'done' && other.sha256 === item.sha256)) return true;
    return this.entryId !== null && item.similar.some((s) => s.exact && s.entryId === this.entryId);
  }

  /** `soon` for the user's own actions (add, remove, retry); progress and status changes are batched. */
  private notify(soon: boolean): void {
    if (this.closed) return;
    if (this.timer && !soon) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.stats = statsOf(this.items, this.samples);
        this.version += 1;
        this.listeners.forEach((l) => l());
      },
      soon ? 16 : NOTIFY_EVERY_MS,
    );
  }
}

/** Re-renders the caller when the batch changes (at most every ~120 ms). */
export function useUploadBatch(batch: UploadBatch): number {
  return useSyncExternalStore(batch.subscribe, batch.getVersion);
}
