import { useSyncExternalStore } from 'react';
import { CATALOG_LIMITS, type CatalogKind } from '../../../common/catalog';
import { ApiError } from '../../lib/api';
import { uploadPhoto } from './api';
import { convertHeic, isHeic } from './heic';

export type UploadStatus = 'queued' | 'converting' | 'uploading' | 'done' | 'failed';

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
}

export interface UploadStats {
  count: number;
  done: number;
  failed: number;
  active: number;
  totalBytes: number;
  sentBytes: number;
  /** Seconds left at the recent rate, or null while unknown. */
  secondsLeft: number | null;
}

/** Marks a chosen file that has no staged id yet; never sent to the server. */
export const PENDING_PREFIX = 'pending:';

const EMPTY_STATS: UploadStats = { count: 0, done: 0, failed: 0, active: 0, totalBytes: 0, sentBytes: 0, secondsLeft: null };
const NOTIFY_EVERY_MS = 120;
const RATE_WINDOW_MS = 5000;

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

  constructor(private readonly kind: CatalogKind, private readonly concurrency: number = CATALOG_LIMITS.browserUploadConcurrency) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  add(files: File[]): void {
    for (const file of files) {
      const item: UploadItem = { key: this.nextKey++, file, name: file.name, size: file.size, status: 'queued', loaded: 0, imageId: null, error: null };
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
    return this.items.map((item) => (item.status === 'done' && item.imageId ? item.imageId : `${PENDING_PREFIX}${item.key}`));
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
      item.status = 'done';
      item.loaded = item.size;
      item.imageId = staged.id;
      this.doneVersion += 1;
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

  /** `soon` for the user's own actions (add, remove, retry); progress and status changes are batched. */
  private notify(soon: boolean): void {
    if (this.closed) return;
    if (this.timer && !soon) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.stats = this.computeStats();
      this.version += 1;
      this.listeners.forEach((l) => l());
    }, soon ? 16 : NOTIFY_EVERY_MS);
  }

  private computeStats(): UploadStats {
    const stats = { ...EMPTY_STATS };
    for (const item of this.items) {
      stats.count += 1;
      stats.totalBytes += item.size;
      if (item.status === 'done') { stats.done += 1; stats.sentBytes += item.size; }
      else if (item.status === 'failed') stats.failed += 1;
      else {
        stats.sentBytes += item.loaded;
        if (item.status !== 'queued') stats.active += 1;
      }
    }
    const queued = stats.count - stats.done - stats.failed - stats.active;
    const now = performance.now();
    this.samples.push({ at: now, sent: stats.sentBytes });
    while (this.samples.length > 2 && now - this.samples[0]!.at > RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const rate = now - first.at > 500 ? (stats.sentBytes - first.sent) / ((now - first.at) / 1000) : 0;
    const remaining = stats.totalBytes - stats.sentBytes;
    stats.secondsLeft = stats.active + queued === 0 ? 0 : rate > 0 ? remaining / rate : null;
    return stats;
  }
}

/** Re-renders the caller when the batch changes (at most every ~120 ms). */
export function useUploadBatch(batch: UploadBatch): number {
  return useSyncExternalStore(batch.subscribe, batch.getVersion);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  if (m < 60) return `${m} min ${s} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
