import { useSyncExternalStore } from 'react';
import { CATALOG_LIMITS, type CatalogKind } from '../../../common/catalog';
import { ApiError } from '../../lib/api';
import type { StagedImage } from '../../../common/schemas/catalog';
import { uploadPhoto } from './api';
import { EMPTY_STATS, statsOf, type UploadStats } from './upload-stats';
import { convertHeic, isHeic } from './heic';

/** 'skipped': the same bytes as another photo of the entry, so left out (and not counted). */
export type UploadStatus = 'queued' | 'converting' | 'uploading' | 'done' | 'failed' | 'skipped';

export type { UploadStats } from './upload-stats';

export interface UploadItem {
  key: number;
  file: File;
  name: string;
  size: number;
  status: UploadStatus;
  /** Bytes of this file sent so far. */
  loaded: number;
  imageId: string | null;
  error: string | null;
  sha256: string | null;
  /** Stored photos the server found this one a copy of (disease photos). */
  similar: StagedImage['similar'];
}


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
  /** Changes whenever files are added to or taken out of the batch. */
  itemsVersion = 0;
  private version = 0;
  private nextKey = 1;
  private waiting: UploadItem[] = [];
  private controllers = new Map<number, AbortController>();
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private samples: Array<{ at: number; sent: number }> = [];
  private closed = false;

  private readonly concurrency: number;
  /** The entry being edited (its saved photos count as the entry's), null for a new one. */
  readonly entryId: string | null;
  private readonly discard: (ids: string[]) => void;

  constructor(private readonly kind: CatalogKind, options: { concurrency?: number; entryId?: string | null; discard?: (ids: string[]) => void } = {}) {
    this.concurrency = options.concurrency ?? CATALOG_LIMITS.browserUploadConcurrency;
    this.entryId = options.entryId ?? null;
    this.discard = options.discard ?? (() => {});
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  add(files: File[]): void {
    for (const file of files) {
      const item: UploadItem = { key: this.nextKey++, file, name: file.name, size: file.size, status: 'queued', loaded: 0, imageId: null, error: null, sha256: null, similar: [] };
      this.items.push(item);
      this.waiting.push(item);
    }
    this.itemsVersion += 1;
    this.pump();
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
    const item = this.items.find((i) => i.key === key);
    if (!item || item.status !== 'failed') return;
    item.status = 'queued';
    item.error = null;
    item.loaded = 0;
    this.waiting.push(item);
    this.pump();
    this.notify(true);
  }

  retryFailed(): void {
    for (const item of this.items) {
      if (item.status !== 'failed') continue;
      item.status = 'queued';
      item.error = null;
      item.loaded = 0;
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
    return this.items.filter((item) => item.status !== 'skipped').map((item) => (item.status === 'done' && item.imageId ? item.imageId : `${PENDING_PREFIX}${item.key}`));
  }

  /** Staged image ids in the order the files were picked. */
  uploadedIds(): string[] {
    const ids: string[] = [];
    for (const item of this.items) if (item.status === 'done' && item.imageId) ids.push(item.imageId);
    return ids;
  }

  private pump(): void {
    while (!this.closed && this.controllers.size < this.concurrency && this.waiting.length > 0) {
      const item = this.waiting.shift()!;
      if (item.status !== 'queued' || !this.items.includes(item)) continue;
      void this.run(item);
    }
  }

  private async run(item: UploadItem): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(item.key, controller);
    try {
      if (isHeic(item.file)) {
        item.status = 'converting';
        this.notify(false);
        item.file = await convertHeic(item.file);
        item.name = item.file.name;
        item.size = item.file.size;
        if (controller.signal.aborted) throw new DOMException('Aborted', 'AbortError');
      }
      item.status = 'uploading';
      this.notify(false);
      const staged = await uploadPhoto(this.kind, item.file, (fraction) => {
        item.loaded = Math.round(fraction * item.size);
        this.notify(false);
      }, controller.signal);
      item.loaded = item.size;
      item.imageId = staged.id;
      item.sha256 = staged.sha256 ?? null;
      item.similar = staged.similar ?? [];
      item.status = this.copiesAnother(item) ? 'skipped' : 'done';
      if (item.status === 'skipped') this.discard([staged.id]);
      else this.doneVersion += 1;
    } catch (err) {
      if ((err as Error).name === 'AbortError') {
        if (!this.closed && this.items.includes(item)) { item.status = 'queued'; item.loaded = 0; }
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
    this.timer = setTimeout(() => {
      this.timer = null;
      this.stats = statsOf(this.items, this.samples);
      this.version += 1;
      this.listeners.forEach((l) => l());
    }, soon ? 16 : NOTIFY_EVERY_MS);
  }


}

/** Re-renders the caller when the batch changes (at most every ~120 ms). */
export function useUploadBatch(batch: UploadBatch): number {
  return useSyncExternalStore(batch.subscribe, batch.getVersion);
}
