import type { UploadItem } from './upload-batch';

export interface UploadStats {
  /** Files that will be photos of the entry: skipped copies are not counted. */
  count: number;
  skipped: number;
  done: number;
  failed: number;
  active: number;
  totalBytes: number;
  sentBytes: number;
  /** Seconds left at the recent rate, or null while unknown. */
  secondsLeft: number | null;
}

export const EMPTY_STATS: UploadStats = {
  count: 0,
  skipped: 0,
  done: 0,
  failed: 0,
  active: 0,
  totalBytes: 0,
  sentBytes: 0,
  secondsLeft: null,
};
const RATE_WINDOW_MS = 5000;

/** Counts, bytes and time left of a batch; `samples` (bytes sent over time) gives the recent rate. */
export function statsOf(items: readonly UploadItem[], samples: Array<{ at: number; sent: number }>): UploadStats {
  const stats = { ...EMPTY_STATS };
  for (const item of items) {
    if (item.status === 'skipped') {
      stats.skipped += 1;
      continue;
    }
    stats.count += 1;
    stats.totalBytes += item.size;
    if (item.status === 'done') {
      stats.done += 1;
      stats.sentBytes += item.size;
    } else if (item.status === 'failed') stats.failed += 1;
    else {
      stats.sentBytes += item.loaded;
      if (item.status !== 'queued' && item.status !== 'missing') stats.active += 1;
    }
  }
  const queued = stats.count - stats.done - stats.failed - stats.active;
  const now = performance.now();
  samples.push({ at: now, sent: stats.sentBytes });
  while (samples.length > 2 && now - samples[0]!.at > RATE_WINDOW_MS) samples.shift();
  const first = samples[0]!;
  const rate = now - first.at > 500 ? (stats.sentBytes - first.sent) / ((now - first.at) / 1000) : 0;
  const remaining = stats.totalBytes - stats.sentBytes;
  stats.secondsLeft = stats.active + queued === 0 ? 0 : rate > 0 ? remaining / rate : null;
  return stats;
}

/**
 * A batch's files as they are now (the stats trail them by up to ~120 ms): how many are still on
 * their way (a continued draft's file not chosen again included) and how many failed. A save
 * decides on these, never on the stats.
 */
export function settlementOf(items: readonly UploadItem[]): { unsettled: number; failed: number } {
  let unsettled = 0;
  let failed = 0;
  for (const item of items) {
    if (item.status === 'failed') failed += 1;
    else if (item.status !== 'done' && item.status !== 'skipped') unsettled += 1;
  }
  return { unsettled, failed };
}
