import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type SharpModule from 'sharp';
import { LocalStorage, PRIVATE_DIR_MODE, type Storage } from './storage.js';

let sharpModule: Promise<typeof SharpModule> | null = null;
/** sharp (libvips, about 30 MB) is loaded on first use, not at start: most requests never need it. */
export function loadSharp(): Promise<typeof SharpModule> {
  sharpModule ??= import('sharp').then((m) => {
    // One libvips thread per decode; parallelism comes from the queue's own concurrency.
    m.default.concurrency(1);
    m.default.cache(false);
    return m.default;
  });
  return sharpModule;
}

/**
 * Image handling shared by every feature that stores photos: the real type by magic bytes,
 * streamed hashing, display/thumbnail variants made by sharp with metadata stripped, and a
 * bounded background queue so a large save never runs hundreds of decodes at once.
 */

export type SniffedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';
export type RefusedType = 'svg' | 'heic' | 'unknown';

export const EXTENSION_OF: Record<SniffedType, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'image/gif': '.gif',
};

/** Bytes needed to tell the accepted types (and the refused SVG/HEIC) apart. */
export const SNIFF_BYTES = 512;

/** The file's real type from its first bytes; never from its name or declared type. */
export function sniffImageType(head: Buffer): { type: SniffedType } | { refused: RefusedType } {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { type: 'image/jpeg' };
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { type: 'image/png' };
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return { type: 'image/webp' };
  if (head.length >= 6 && (head.toString('latin1', 0, 6) === 'GIF87a' || head.toString('latin1', 0, 6) === 'GIF89a')) return { type: 'image/gif' };
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif'].includes(brand)) return { refused: 'heic' };
  }
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart().slice(0, SNIFF_BYTES).toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg')) || (text.startsWith('<!doctype svg'))) return { refused: 'svg' };
  if (text.startsWith('<?xml') || text.startsWith('<!--')) return { refused: text.includes('svg') ? 'svg' : 'unknown' };
  return { refused: 'unknown' };
}

export class RefusedImageError extends Error {
  constructor(readonly reason: RefusedType) {
    super(`refused image: ${reason}`);
  }
}

/**
 * Checks the first bytes of an upload stream and, when they show an accepted image, returns
 * the whole stream again (head included) with a running sha256 and byte count, and keeps its
 * first `keepBytes` (enough for the header sharp reads) so the file need not be read back.
 * A refused type throws RefusedImageError before anything is written.
 */
export async function sniffStream(source: AsyncIterable<Buffer>, keepBytes = 256 * 1024): Promise<{ type: SniffedType; body: Readable; result(): { sha256: string; bytes: number; head: Buffer } }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) { ended = true; break; }
    head.push(next.value);
    headLength += next.value.length;
  }
  const sniffed = sniffImageType(Buffer.concat(head, headLength));
  if ('refused' in sniffed) {
    if (!ended) await iterator.return?.();
    throw new RefusedImageError(sniffed.refused);
  }
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const kept: Buffer[] = [];
  let keptLength = 0;
  const take = (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
    if (keptLength < keepBytes) {
      const part = chunk.subarray(0, keepBytes - keptLength);
      kept.push(Buffer.from(part));
      keptLength += part.length;
    }
    return chunk;
  };
  async function* all(): AsyncGenerator<Buffer> {
    for (const chunk of head) yield take(chunk);
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield take(next.value);
    }
  }
  let digest: string | null = null;
  return {
    type: sniffed.type,
    body: Readable.from(all(), { objectMode: false }),
    result: () => ({ sha256: (digest ??= hash.digest('hex')), bytes, head: Buffer.concat(kept, keptLength) }),
  };
}

/** Reads a stored file whole (photos are capped in size, and only a few are read at once). */
export async function readStored(storage: Storage, key: string): Promise<Buffer> {
  if (storage instanceof LocalStorage) return fsp.readFile(storage.localPath(key));
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class TargetExistsError extends Error {}

/**
 * Moves a stored file without ever replacing another one (TargetExistsError when the target
 * exists): a hard link plus unlink on the local folder, copy-then-delete on other backends.
 */
export async function moveStored(storage: Storage, from: string, to: string): Promise<void> {
  if (from === to) return;
  if (storage instanceof LocalStorage) {
    const target = storage.localPath(to);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      await fsp.link(storage.localPath(from), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new TargetExistsError(to);
      throw err;
    }
    await fsp.unlink(storage.localPath(from));
    return;
  }
  if (await storage.stat(to)) throw new TargetExistsError(to);
  if (storage.copy) await storage.copy(from, to);
  else await storage.put(to, await storage.get(from));
  await storage.delete(from);
}

/** Width and height from the header, without decoding the pixels. */
export async function probeImage(input: Buffer): Promise<{ width: number; height: number; pages: number } | null> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(input, { failOn: 'none' }).metadata();
    if (!meta.width || !meta.height) return null;
    return { width: meta.width, height: meta.height, pages: meta.pages ?? 1 };
  } catch {
    return null;
  }
}

export interface Variants {
  display: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/**
 * The display size and the thumbnail of one photo: EXIF orientation applied, then every bit
 * of metadata (GPS, camera, EXIF/XMP/IPTC) dropped, as sharp does unless asked to keep it.
 */
export async function makeVariants(input: Buffer, options: { displaySize: number; thumbSize: number; maxPixels: number }): Promise<Variants> {
  const sharp = await loadSharp();
  const source = sharp(input, { limitInputPixels: options.maxPixels, failOn: 'error', animated: false });
  const { hasAlpha } = await source.metadata();
  // One decode (shrunk on load where the format allows it) to display-size pixels; both
  // variants are encoded from those. Baseline JPEG without optimised Huffman tables: a few
  // per cent larger files for about a fifth less CPU per photo.
  let pipeline = source.rotate().resize(options.displaySize, options.displaySize, { fit: 'inside', withoutEnlargement: true });
  if (hasAlpha) pipeline = pipeline.flatten({ background: '#ffffff' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const display = await sharp(data, raw).jpeg({ quality: 80, optimiseCoding: false }).toBuffer();
  const thumb = await sharp(data, raw)
    .resize(options.thumbSize, options.thumbSize, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 72, optimiseCoding: false })
    .toBuffer();
  return { display, thumb, width: info.width, height: info.height };
}

/**
 * A bounded in-process work queue: at most `concurrency` jobs run at once and the rest wait
 * as plain keys (no buffers are held for waiting jobs). A key already waiting is not added twice.
 */
export class BoundedQueue {
  private waiting: string[] = [];
  private waitingSet = new Set<string>();
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(private concurrency: number, private readonly worker: (key: string) => Promise<void>, private readonly onError: (key: string, err: unknown) => void) {}

  push(key: string): void {
    if (this.stopped || this.waitingSet.has(key)) return;
    this.waiting.push(key);
    this.waitingSet.add(key);
    this.pump();
  }

  /** Changes how many jobs may run at once (running jobs are not interrupted). */
  setConcurrency(concurrency: number): void {
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  get size(): number {
    return this.waiting.length + this.running;
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking new work; the running jobs finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting = [];
    this.waitingSet.clear();
    if (this.running > 0) await this.idle();
    else this.settle();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const key = this.waiting.shift()!;
      this.waitingSet.delete(key);
      this.running += 1;
      this.worker(key)
        .catch((err: unknown) => this.onError(key, err))
        .finally(() => {
          this.running -= 1;
          this.pump();
          if (this.size === 0) this.settle();
        });
    }
  }

  private settle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }
}

/** Keeps a string usable as one file-name segment of at most `maxBytes` UTF-8 bytes. */
export function clampBytes(text: string, maxBytes: number): string {
  let out = text;
  while (Buffer.byteLength(out, 'utf8') > maxBytes) out = out.slice(0, -1);
  return out;
}

/** A safe file name whose extension matches the real type (a PNG named x.jpg becomes x.png). */
export function fileNameForType(safeName: string, type: SniffedType): string {
  const ext = EXTENSION_OF[type];
  const dot = safeName.lastIndexOf('.');
  const stem = dot > 0 ? safeName.slice(0, dot) : safeName;
  return `${clampBytes(stem || 'photo', 120)}${ext}`;
}
