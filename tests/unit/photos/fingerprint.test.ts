import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DATASET_LIMITS, hammingDistance, qualityFlags } from '../../../common/dataset.js';
import { fingerprintImage } from '../../../server/modules/content/photos/pixels/fingerprint.js';
import { HashIndex } from '../../../server/modules/content/photos/pixels/hash-index.js';
import { leafPhoto } from '../../fixtures/leaf-photos.js';

/** The sizes the thumbnail job works at (common/catalog.ts). */
const SIZES = { maxPixels: 1e8, displaySize: 1024, thumbSize: 480 };
const hashOf = async (photo: Buffer) => (await fingerprintImage(photo, SIZES)).fingerprint.phash;
/** A photo's measures as the quality flags read them. */
const measured = async (photo: Buffer) => {
  const { fingerprint, width, height } = await fingerprintImage(photo, SIZES);
  return { ...fingerprint, width, height };
};

describe('photo fingerprints', () => {
  it('finds the same picture saved again at another quality, resized, slightly cropped or brightened', async () => {
    const original = await leafPhoto(1, -8);
    const base = await hashOf(original);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    const copies = {
      'JPEG quality 40': await sharp(original).jpeg({ quality: 40 }).toBuffer(),
      'half size': await sharp(original).resize(600).jpeg().toBuffer(),
      '2% cropped off each edge': await sharp(original).extract({ left: 24, top: 18, width: 1152, height: 864 }).jpeg().toBuffer(),
      '15% brighter': await sharp(original).modulate({ brightness: 1.15 }).jpeg().toBuffer(),
      PNG: await sharp(original).png().toBuffer(),
    };
    for (const [what, copy] of Object.entries(copies)) {
      expect(hammingDistance(base, await hashOf(copy)), what).toBeLessThanOrEqual(DATASET_LIMITS.nearDuplicateBits);
    }
  });

  it('tells two different leaves of the same disease apart, and (a pHash limit) does not catch a mirrored copy', async () => {
    const a = await leafPhoto(1, -8);
    const b = await leafPhoto(7, 14);
    expect(hammingDistance(await hashOf(a), await hashOf(b))).toBeGreaterThan(DATASET_LIMITS.nearDuplicateBits);
    const mirrored = await sharp(a).flop().jpeg().toBuffer();
    expect(hammingDistance(await hashOf(a), await hashOf(mirrored))).toBeGreaterThan(DATASET_LIMITS.nearDuplicateBits);
  });

  it('measures sharpness, brightness and entropy: a blurred, a dark and a flat photo get their flags', async () => {
    const photo = await leafPhoto(3, 5);
    const sharp1 = await measured(photo);
    const blurred = await measured(await sharp(photo).blur(8).jpeg().toBuffer());
    const dark = await measured(await sharp(photo).modulate({ brightness: 0.15 }).jpeg().toBuffer());
    const flat = await measured(
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#777777' } })
        .jpeg()
        .toBuffer(),
    );
    expect(blurred.sharpness).toBeLessThan(sharp1.sharpness / 4);
    expect(qualityFlags({ ...blurred })).toContain('blurry');
    expect(qualityFlags({ ...sharp1 })).not.toContain('blurry');
    expect(qualityFlags({ ...dark })).toContain('dark');
    expect(dark.brightnessLow).toBeLessThanOrEqual(dark.brightness);
    expect(dark.brightnessHigh).toBeGreaterThan(dark.brightnessLow);
    expect(sharp1.brightnessHigh).toBeGreaterThan(dark.brightnessHigh);
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
        const expected = hashes
          .map((h, i) => ({ i, d: hammingDistance(hashes[q]!, h) }))
          .filter((x) => x.d <= radius)
          .map((x) => x.i)
          .sort((a, b) => a - b);
        expect(
          index
            .near(hashes[q]!, radius)
            .map((n) => n.index)
            .sort((a, b) => a - b),
          `radius ${radius}`,
        ).toEqual(expected);
      }
    }
  });
});
