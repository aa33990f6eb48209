import { DATASET_LIMITS, hammingDistance } from '../../../../common/dataset.js';
import type { StagedImage } from '../../../../common/schemas/catalog.js';
import type { AppContext } from '../../../platform/http/context.js';
import { keptValues } from '../../../platform/cache/kept.js';
import { PHOTOS_STAMP, readStamps, recordsStamp, stampOfAll } from '../../../platform/cache/stamps.js';
import { HashIndex } from './pixels/hash-index.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import { trainingPhotoReads as repo } from './repository/training-set.js';

const MAX_SHOWN = 5;
/** Near hashes looked up per upload, nearest (then newest) first. */
const CANDIDATES = 20;

interface Indexed {
  index: HashIndex;
  ids: string[];
}

/** The index of the hashes, kept while no photo and no disease (a delete takes its photos out) is written. */
async function indexOf(ctx: AppContext): Promise<Indexed> {
  const stamp = stampOfAll(await readStamps(ctx.db), [PHOTOS_STAMP, recordsStamp('rice_local_diseases')]);
  return keptValues<Indexed>(ctx.db, 'photos/copies', 1).get('', stamp, async () => {
    const index = new HashIndex();
    const ids: string[] = [];
    for (const row of await repo.hashes(ctx.db)) {
      index.add(row.phash!);
      ids.push(row.id);
    }
    return { index, ids };
  });
}

/**
 * The stored disease photos an uploaded one is a copy of: the same bytes, or a perceptual hash
 * within the near-duplicate threshold; saved photos of live diseases, and staged photos of the
 * same uploader (another's staged photos are theirs to see). Nearest first, at most five. The
 * new photo is stored first (its insert moves the photos' stamp), so the index holds it, and the
 * next upload of a batch is compared with it too.
 */
export async function similarPhotos(
  ctx: AppContext,
  photo: { id: string; sha256: string; phash: string; uploadedBy: string },
): Promise<StagedImage['similar']> {
  const cache = await indexOf(ctx);
  // The nearest few are enough to name: a photo with hundreds of copies must not cost hundreds of rows.
  const near = cache.index
    .near(photo.phash, DATASET_LIMITS.nearDuplicateBits)
    .sort((a, b) => a.distance - b.distance || b.index - a.index)
    .slice(0, CANDIDATES)
    .map((n) => cache.ids[n.index]!);
  const exact = (await repo.withSha256(ctx.db, photo.sha256)).map((r) => r.id);
  const candidates = [...new Set([...exact, ...near])].filter((id) => id !== photo.id);
  const rows = await repo.describe(ctx.db, candidates);
  return rows
    .filter((r) => (r.entryId === null ? r.uploadedBy === photo.uploadedBy : Number(r.isDeleted) === 0))
    .map((r) => {
      const same = r.sha256 === photo.sha256;
      return {
        imageId: r.id,
        entryId: r.entryId,
        entryName: r.name ?? null,
        distance: same ? 0 : r.phash ? hammingDistance(photo.phash, r.phash) : 0,
        exact: same,
        thumbUrl: r.thumbKey ? fileUrl(r.thumbKey) : null,
      };
    })
    .sort((a, b) => Number(b.exact) - Number(a.exact) || a.distance - b.distance || (a.imageId < b.imageId ? -1 : 1))
    .slice(0, MAX_SHOWN);
}
