import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readCameraFacts, takenAtIso, writeCameraFacts } from '../../../server/modules/content/photos/pixels/exif.js';
import { cleanPhoto, UnreadablePhotoError } from '../../../server/modules/content/photos/pixels/photo-privacy.js';
import type { SniffedType } from '../../../server/modules/content/photos/pixels/image-type.js';
import { PHONE_EXIF } from '../../fixtures/catalog.js';

/** A deterministic pseudo-random sequence (the same damaged files on every run). */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** Two looping frames, a comment before them and bytes after the trailer. */
async function gifWithComment(): Promise<Buffer> {
  const gif = await sharp({ create: { width: 24, height: 36, channels: 3, background: { r: 10, g: 200, b: 90 }, pageHeight: 18 } })
    .gif({ loop: 0 })
    .toBuffer();
  const at = gif.indexOf(Buffer.from([0x21, 0xf9]));
  const comment = Buffer.concat([Buffer.from([0x21, 0xfe, 9]), Buffer.from('farm note'), Buffer.from([0])]);
  return Buffer.concat([gif.subarray(0, at), comment, gif.subarray(at), Buffer.from('after the trailer')]);
}

describe('photo metadata', () => {
  it('writes back only the kept facts, and reads them again', () => {
    const facts = { make: 'Cam', model: 'Phone 7 Pro', takenAt: '2026:07:01 08:30:12', takenOffset: '+08:00', orientation: 6 };
    expect(readCameraFacts(writeCameraFacts(facts)!)).toEqual(facts);
    expect(takenAtIso(facts)).toBe('2026-07-01T08:30:12+08:00');
    expect(writeCameraFacts({ make: null, model: null, takenAt: null, takenOffset: null, orientation: null })).toBeNull();
  });

  it('answers damaged photos with UnreadablePhotoError or a cleaned photo, never another error', async () => {
    const random = rng(7);
    const base = sharp({ create: { width: 24, height: 18, channels: 3, background: { r: 10, g: 200, b: 90 } } }).withExif(PHONE_EXIF);
    const samples: Array<[SniffedType, Buffer]> = [
      ['image/jpeg', await base.clone().jpeg().toBuffer()],
      ['image/png', await base.clone().png().toBuffer()],
      ['image/webp', await base.clone().webp().toBuffer()],
      ['image/gif', await gifWithComment()],
    ];
    let unreadable = 0;
    for (const [type, photo] of samples) {
      for (let i = 0; i < 400; i += 1) {
        const damaged = Buffer.from(photo.subarray(0, i % 3 === 0 ? Math.floor(random() * photo.length) : photo.length));
        for (let k = 0; k < 4; k += 1) if (damaged.length > 0) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
        try {
          cleanPhoto(damaged, type);
        } catch (err) {
          expect(err, `${type} #${i}`).toBeInstanceOf(UnreadablePhotoError);
          unreadable += 1;
        }
      }
    }
    expect(unreadable).toBeGreaterThan(0);
  });
});
