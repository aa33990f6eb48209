import type { AppContext } from '../../platform/context.js';
import { cleanStoredPhoto } from '../../platform/photo-privacy.js';
import { catalogRepository as repo } from './repository.js';

export interface CleanupProgress { done: number; total: number; changed: number; unreadable: number }

/**
 * Removes location and identifying metadata from the stored photos not yet cleaned
 * (locationCleaned = 0), on the local folder or S3: each original is read, cleaned and
 * written back under its key, then its row is marked. Resumable: a stopped run leaves the rest
 * marked 0, and cleaning a photo twice changes nothing. Photos that cannot be read as images are
 * counted and left as they are (their ids are logged).
 */
export async function cleanStoredLocations(ctx: AppContext, onProgress: (p: CleanupProgress) => void = () => {}): Promise<CleanupProgress> {
  const progress: CleanupProgress = { done: 0, total: await repo.countUncleaned(ctx.db), changed: 0, unreadable: 0 };
  onProgress(progress);
  let after = '';
  for (;;) {
    const rows = await repo.uncleaned(ctx.db, after, 100);
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      try {
        const clean = await cleanStoredPhoto(ctx.storage, row.originalKey!);
        if (clean.changed) {
          await ctx.storage.put(row.originalKey!, clean.body);
          progress.changed += 1;
        }
        await repo.markCleaned(ctx.db, row.id, {
          sha256: clean.sha256, sizeBytes: clean.body.length, takenAt: clean.takenAt, cameraMake: clean.camera.make, cameraModel: clean.camera.model,
        });
      } catch (err) {
        progress.unreadable += 1;
        ctx.log.warn({ err, imageId: row.id }, 'photo cleanup: left as it is');
      }
      progress.done += 1;
      onProgress(progress);
    }
  }
  return progress;
}
