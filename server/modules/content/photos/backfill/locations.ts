import type { AppContext } from '../../../../platform/http/context.js';
import { cleanStoredPhoto } from '../pixels/photo-privacy.js';
import { photoWork as repo } from '../repository/work.js';
import { passOverStoredPhotos, type PassProgress } from './stored-pass.js';

/**
 * Removes location and identifying metadata from the stored photos not yet cleaned
 * (locationCleaned = 0), on the local folder or S3: each original is read, cleaned and
 * written back under its key, then its row is marked. Resumable: a stopped run leaves the rest
 * marked 0, and cleaning a photo twice changes nothing. Photos that cannot be read as images are
 * counted and left as they are (their ids are logged).
 */
export function cleanStoredLocations(ctx: AppContext, onProgress?: (p: PassProgress) => void): Promise<PassProgress> {
  return passOverStoredPhotos(
    ctx,
    {
      count: () => repo.countUncleaned(ctx.db),
      next: (after, limit) => repo.uncleaned(ctx.db, after, limit),
      skipped: 'photo cleanup: left as it is',
      async visit(row) {
        const clean = await cleanStoredPhoto(ctx.storage, row.originalKey);
        if (clean.changed) await ctx.storage.put(row.originalKey, clean.body);
        await repo.markCleaned(ctx.db, row.id, {
          sha256: clean.sha256,
          sizeBytes: clean.body.length,
          takenAt: clean.takenAt,
          cameraMake: clean.camera.make,
          cameraModel: clean.camera.model,
        });
        return clean.changed;
      },
    },
    onProgress,
  );
}
