import { loadSharp } from './images.js';

/** A photo's perceptual hash and the measures its quality flags come from (common/dataset.ts). */
export interface Fingerprint {
  /** 64-bit DCT perceptual hash as 16 hex digits. */
  phash: string;
  /** Variance of the Laplacian of the grey image at the thumbnail's size (long edge 480 px). */
  sharpness: number;
  /** Median grey level, 0–255, and the 5th and 95th percentiles. */
  brightness: number;
  brightnessLow: number;
  brightnessHigh: number;
  /** Entropy of the grey levels in bits (0–8). */
  entropy: number;
}

export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

const N = 32;
/** cos((2x + 1) u π / 2N) for the 8 lowest frequencies u of a 32-point DCT-II. */
const COS = Array.from({ length: 8 }, (_, u) =>
  Float64Array.from({ length: N }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N))),
);

/**
 * pHash as imagededup computes it: the grey image at 32×32, its 2-D DCT, the 8×8 lowest
 * frequencies, each bit set when the coefficient is at least their median (the DC term left
 * out of the median). Row-major bits, the first the most significant.
 */
export function phashOf(grey32: Uint8Array): string {
  const rows = new Float64Array(N * 8);
  for (let y = 0; y < N; y += 1) {
    for (let u = 0; u < 8; u += 1) {
      let s = 0;
      for (let x = 0; x < N; x += 1) s += grey32[y * N + x]! * COS[u]![x]!;
      rows[y * 8 + u] = s;
    }
  }
  const coef = new Float64Array(64);
  for (let v = 0; v < 8; v += 1) {
    for (let u = 0; u < 8; u += 1) {
      let s = 0;
      for (let y = 0; y < N; y += 1) s += rows[y * 8 + u]! * COS[v]![y]!;
      coef[v * 8 + u] = s;
    }
  }
  const sorted = Array.from(coef.subarray(1)).sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hex = '';
  for (let nibble = 0; nibble < 16; nibble += 1) {
    let n = 0;
    for (let b = 0; b < 4; b += 1) n = (n << 1) | (coef[nibble * 4 + b]! >= median ? 1 : 0);
    hex += n.toString(16);
  }
  return hex;
}

/** Sharpness, brightness (median, 5th and 95th percentiles) and entropy of a grey image. */
function measures(grey: Uint8Array, width: number, height: number): Omit<Fingerprint, 'phash'> {
  const histogram = new Uint32Array(256);
  for (const g of grey) histogram[g]! += 1;
  const percentile = (p: number) => {
    let count = 0;
    for (let level = 0; level < 256; level += 1) {
      count += histogram[level]!;
      if (count >= grey.length * p) return level;
    }
    return 255;
  };
  let entropy = 0;
  for (const n of histogram) if (n > 0) entropy -= (n / grey.length) * Math.log2(n / grey.length);
  // 4-neighbour Laplacian over the inner pixels; its variance is low when edges are soft.
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const i = y * width + x;
      const l = grey[i - width]! + grey[i + width]! + grey[i - 1]! + grey[i + 1]! - 4 * grey[i]!;
      sum += l;
      sumSq += l * l;
      n += 1;
    }
  }
  const sharpness = n === 0 ? 0 : sumSq / n - (sum / n) ** 2;
  return {
    sharpness: Math.round(sharpness * 10) / 10,
    brightness: percentile(0.5),
    brightnessLow: percentile(0.05),
    brightnessHigh: percentile(0.95),
    entropy: Math.round(entropy * 1000) / 1000,
  };
}

/** Grey levels (ITU-R BT.601 weights) of RGB, RGBA or grey pixels; alpha was flattened before. */
function greyOf(p: RawPixels): Uint8Array {
  if (p.channels < 3) return p.channels === 1 ? p.data : Uint8Array.from({ length: p.width * p.height }, (_, i) => p.data[i * 2]!);
  const grey = new Uint8Array(p.width * p.height);
  for (let i = 0, j = 0; i < grey.length; i += 1, j += p.channels) {
    grey[i] = (77 * p.data[j]! + 150 * p.data[j + 1]! + 29 * p.data[j + 2]!) >> 8;
  }
  return grey;
}

/**
 * The fingerprint of decoded pixels: the thumbnail job passes the thumbnail's pixels it has
 * already made (EXIF orientation applied, long edge THUMB size), so the cost is one grey pass,
 * the measures, and a 32×32 resize of the grey image.
 */
export async function fingerprintPixels(pixels: RawPixels): Promise<Fingerprint> {
  const sharp = await loadSharp();
  const grey = greyOf(pixels);
  const small = await sharp(grey, { raw: { width: pixels.width, height: pixels.height, channels: 1 } })
    .resize(N, N, { fit: 'fill', kernel: 'lanczos3' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  // One byte a pixel: libvips may hand a one-band image back with more bands.
  const step = small.info.channels;
  const grey32 = step === 1 ? small.data : Uint8Array.from({ length: N * N }, (_, i) => small.data[i * step]!);
  return { phash: phashOf(grey32), ...measures(grey, pixels.width, pixels.height) };
}

/**
 * The fingerprint of a stored photo, from the same pixels the thumbnail job takes it from:
 * rotated, flattened, resized to the display size and then to the thumbnail size.
 */
export async function fingerprintImage(
  input: Buffer,
  sizes: { maxPixels: number; displaySize: number; thumbSize: number },
): Promise<{ fingerprint: Fingerprint; width: number; height: number }> {
  const sharp = await loadSharp();
  const meta = await sharp(input, { limitInputPixels: sizes.maxPixels, failOn: 'error' }).metadata();
  const display = await sharp(input, { limitInputPixels: sizes.maxPixels, failOn: 'error', animated: false })
    .rotate()
    .resize(sizes.displaySize, sizes.displaySize, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const small = await sharp(display.data, {
    raw: { width: display.info.width, height: display.info.height, channels: display.info.channels },
  })
    .resize(sizes.thumbSize, sizes.thumbSize, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const fingerprint = await fingerprintPixels({
    data: small.data,
    width: small.info.width,
    height: small.info.height,
    channels: small.info.channels,
  });
  const rotated = (meta.orientation ?? 1) >= 5;
  return {
    fingerprint,
    width: (rotated ? meta.height : meta.width) ?? display.info.width,
    height: (rotated ? meta.width : meta.height) ?? display.info.height,
  };
}
