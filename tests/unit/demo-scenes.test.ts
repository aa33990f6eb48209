import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_LIMITS } from '../../common/catalog.js';
import { DATASET_LIMITS, hammingDistance, qualityFlags } from '../../common/dataset.js';
import {
  DemoPhotoSet,
  demoPhotoPlans,
  readScannerClasses,
  renderDemoPhoto,
  type DemoPhotoPlan,
  type Rgb,
} from '../../server/seed/demo-scenes.js';
import { fingerprintImage } from '../../server/modules/content/photos/pixels/fingerprint.js';

const scanner = readScannerClasses();
const SIZES = { maxPixels: CATALOG_LIMITS.maxImagePixels, displaySize: CATALOG_LIMITS.displaySize, thumbSize: CATALOG_LIMITS.thumbSize };
/** Two diseases whose colours are each other's nearest, and the palest (its mean grey is past the "too bright" limit). */
const DISEASES = ['Rice blast', 'Sheath blight', 'Bakanae (foolish seedling)'];
const NORMAL_PER_DISEASE = 4;

const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const colourOf = (name: string) => scanner.classes.find((c) => c.name === name)!.meanColour;
const nearestClass = (mean: Rgb) =>
  scanner.classes.reduce((best, c) => (distance(c.meanColour, mean) < distance(best.meanColour, mean) ? c : best)).name;

/** The mean colour the demo scanner reads: the photo resized to 224×224, stretched (fill) or centre-cropped (cover). */
async function scannerMeans(jpeg: Buffer): Promise<Rgb[]> {
  return Promise.all(
    (['fill', 'cover'] as const).map(async (fit) => {
      const { channels } = await sharp(jpeg).resize(224, 224, { fit }).stats();
      return [channels[0]!.mean, channels[1]!.mean, channels[2]!.mean] as const;
    }),
  );
}

interface Made {
  disease: string | null;
  plan: DemoPhotoPlan;
  jpeg: Buffer;
}
const made: Made[] = [];

beforeAll(async () => {
  // As the seed draws them: through one set, pests first.
  const set = new DemoPhotoSet();
  for (const plan of demoPhotoPlans('pest', 'Brown planthopper', scanner))
    made.push({ disease: null, plan, jpeg: (await set.take([plan]))[0]!.jpeg });
  for (const disease of DISEASES) {
    const plans = demoPhotoPlans('disease', disease, scanner);
    const chosen = [...plans.filter((p) => !p.ambiguous).slice(0, NORMAL_PER_DISEASE), ...plans.filter((p) => p.ambiguous)];
    const photos = await set.take(chosen);
    photos.forEach((photo, i) => made.push({ disease, plan: chosen[i]!, jpeg: photo.jpeg }));
  }
}, 120_000);

describe('demo photo plans', () => {
  it('gives a demo disease its photos from classes.json, the last ones halfway to the nearest other class', () => {
    const plans = demoPhotoPlans('disease', 'Rice blast', scanner);
    expect(plans).toHaveLength(scanner.photosPerDisease);
    expect(plans.filter((p) => p.ambiguous)).toHaveLength(scanner.ambiguousPerDisease);
    expect(new Set(plans.map((p) => p.seed)).size).toBe(plans.length);
    for (const p of plans.filter((x) => !x.ambiguous))
      expect(distance(p.aim!, colourOf('Rice blast'))).toBeLessThanOrEqual(scanner.jitter / 3 + 1e-9);
    const midpoint = colourOf('Rice blast').map((v, c) => (v + colourOf('Sheath blight')[c]!) / 2) as unknown as Rgb;
    for (const p of plans.filter((x) => x.ambiguous)) expect(distance(p.aim!, midpoint)).toBeLessThan(1e-9);
  });

  it('gives the "not a rice plant" training class as many photos, of its own colour, which no disease has', () => {
    const notRice = scanner.notRicePlant!;
    expect(scanner.classes.map((c) => c.name)).not.toContain(notRice.name);
    const plans = demoPhotoPlans('disease', notRice.name, scanner);
    expect(plans).toHaveLength(scanner.photosPerDisease);
    for (const p of plans.filter((x) => !x.ambiguous))
      expect(distance(p.aim!, notRice.meanColour)).toBeLessThanOrEqual(scanner.jitter / 3 + 1e-9);
  });

  it('gives a pest 3 photos and a disease missing from classes.json 4, with no colour to keep', () => {
    expect(demoPhotoPlans('pest', 'Rice bug', scanner).map((p) => p.aim)).toEqual([null, null, null]);
    expect(demoPhotoPlans('disease', 'Leaf scald', scanner).map((p) => p.aim)).toEqual([null, null, null, null]);
  });
});

describe('demo photos', () => {
  it('are 800×600 JPEGs, drawn the same from the same seed', async () => {
    for (const { jpeg } of made) expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    const { plan, jpeg } = made.find((m) => m.disease === 'Rice blast')!;
    expect((await renderDemoPhoto(plan)).jpeg.equals(jpeg)).toBe(true);
  }, 30_000);

  it("have their disease's mean colour, within the jitter and nearest to it of all classes, stretched or cropped to 224×224", async () => {
    for (const { disease, plan, jpeg } of made.filter((m) => m.disease && !m.plan.ambiguous)) {
      for (const mean of await scannerMeans(jpeg)) {
        expect(distance(mean, colourOf(disease!)), `${plan.seed}: ${mean.map(Math.round).join(',')}`).toBeLessThanOrEqual(scanner.jitter);
        expect(nearestClass(mean), plan.seed).toBe(disease);
      }
    }
  });

  it('paint the ambiguous ones halfway to the nearest other class', async () => {
    for (const { disease, plan, jpeg } of made.filter((m) => m.plan.ambiguous)) {
      const own = colourOf(disease!);
      const other = scanner.classes
        .filter((c) => c.name !== disease)
        .reduce((best, c) => (distance(c.meanColour, own) < distance(best.meanColour, own) ? c : best));
      const midpoint = own.map((v, c) => (v + other.meanColour[c]!) / 2) as unknown as Rgb;
      for (const mean of await scannerMeans(jpeg)) {
        expect(distance(mean, midpoint), plan.seed).toBeLessThanOrEqual(3);
        expect([disease, other.name]).toContain(nearestClass(mean));
      }
    }
  });

  it('are no near copies of one another, across diseases and pests, and earn no quality flag', async () => {
    const fingerprints = await Promise.all(made.map((m) => fingerprintImage(m.jpeg, SIZES)));
    fingerprints.forEach(({ fingerprint, width, height }, i) => {
      expect(qualityFlags({ ...fingerprint, width, height }), `${made[i]!.plan.seed}: ${JSON.stringify(fingerprint)}`).toEqual([]);
    });
    for (let a = 0; a < made.length; a += 1) {
      for (let b = a + 1; b < made.length; b += 1) {
        const bits = hammingDistance(fingerprints[a]!.fingerprint.phash, fingerprints[b]!.fingerprint.phash);
        expect(bits, `${made[a]!.plan.seed} / ${made[b]!.plan.seed}`).toBeGreaterThan(DATASET_LIMITS.nearDuplicateBits);
      }
    }
  }, 30_000);
});
