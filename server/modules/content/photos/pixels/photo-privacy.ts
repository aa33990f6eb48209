import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { NO_CAMERA_FACTS, readCameraFacts, takenAtIso, writeCameraFacts, type CameraFacts } from './exif.js';
import { keptGifBlocks, MalformedGifError } from './gif-blocks.js';
import { SNIFF_BYTES, sniffImageType, type SniffedType } from './image-type.js';
import type { Storage } from '../../../../platform/storage/storage.js';
import { readStored } from '../../../../platform/storage/stored-files.js';

/**
 * A photo as stored: the picture's own bytes untouched (never re-encoded), without the
 * metadata that can locate or identify a person: the EXIF block is replaced by one holding only
 * the camera make and model, the capture time and the orientation (exif.ts); XMP, IPTC,
 * comments, text chunks, embedded thumbnails and anything after the image's end (the extra
 * pictures phones append, each with its own EXIF) are dropped. Colour profiles are kept, except
 * a GIF's (an application extension, as XMP is: gif-blocks.ts keeps only the looping one).
 */
export interface CleanPhoto {
  body: Buffer;
  camera: CameraFacts;
  /** False when the photo had nothing to remove (its bytes are the ones given). */
  changed: boolean;
}

export class UnreadablePhotoError extends Error {
  constructor(reason: string) {
    super(`unreadable photo: ${reason}`);
  }
}

export function cleanPhoto(photo: Buffer, type: SniffedType): CleanPhoto {
  if (type === 'image/jpeg') return cleanJpeg(photo);
  if (type === 'image/png') return cleanPng(photo);
  if (type === 'image/webp') return cleanWebp(photo);
  return cleanGif(photo);
}

function cleanGif(gif: Buffer): CleanPhoto {
  try {
    return finish(gif, keptGifBlocks(gif), { ...NO_CAMERA_FACTS });
  } catch (err) {
    if (err instanceof MalformedGifError) throw new UnreadablePhotoError(err.message);
    throw err;
  }
}

const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

function finish(original: Buffer, parts: Buffer[], camera: CameraFacts): CleanPhoto {
  const body = Buffer.concat(parts);
  const changed = !body.equals(original);
  return { body: changed ? body : original, camera, changed };
}

// JPEG: APP0 (JFIF), APP2 ICC_PROFILE and APP14 (Adobe colour transform) are kept; every other
// APPn and COM segment is dropped, and the file ends at the first EOI.
function keepJpegSegment(marker: number, segment: Buffer): boolean {
  if (marker === 0xfe) return false;
  if (marker < 0xe0 || marker > 0xef) return true;
  if (marker === 0xe0 || marker === 0xee) return true;
  return marker === 0xe2 && segment.toString('latin1', 4, 16) === 'ICC_PROFILE\0';
}

function cleanJpeg(jpeg: Buffer): CleanPhoto {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new UnreadablePhotoError('no JPEG start');
  let camera: CameraFacts = { ...NO_CAMERA_FACTS };
  let exifSeen = false;
  const head: Buffer[] = [];
  const rest: Buffer[] = [];
  let inScans = false;
  let pos = 2;
  while (pos + 1 < jpeg.length) {
    if (jpeg[pos] !== 0xff) throw new UnreadablePhotoError(`no marker at ${pos}`);
    let marker = jpeg[pos + 1]!;
    while (marker === 0xff && pos + 2 < jpeg.length) marker = jpeg[++pos + 1]!;
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      (inScans ? rest : head).push(jpeg.subarray(pos, pos + 2));
      pos += 2;
      continue;
    }
    if (pos + 4 > jpeg.length) throw new UnreadablePhotoError('cut in a marker');
    const end = pos + 2 + jpeg.readUInt16BE(pos + 2);
    if (end > jpeg.length || end < pos + 4) throw new UnreadablePhotoError('a segment runs past the end');
    const segment = jpeg.subarray(pos, end);
    if (marker === 0xda) {
      // The scan's entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
      let next = end;
      for (;;) {
        next = jpeg.indexOf(0xff, next);
        if (next < 0 || next + 1 >= jpeg.length) {
          next = jpeg.length;
          break;
        }
        const after = jpeg[next + 1]!;
        if (after === 0x00 || (after >= 0xd0 && after <= 0xd7)) next += 2;
        else if (after === 0xff) next += 1;
        else break;
      }
      rest.push(jpeg.subarray(pos, next));
      inScans = true;
      pos = next;
      continue;
    }
    if (marker === 0xe1 && !exifSeen && segment.subarray(4, 10).equals(EXIF_PREFIX)) {
      exifSeen = true;
      camera = readCameraFacts(segment.subarray(10));
    }
    if (keepJpegSegment(marker, segment)) (inScans ? rest : head).push(segment);
    pos = end;
  }
  const app1 = exifSegment(camera);
  // The new EXIF block goes right after SOI, or after APP0 when the file starts with one.
  const afterApp0 = head[0] && head[0][1] === 0xe0 ? 1 : 0;
  const parts = [jpeg.subarray(0, 2), ...head.slice(0, afterApp0), ...app1, ...head.slice(afterApp0), ...rest, Buffer.from([0xff, 0xd9])];
  return finish(jpeg, parts, camera);
}

/** The APP1 segment holding only these camera facts (none when there are none). */
function exifSegment(camera: CameraFacts): Buffer[] {
  const tiff = writeCameraFacts(camera);
  if (!tiff) return [];
  const length = Buffer.alloc(4);
  length.writeUInt16BE(0xffe1, 0);
  length.writeUInt16BE(2 + EXIF_PREFIX.length + tiff.length, 2);
  return [length, EXIF_PREFIX, tiff];
}

/** A JPEG made without metadata (a resized photo) given the camera facts of the photo it was made from. */
export function withCameraFacts(jpeg: Buffer, camera: CameraFacts): Buffer {
  const app1 = exifSegment(camera);
  return app1.length === 0 ? jpeg : Buffer.concat([jpeg.subarray(0, 2), ...app1, jpeg.subarray(2)]);
}

// PNG: eXIf is replaced, tEXt, zTXt and iTXt (where XMP and author names live) are dropped,
// and the file ends at IEND.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(type)) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function cleanPng(png: Buffer): CleanPhoto {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new UnreadablePhotoError('no PNG signature');
  let camera: CameraFacts = { ...NO_CAMERA_FACTS };
  const parts: Buffer[] = [PNG_SIGNATURE];
  let exifPlaced = false;
  let pos = 8;
  while (pos + 12 <= png.length) {
    const length = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (end > png.length) throw new UnreadablePhotoError('a chunk runs past the end');
    if (type === 'eXIf') camera = readCameraFacts(png.subarray(pos + 8, pos + 8 + length));
    if ((type === 'IDAT' || type === 'IEND') && !exifPlaced) {
      exifPlaced = true;
      const tiff = writeCameraFacts(camera);
      if (tiff) parts.push(pngChunk('eXIf', tiff));
    }
    if (!PNG_DROPPED.has(type)) parts.push(png.subarray(pos, end));
    pos = end;
    if (type === 'IEND') break;
  }
  return finish(png, parts, camera);
}

// WebP: the EXIF and XMP chunks of the extended format are replaced and dropped, VP8X's flags
// and the RIFF size follow.
function cleanWebp(webp: Buffer): CleanPhoto {
  if (webp.length < 12 || webp.toString('latin1', 0, 4) !== 'RIFF' || webp.toString('latin1', 8, 12) !== 'WEBP')
    throw new UnreadablePhotoError('no WebP header');
  let camera: CameraFacts = { ...NO_CAMERA_FACTS };
  const chunks: Array<{ type: string; data: Buffer }> = [];
  let pos = 12;
  const riffEnd = Math.min(webp.length, 8 + webp.readUInt32LE(4));
  while (pos + 8 <= riffEnd) {
    const type = webp.toString('latin1', pos, pos + 4);
    const size = webp.readUInt32LE(pos + 4);
    if (pos + 8 + size > webp.length) throw new UnreadablePhotoError('a chunk runs past the end');
    chunks.push({ type, data: webp.subarray(pos + 8, pos + 8 + size) });
    pos += 8 + size + (size % 2);
  }
  const exifChunk = chunks.find((c) => c.type === 'EXIF');
  if (exifChunk) {
    const data = exifChunk.data.subarray(0, 6).equals(EXIF_PREFIX) ? exifChunk.data.subarray(6) : exifChunk.data;
    camera = readCameraFacts(data);
  }
  const kept = chunks.filter((c) => c.type !== 'EXIF' && c.type !== 'XMP ');
  const vp8x = kept.find((c) => c.type === 'VP8X');
  const tiff = vp8x ? writeCameraFacts(camera) : null;
  if (vp8x) {
    const flags = Buffer.from(vp8x.data);
    flags[0] = (flags[0]! & ~0x0c) | (tiff ? 0x08 : 0);
    vp8x.data = flags;
  }
  if (tiff) kept.push({ type: 'EXIF', data: tiff });
  const body: Buffer[] = [];
  for (const c of kept) {
    const head = Buffer.alloc(8);
    head.write(c.type, 0, 'latin1');
    head.writeUInt32LE(c.data.length, 4);
    body.push(head, c.data);
    if (c.data.length % 2) body.push(Buffer.alloc(1));
  }
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + body.reduce((n, b) => n + b.length, 0), 4);
  riff.write('WEBP', 8, 'latin1');
  return finish(webp, [riff, ...body], camera);
}

export interface CleanStoredPhoto extends CleanPhoto {
  sha256: string;
  /** The capture time as ISO 8601 (exif.ts `takenAtIso`). */
  takenAt: string | null;
}

/** A stored photo read whole and cleaned (nothing is written back); its type from its bytes. */
export async function cleanStoredPhoto(storage: Storage, key: string): Promise<CleanStoredPhoto> {
  const stored = await readStored(storage, key);
  const sniffed = sniffImageType(stored.subarray(0, SNIFF_BYTES));
  if (!('type' in sniffed)) throw new UnreadablePhotoError(`not an accepted image (${sniffed.refused})`);
  const clean = cleanPhoto(stored, sniffed.type);
  return { ...clean, sha256: crypto.createHash('sha256').update(clean.body).digest('hex'), takenAt: takenAtIso(clean.camera) };
}
