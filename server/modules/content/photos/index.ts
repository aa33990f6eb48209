import { pick } from '../../../platform/support/pick.js';
import { photosRepository } from './repository/life.js';

/**
 * Every photo of a pest or disease from upload to deletion; the only module that names the photo table (catalog_images;
 * lint: palayan/photo-table): intake (type by bytes, metadata cleaned, fingerprint), a save's photo list (entry-photos.ts),
 * one-photo moves (library.ts), the leased variant queue (variants.ts), resumable backfills, the pixel kit (pixels/) and
 * who may read a stored file (routes.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { fingerprintStored } from './backfill/fingerprints.js';
export { cleanStoredLocations } from './backfill/locations.js';
export { entryPhotos } from './entry-photos.js';
export { takeIn } from './intake.js';
export { photoLibrary } from './library.js';
export type { StageOptions } from './library.js';
export { NO_CAMERA_FACTS, takenAtIso } from './pixels/exif.js';
export type { CameraFacts } from './pixels/exif.js';
export { fingerprintImage } from './pixels/fingerprint.js';
export type { Fingerprint } from './pixels/fingerprint.js';
export { HashIndex } from './pixels/hash-index.js';
export { EXTENSION_OF, SNIFF_BYTES, sniffImageType } from './pixels/image-type.js';
export type { SniffedType } from './pixels/image-type.js';
export { loadSharp, probeImage } from './pixels/images.js';
export { UnreadablePhotoError, cleanPhoto, cleanStoredPhoto } from './pixels/photo-privacy.js';
export type { CleanPhoto, CleanStoredPhoto } from './pixels/photo-privacy.js';
export { fitPhotoEdge } from './pixels/photo-size.js';
export type { PhotoRow } from './repository/life.js';
export { photoReads } from './repository/reads.js';
export { trainingPhotoReads } from './repository/training-set.js';
export { photoRuntime } from './variants.js';

/** The calls of photosRepository other modules make; the rest of it is this module's own. */
export const photosRecords = pick(photosRepository, ['find', 'insert']);
