import { CATALOG_LIMITS } from '../../../../../common/catalog.js';
import type { AppContext } from '../../../../platform/http/context.js';
import { fingerprintImage } from '../pixels/fingerprint.js';
import { readStored } from '../../../../platform/storage/stored-files.js';
import { photoWork as repo } from '../repository/work.js';
import { passOverStoredPhotos, type PassProgress } from './stored-pass.js';

/**
 * Gives every stored photo without one its fingerprint (perceptual hash and quality measures),
 * on the local folder or S3: photos stored before fingerprints were taken with the thumbnails.
 * Resumable: a stopped run leaves the rest without, and a photo is read once. Photos that cannot
 * be decoded are counted, logged and left without.
 */
export function fingerprintStored(ctx: AppContext, onProgress?: (p: PassProgress) => void): Promise<PassProgress> {
  const sizes = { maxPixels: CATALOG_LIMITS.maxImagePixels, displaySize: CATALOG_LIMITS.displaySize, thumbSize: CATALOG_LIMITS.thumbSize };
  return passOverStoredPhotos(
    ctx,
    {
      count: () => repo.countUnfingerprinted(ctx.db),
      next: (after, limit) => repo.unfingerprinted(ctx.db, after, limit),
      skipped: 'photo fingerprint: left without',
      async visit(row) {
        const { fingerprint } = await fingerprintImage(await readStored(ctx.storage, row.originalKey), sizes);
        await repo.setFingerprint(ctx.db, row.id, fingerprint);
        return true;
      },
    },
    onProgress,
  );
}
