import sharp from 'sharp';
import { DEMO_PHOTO } from './plans.js';
import { H, W, clamp255, type Random } from './drawing.js';

/** The columns a centre crop to a square keeps (what a "cover" resize to 224×224 sees). */
const CROP_LEFT = (W - H) / 2;
const CROP_RIGHT = CROP_LEFT + H;

/** Mean colour of the whole image and of its centre square. */
export function means(px: Float32Array | Uint8ClampedArray): { full: [number, number, number]; centre: [number, number, number] } {
  let r = 0;
  let g = 0;
  let b = 0;
  let cr = 0;
  let cg = 0;
  let cb = 0;
  for (let y = 0; y < H; y += 1) {
    const row = y * W * 3;
    for (let i = row, end = row + CROP_LEFT * 3; i < end; i += 3) {
      r += px[i]!;
      g += px[i + 1]!;
      b += px[i + 2]!;
    }
    for (let i = row + CROP_LEFT * 3, end = row + CROP_RIGHT * 3; i < end; i += 3) {
      cr += px[i]!;
      cg += px[i + 1]!;
      cb += px[i + 2]!;
    }
    for (let i = row + CROP_RIGHT * 3, end = row + W * 3; i < end; i += 3) {
      r += px[i]!;
      g += px[i + 1]!;
      b += px[i + 2]!;
    }
  }
  return { full: [(r + cr) / (W * H), (g + cg) / (W * H), (b + cb) / (W * H)], centre: [cr / (H * H), cg / (H * H), cb / (H * H)] };
}

/** Halfway between the stretched and the centre-cropped mean: the colour both stay near. */
export const middle = (m: { full: readonly number[]; centre: readonly number[] }) => m.full.map((f, c) => (f + m.centre[c]!) / 2);

/** The columns outside the centre square, each with its weight: rising smoothly from 0 at the square's edge to 1 at the picture's. */
const SIDE_COLUMNS = Array.from({ length: W }, (_, x) => {
  const d = x < CROP_LEFT ? (CROP_LEFT - x) / CROP_LEFT : x >= CROP_RIGHT ? (x - CROP_RIGHT + 1) / CROP_LEFT : 0;
  return { x, weight: d * d * (3 - 2 * d) };
}).filter((c) => c.weight > 0);
const SIDE_SHARE = SIDE_COLUMNS.reduce((s, c) => s + c.weight, 0) / (W - H);

/**
 * Tints the bands a centre crop leaves out, fading in from the crop's edges, until their mean
 * colour is the centre square's: then the photo has the same mean whether it is stretched or
 * cropped to a square.
 */
export function balanceSides(px: Float32Array): void {
  for (let round = 0; round < 2; round += 1) {
    const m = means(px);
    // full = (centre·H + sides·(W−H)) / W
    const sides = m.full.map((f, c) => (f * W - m.centre[c]! * H) / (W - H));
    const shift = sides.map((s, c) => Math.max(-45, Math.min(45, (m.centre[c]! - s) / SIDE_SHARE)));
    if (shift.every((s) => Math.abs(s) < 0.5)) return;
    for (const { x, weight } of SIDE_COLUMNS) {
      const d0 = shift[0]! * weight;
      const d1 = shift[1]! * weight;
      const d2 = shift[2]! * weight;
      for (let i = x * 3; i < px.length; i += W * 3) {
        px[i] = clamp255(px[i]! + d0);
        px[i + 1] = clamp255(px[i + 1]! + d1);
        px[i + 2] = clamp255(px[i + 2]! + d2);
      }
    }
  }
}

/** Luminance grain, as a phone camera's sensor leaves, one value a pixel (xorshift: a call of `random` a pixel is too slow). */
export function grain(random: Random, amount: number): Float32Array {
  const noise = new Float32Array(W * H);
  let x = Math.floor(random() * 0xffffffff) | 1;
  for (let p = 0; p < noise.length; p += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    // Two bytes summed: a triangular spread, more natural than a flat one.
    noise[p] = (((x & 255) + ((x >>> 8) & 255)) / 255 - 1) * amount;
  }
  return noise;
}

let labelPixels: Promise<{ data: Buffer; width: number; height: number }> | null = null;

/** The corner label, rendered once: white text on a dark tab. */
function label(): Promise<{ data: Buffer; width: number; height: number }> {
  labelPixels ??= (async () => {
    const width = 196;
    const height = 20;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" ` +
      `height="${height}" rx="4" fill="#000" fill-opacity="0.62"/><text x="${width / 2}" y="14" ` +
      `text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="11.5" ` +
      `fill="#fff">${DEMO_PHOTO.label}</text></svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  })();
  return labelPixels;
}

/** Draws the label in the bottom-right corner; returns the mask of the pixels it covers. */
export async function stampLabel(px: Float32Array): Promise<Uint8Array> {
  const l = await label();
  const mask = new Uint8Array(W * H);
  const left = W - l.width - 8;
  const top = H - l.height - 8;
  for (let y = 0; y < l.height; y += 1) {
    for (let x = 0; x < l.width; x += 1) {
      const s = (y * l.width + x) * 4;
      const a = l.data[s + 3]! / 255;
      if (a === 0) continue;
      const p = (top + y) * W + left + x;
      mask[p] = 1;
      for (let c = 0; c < 3; c += 1) px[p * 3 + c] = px[p * 3 + c]! * (1 - a) + l.data[s + c]! * a;
    }
  }
  return mask;
}

/**
 * The pixels recoloured, channel by channel, as v·scale + offset, with grain, clipped to 0–255;
 * pixels under the label are kept as they are, so it stays legible whatever the colour.
 */
export function recoloured(
  px: Float32Array,
  noise: Float32Array,
  mask: Uint8Array,
  scale: readonly number[],
  offset: readonly number[],
): Uint8ClampedArray {
  const out = new Uint8ClampedArray(px.length);
  const [s0, s1, s2] = scale as [number, number, number];
  const [o0, o1, o2] = offset as [number, number, number];
  for (let p = 0, i = 0; p < W * H; p += 1, i += 3) {
    if (mask[p]) {
      out[i] = px[i]!;
      out[i + 1] = px[i + 1]!;
      out[i + 2] = px[i + 2]!;
    } else {
      const n = noise[p]!;
      out[i] = px[i]! * s0 + o0 + n;
      out[i + 1] = px[i + 1]! * s1 + o1 + n;
      out[i + 2] = px[i + 2]! * s2 + o2 + n;
    }
  }
  return out;
}

/** Share of pixels whose grey level is at least `level`. */
export function shareAtLeast(px: Float32Array, level: number): number {
  let n = 0;
  for (let i = 0; i < px.length; i += 3) if (0.299 * px[i]! + 0.587 * px[i + 1]! + 0.114 * px[i + 2]! >= level) n += 1;
  return n / (W * H);
}
