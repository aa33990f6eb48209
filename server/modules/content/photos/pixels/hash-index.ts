import { popcount32 } from '../../../../../common/dataset.js';

/**
 * Near-duplicate search over 64-bit perceptual hashes without comparing every pair: multi-index
 * hashing. Each hash is cut into four 16-bit bands, each band a map from its value to the hashes
 * holding it. Two hashes within r bits of each other differ in at most floor(r / 4) bits in one
 * band at least (pigeonhole), so a query looks up, in each band, every value within that many
 * bits of its own (137 values for r = 10) and tests only the hashes found there.
 */
const BANDS = 4;

/** The XOR masks of every 16-bit value within `bits` bits of a value (137 for 2 bits), made once. */
const MASKS: number[][] = [];
function masksWithin(bits: number): number[] {
  if (MASKS[bits]) return MASKS[bits];
  const out = [0];
  const grow = (from: number, start: number, left: number) => {
    for (let b = start; b < 16; b += 1) {
      const v = from | (1 << b);
      out.push(v);
      if (left > 1) grow(v, b + 1, left - 1);
    }
  };
  if (bits > 0) grow(0, 0, bits);
  MASKS[bits] = out;
  return out;
}

export interface Near {
  index: number;
  distance: number;
}

export class HashIndex {
  private readonly hi: number[] = [];
  private readonly lo: number[] = [];
  /** Per band, 65,536 buckets of indexes (a plain array is faster to index than a Map). */
  private readonly bands: Array<Array<number[] | undefined>> = Array.from({ length: BANDS }, () => new Array<number[] | undefined>(65536));
  /** The query that last saw each hash: no set to allocate per query. */
  private seenBy = new Int32Array(1024);
  private query = 0;

  get size(): number {
    return this.hi.length;
  }

  /** Adds a hash (16 hex digits); returns its index, the order of adding. */
  add(hex: string): number {
    const index = this.hi.length;
    const hi = Number.parseInt(hex.slice(0, 8), 16) >>> 0;
    const lo = Number.parseInt(hex.slice(8, 16), 16) >>> 0;
    this.hi.push(hi);
    this.lo.push(lo);
    const parts = [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff];
    for (let b = 0; b < BANDS; b += 1) {
      const bucket = this.bands[b]![parts[b]!];
      if (bucket) bucket.push(index);
      else this.bands[b]![parts[b]!] = [index];
    }
    if (index >= this.seenBy.length) {
      const grown = new Int32Array(this.seenBy.length * 2);
      grown.set(this.seenBy);
      this.seenBy = grown;
    }
    return index;
  }

  /** The hashes within `radius` bits of `hex` (itself included when it was added), each once. */
  near(hex: string, radius: number): Near[] {
    const hi = Number.parseInt(hex.slice(0, 8), 16) >>> 0;
    const lo = Number.parseInt(hex.slice(8, 16), 16) >>> 0;
    const parts = [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff];
    const masks = masksWithin(Math.floor(radius / BANDS));
    const stamp = (this.query = (this.query + 1) | 0);
    const seen = this.seenBy;
    const found: Near[] = [];
    for (let b = 0; b < BANDS; b += 1) {
      const band = this.bands[b]!;
      const part = parts[b]!;
      for (const mask of masks) {
        const bucket = band[part ^ mask];
        if (!bucket) continue;
        for (const i of bucket) {
          if (seen[i] === stamp) continue;
          seen[i] = stamp;
          const distance = popcount32((this.hi[i]! ^ hi) >>> 0) + popcount32((this.lo[i]! ^ lo) >>> 0);
          if (distance <= radius) found.push({ index: i, distance });
        }
      }
    }
    return found;
  }
}
