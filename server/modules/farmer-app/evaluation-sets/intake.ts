import crypto from 'node:crypto';
import fs from 'node:fs';
import { CATALOG_LIMITS } from '../../../../common/catalog.js';
import { DATASET_LIMITS } from '../../../../common/dataset.js';
import { EVALUATION_SET_LIMITS as L, EVALUATION_SET_TEXTS } from '../../../../common/evaluation-sets.js';
import type { LeakPair } from '../../../../common/schemas/evaluation-sets.js';
import type { EvaluationSetPhotosTable } from '../../../db/types/models.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { newId } from '../../../platform/support/clock.js';
import { EXTENSION_OF, HashIndex, fingerprintImage, loadSharp, takeIn, trainingPhotoReads } from '../../content/photos/index.js';
import type { UnpackedPhoto } from './read-worker.js';

const E = EVALUATION_SET_TEXTS.errors;
const SIZES = { maxPixels: CATALOG_LIMITS.maxImagePixels, displaySize: CATALOG_LIMITS.displaySize, thumbSize: CATALOG_LIMITS.thumbSize };

/** A set photo as stored, before it has its place in the set. */
export type StoredSetPhoto = Omit<EvaluationSetPhotosTable, 'setId' | 'position'>;

/**
 * One unpacked photo stored as any upload is (location and identifying metadata removed, made
 * PHOTO_MAX_EDGE on its longest side), with a thumbnail for the report and its fingerprint. A
 * photo that cannot be read refuses the whole set.
 */
async function storePhoto(ctx: AppContext, setId: string, photo: UnpackedPhoto, recordId: string, keys: string[]): Promise<StoredSetPhoto> {
  const taken = await takeIn(await fs.promises.readFile(photo.file), photo.type, ctx.config.photoMaxEdge);
  if (taken === 'tooManyPixels') fail('PAYLOAD_TOO_LARGE', E.photoTooLarge(photo.name), { file: E.photoTooLarge(photo.name) });
  if (taken === 'unreadable') fail('UNSUPPORTED_MEDIA_TYPE', E.unreadable(photo.name), { file: E.unreadable(photo.name) });
  const sharp = await loadSharp();
  let thumb: Buffer;
  try {
    thumb = await sharp(taken.photo.body, { limitInputPixels: SIZES.maxPixels, animated: false })
      .rotate()
      .resize(SIZES.thumbSize, SIZES.thumbSize, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    return fail('UNSUPPORTED_MEDIA_TYPE', E.unreadable(photo.name), { file: E.unreadable(photo.name) });
  }
  const phash = await fingerprintImage(taken.photo.body, SIZES).then(
    (f) => f.fingerprint.phash,
    () => null,
  );
  const id = newId();
  const originalKey = `evaluation-sets/${setId}/${id}${EXTENSION_OF[taken.photo.type]}`;
  const thumbKey = `evaluation-sets/${setId}/${id}-thumb.jpg`;
  keys.push(originalKey, thumbKey);
  await ctx.storage.put(originalKey, taken.photo.body);
  await ctx.storage.put(thumbKey, thumb);
  return {
    id,
    fileName: photo.name,
    label: photo.label,
    recordId,
    originalKey,
    thumbKey,
    sha256: crypto.createHash('sha256').update(taken.photo.body).digest('hex'),
    phash,
    width: taken.photo.width,
    height: taken.photo.height,
  };
}

/**
 * Every unpacked photo stored, `L.intakeConcurrency` at a time, in the ZIP's order; on any
 * refusal or fault what was stored is removed again before the error goes on.
 */
export async function storePhotos(
  ctx: AppContext,
  setId: string,
  photos: ReadonlyArray<{ photo: UnpackedPhoto; recordId: string }>,
): Promise<{ stored: StoredSetPhoto[]; removeStored: () => Promise<void> }> {
  const keys: string[] = [];
  const removeStored = async () => {
    for (const key of keys) await ctx.storage.delete(key).catch(() => undefined);
  };
  const stored = new Array<StoredSetPhoto>(photos.length);
  let next = 0;
  let failed = false;
  const work = async () => {
    while (!failed && next < photos.length) {
      const at = next;
      next += 1;
      stored[at] = await storePhoto(ctx, setId, photos[at]!.photo, photos[at]!.recordId, keys);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: L.intakeConcurrency }, () =>
        work().catch((err: unknown) => {
          failed = true;
          throw err;
        }),
      ),
    );
  } catch (err) {
    await removeStored();
    throw err;
  }
  return { stored, removeStored };
}

/**
 * The set's photos that are near-copies of training photos (the live diseases' and training
 * classes' stored originals): the same bytes, or perceptual hashes within the Dataset health
 * threshold. Each set photo's nearest training photo is one pair.
 */
export async function leakPairs(
  ctx: AppContext,
  photos: readonly StoredSetPhoto[],
  records: ReadonlyArray<{ id: string; name: string }>,
): Promise<LeakPair[]> {
  const training = await trainingPhotoReads.originals(
    ctx.db,
    records.map((r) => r.id),
  );
  const names = new Map(records.map((r) => [r.id, r.name]));
  const bySha = new Map(training.flatMap((t) => (t.sha256 ? [[t.sha256, t] as const] : [])));
  const hashed = training.filter((t) => t.phash);
  const index = new HashIndex();
  for (const t of hashed) index.add(t.phash!);
  const pairs: LeakPair[] = [];
  for (const p of photos) {
    const same = bySha.get(p.sha256);
    let match: { imageId: string; entryId: string; distance: number } | null = same
      ? { imageId: same.id, entryId: same.entryId!, distance: 0 }
      : null;
    if (!match && p.phash) {
      const near = index.near(p.phash, DATASET_LIMITS.nearDuplicateBits).sort((a, b) => a.distance - b.distance)[0];
      if (near) match = { imageId: hashed[near.index]!.id, entryId: hashed[near.index]!.entryId!, distance: near.distance };
    }
    if (match)
      pairs.push({
        photoId: p.id,
        fileName: p.fileName,
        imageId: match.imageId,
        recordId: match.entryId,
        recordName: names.get(match.entryId) ?? '',
        distance: match.distance,
      });
  }
  return pairs;
}
