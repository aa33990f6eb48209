import type SharpModule from 'sharp';

/**
 * Photos decoded by sharp: the size from the header, and the display and thumbnail variants
 * with metadata stripped. The catalog runs these on a bounded queue (platform/background/queue.ts) so a
 * large save never runs hundreds of decodes at once.
 */

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
  /** The thumbnail's pixels (the photo's fingerprint is taken from them). */
  pixels: { data: Buffer; width: number; height: number; channels: number };
}

/**
 * The display size and the thumbnail of one photo: EXIF orientation applied, then every bit
 * of metadata (GPS, camera, EXIF/XMP/IPTC) dropped, as sharp does unless asked to keep it.
 */
export async function makeVariants(
  input: Buffer,
  options: { displaySize: number; thumbSize: number; maxPixels: number },
): Promise<Variants> {
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
  const small = await sharp(data, raw)
    .resize(options.thumbSize, options.thumbSize, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = { data: small.data, width: small.info.width, height: small.info.height, channels: small.info.channels };
  const thumb = await sharp(small.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } })
    .jpeg({ quality: 72, optimiseCoding: false })
    .toBuffer();
  return { display, thumb, width: info.width, height: info.height, pixels };
}
