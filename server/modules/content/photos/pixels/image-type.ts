/**
 * The real type of an upload by its magic bytes (never by its name or declared type), read
 * from a stream hashed on the way, and a file name that matches that type.
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
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { type: 'image/png' };
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return { type: 'image/webp' };
  if (head.length >= 6 && (head.toString('latin1', 0, 6) === 'GIF87a' || head.toString('latin1', 0, 6) === 'GIF89a'))
    return { type: 'image/gif' };
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif'].includes(brand)) return { refused: 'heic' };
  }
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, SNIFF_BYTES)
    .toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg')) || text.startsWith('<!doctype svg'))
    return { refused: 'svg' };
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
 * the whole stream again (head included). A refused type throws RefusedImageError before
 * anything is read further.
 */
export async function sniffStream(source: AsyncIterable<Buffer>): Promise<{ type: SniffedType; body: AsyncIterable<Buffer> }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const sniffed = sniffImageType(Buffer.concat(head, headLength));
  if ('refused' in sniffed) {
    if (!ended) await iterator.return?.();
    throw new RefusedImageError(sniffed.refused);
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { type: sniffed.type, body: all() };
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
