import crypto from 'node:crypto';
import { CATALOG_LIMITS, type CatalogKind } from '../../../../common/catalog.js';
import { UPLOAD_TEXTS } from '../../../../common/catalog-texts.js';
import type { StagedImage } from '../../../../common/schemas/catalog.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { failTooLarge, isMultipartTooLarge } from '../../../platform/http/multipart-errors.js';
import { clampBytes, fileNameForType, RefusedImageError, sniffStream, type SniffedType } from './pixels/image-type.js';
import { probeImage } from './pixels/images.js';
import { takenAtIso, type CameraFacts } from './pixels/exif.js';
import { cleanPhoto, UnreadablePhotoError, type CleanPhoto } from './pixels/photo-privacy.js';
import { readAll } from '../../../platform/storage/stored-files.js';
import { fitPhotoEdge } from './pixels/photo-size.js';
import { safeSegment } from '../../../platform/storage/storage.js';
import { photosRepository } from './repository/life.js';
import { fingerprintImage, type Fingerprint } from './pixels/fingerprint.js';
import { similarPhotos } from './copies.js';
import type { PhotoRuntime } from './variants.js';

export interface TakenIn {
  photo: { body: Buffer; type: SniffedType; width: number; height: number };
  /** The camera facts the photo keeps (make, model, capture time, orientation). */
  camera: CameraFacts;
}

/**
 * The intake every stored photo passes, an upload's and the Firebase import's: its location and
 * identifying metadata removed (the picture's bytes untouched), its pixels counted against
 * CATALOG_LIMITS.maxImagePixels, then made `maxEdge` on its longest side when it is larger (0:
 * kept at its size).
 */
export async function takeIn(body: Buffer, type: SniffedType, maxEdge: number): Promise<TakenIn | 'unreadable' | 'tooManyPixels'> {
  let clean: CleanPhoto;
  try {
    clean = cleanPhoto(body, type);
  } catch (err) {
    if (err instanceof UnreadablePhotoError) return 'unreadable';
    throw err;
  }
  const probe = await probeImage(clean.body);
  if (!probe) return 'unreadable';
  if (probe.width * probe.height > CATALOG_LIMITS.maxImagePixels) return 'tooManyPixels';
  const sized = await fitPhotoEdge(clean.body, type, clean.camera, maxEdge, probe);
  return sized ? { photo: sized, camera: clean.camera } : 'unreadable';
}

export interface StageOptions {
  filename: string;
  uploadedBy: string;
  /** Store the photo at the size sent, past PHOTO_MAX_EDGE (a super admin's choice per upload batch). */
  keepOriginal?: boolean;
}

/**
 * Stores one uploaded photo in a staging folder: the real type from its first bytes, the
 * picture's bytes unchanged but without location or identifying metadata (photo-privacy.ts),
 * made PHOTO_MAX_EDGE on its longest side when it is larger (photo-size.ts; the browser does
 * the same before sending, this holds for every other client), its sha256. Its variants are
 * queued at once.
 */
export async function stagePhoto(
  ctx: AppContext,
  kind: CatalogKind,
  runtime: PhotoRuntime,
  source: AsyncIterable<Buffer>,
  options: StageOptions,
  truncated: () => boolean,
): Promise<StagedImage> {
  const id = newId();
  let sniffed: Awaited<ReturnType<typeof sniffStream>>;
  try {
    sniffed = await sniffStream(source);
  } catch (err) {
    if (err instanceof RefusedImageError) {
      const message =
        err.reason === 'svg' ? UPLOAD_TEXTS.svgRefused : err.reason === 'heic' ? UPLOAD_TEXTS.heicNotConverted : UPLOAD_TEXTS.notImage;
      fail('UNSUPPORTED_MEDIA_TYPE', message, { file: message });
    }
    throw err;
  }
  const rawName = options.filename || 'photo';
  // The whole photo (at most maxUploadBytes) is read before it is stored: its location and
  // identifying metadata are removed first, so no stored copy ever holds them.
  let body: Buffer;
  try {
    body = await readAll(sniffed.body);
  } catch (err) {
    if (isMultipartTooLarge(err) || truncated()) failTooLarge(UPLOAD_TEXTS);
    throw err;
  }
  if (truncated()) failTooLarge(UPLOAD_TEXTS);
  const taken = await takeIn(body, sniffed.type, options.keepOriginal ? 0 : ctx.config.photoMaxEdge);
  if (taken === 'tooManyPixels') fail('PAYLOAD_TOO_LARGE', UPLOAD_TEXTS.tooManyPixels, { file: UPLOAD_TEXTS.tooManyPixels });
  if (taken === 'unreadable') fail('UNSUPPORTED_MEDIA_TYPE', UPLOAD_TEXTS.unreadable, { file: UPLOAD_TEXTS.unreadable });
  const { photo: sized, camera } = taken;
  const fileName = fileNameForType(safeSegment(rawName, 'photo'), sized.type);
  const key = `${kind.folder}/_staged/${id}/${fileName}`;
  const cleanup = () => ctx.storage.delete(key).catch(() => undefined);
  try {
    await ctx.storage.put(key, sized.body);
  } catch (err) {
    await cleanup();
    throw err;
  }
  const sha256 = crypto.createHash('sha256').update(sized.body).digest('hex');
  const staged = {
    id,
    originalName: clampBytes(rawName, 255),
    mimeType: sized.type,
    sizeBytes: sized.body.length,
    width: sized.width,
    height: sized.height,
    sha256,
  };
  // A disease photo is training data: its fingerprint is taken now, so the uploader hears at once
  // which stored photos it copies (the thumbnail job would only know in a few seconds).
  let fingerprint: Fingerprint | null = null;
  if (kind.trainingSetExport) {
    const sizes = {
      maxPixels: CATALOG_LIMITS.maxImagePixels,
      displaySize: CATALOG_LIMITS.displaySize,
      thumbSize: CATALOG_LIMITS.thumbSize,
    };
    fingerprint = await fingerprintImage(sized.body, sizes).then(
      (f) => f.fingerprint,
      () => null,
    );
  }
  try {
    await photosRepository.insert(ctx.db, {
      ...staged,
      collection: kind.collection,
      entryId: null,
      position: 0,
      originalKey: key,
      displayKey: null,
      thumbKey: null,
      externalUrl: null,
      status: 'pending',
      uploadedBy: options.uploadedBy,
      createdAt: nowIso(),
      linkedAt: null,
      takenAt: takenAtIso(camera),
      cameraMake: camera.make,
      cameraModel: camera.model,
      locationCleaned: 1,
      ...fingerprint,
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
  runtime.queue.push(id);
  const similar = fingerprint ? await similarPhotos(ctx, { id, sha256, phash: fingerprint.phash, uploadedBy: options.uploadedBy }) : [];
  return { ...staged, similar };
}
