import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DATASET_LIMITS, hammingDistance, qualityFlags } from '../../common/dataset.js';
import { fingerprintImage } from '../../server/platform/fingerprint.js';
import { HashIndex } from '../../server/platform/hash-index.js';

/** A leaf photographed in a field: soil, a blade at an angle, lesions placed by the seed. */
function leaf(seed: number, angle: number): Buffer {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const spots = Array.from({ length: 14 }, () => `<ellipse cx="${300 + rnd() * 600}" cy="${380 + rnd() * 200}" rx="${10 + rnd() * 30}" ry="${6 + rnd() * 14}" fill="#8a5a2b" opacity="0.85"/>`).join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6b8f3a"/><stop offset="1" stop-color="#2f4a1c"/></linearGradient></defs>
    <rect width="1200" height="900" fill="#c9b98f"/><rect y="${500 + rnd() * 200}" width="1200" height="400" fill="#a89a70"/>
    <g transform="rotate(${angle} 600 450)"><ellipse cx="600" cy="450" rx="520" ry="120" fill="url(#g)"/>
    <line x1="90" y1="450" x2="1110" y2="450" stroke="#d7e8a0" stroke-width="4"/>${spots}</g></svg>`);
}

/** The sizes the thumbnail job works at (common/catalog.ts). */
const SIZES = { maxPixels: 1e8, displaySize: 1024, thumbSize: 480 };
const jpeg = (svg: Buffer) => sharp(svg).jpeg({ quality: 92 }).toBuffer();
const hashOf = async (photo: Buffer) => (await fingerprintImage(photo, SIZES)).phash;

describe('photo fingerprints', () => {
  it('finds the same picture saved again at another quality, resized, slightly cropped or brightened', async () => {
    const original = await jpeg(leaf(1, -8));
    const base = await hashOf(original);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    const copies = {
      'JPEG quality 40': await sharp(original).jpeg({ quality: 40 }).toBuffer(),
      'half size': await sharp(original).resize(600).jpeg().toBuffer(),
      '2% cropped off each edge': await sharp(original).extract({ left: 24, top: 18, width: 1152, height: 864 }).jpeg().toBuffer(),
      '15% brighter': await sharp(original).modulate({ brightness: 1.15 }).jpeg().toBuffer(),
      'PNG': await sharp(original).png().toBuffer(),
    };
    for (const [what, copy] of Object.entries(copies)) {
      expect(hammingDistance(base, await hashOf(copy)), what).toBeLessThanOrEqual(DATASET_LIMITS.nearDuplicateBits);
    }
  });

  it('tells two different leaves of the same disease apart, and (a pHash limit) does not catch a mirrored copy', async () => {
    const a = await jpeg(leaf(1, -8));
    const b = await jpeg(leaf(7, 14));
    expect(hammingDistance(await hashOf(a), await hashOf(b))).toBeGreaterThan(DATASET_LIMITS.nearDuplicateBits);
    const mirrored = await sharp(a).flop().jpeg().toBuffer();
    expect(hammingDistance(await hashOf(a), await hashOf(mirrored))).toBeGreaterThan(DATASET_LIMITS.nearDuplicateBits);
  });

  it('measures sharpness, brightness and entropy: a blurred, a dark and a flat photo get their flags', async () => {
    const photo = await jpeg(leaf(3, 5));
    const sharp1 = await fingerprintImage(photo, SIZES);
    const blurred = await fingerprintImage(await sharp(photo).blur(8).jpeg().toBuffer(), SIZES);
    const dark = await fingerprintImage(await sharp(photo).modulate({ brightness: 0.15 }).jpeg().toBuffer(), SIZES);
    const flat = await fingerprintImage(await sharp({ create: { width: 300, height: 200, channels: 3, background: '#777777' } }).jpeg().toBuffer(), SIZES);
    expect(blurred.sharpness).toBeLessThan(sharp1.sharpness / 4);
    expect(qualityFlags({ ...blurred })).toContain('blurry');
    expect(qualityFlags({ ...sharp1 })).not.toContain('blurry');
    expect(qualityFlags({ ...dark })).toContain('dark');
    expect(qualityFlags({ ...flat })).toEqual(expect.arrayContaining(['low_information', 'too_small']));
  });
});

describe('near-duplicate index', () => {
  it('answers the same as comparing every pair, for radii up to 12 bits', () => {
    let s = 42;
    const rnd32 = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
    const hex = (hi: number, lo: number) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
    const hashes: string[] = [];
    for (let i = 0; i < 400; i += 1) {
      const hi = rnd32();
      const lo = rnd32();
      hashes.push(hex(hi, lo));
      // Copies with a few bits flipped, as re-encoded photos have.
      for (let c = 0; c < 3; c += 1) hashes.push(hex((hi ^ (1 << (rnd32() % 32))) >>> 0, (lo ^ (rnd32() & rnd32() & rnd32())) >>> 0));
    }
    const index = new HashIndex();
    for (const h of hashes) index.add(h);
    for (const radius of [0, 4, 10, 12]) {
      for (let q = 0; q < hashes.length; q += 37) {
        const expected = hashes.map((h, i) => ({ i, d: hammingDistance(hashes[q]!, h) })).filter((x) => x.d <= radius).map((x) => x.i).sort((a, b) => a - b);
        expect(index.near(hashes[q]!, radius).map((n) => n.index).sort((a, b) => a - b), `radius ${radius}`).toEqual(expected);
      }
    }
  });
});
