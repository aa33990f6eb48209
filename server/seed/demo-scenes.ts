import sharp from 'sharp';
import { CATALOG_LIMITS } from '../../common/catalog.js';
import { DATASET_LIMITS, hammingDistance, qualityFlags } from '../../common/dataset.js';
import { fingerprintImage, type Fingerprint } from '../modules/content/photos/index.js';
import { seededRandom } from '../platform/support/seeded-random.js';
import { DEMO_PHOTO, greyOf, hash32, type DemoPhotoPlan } from './demo-scenes/plans.js';
import { H, W } from './demo-scenes/drawing.js';
import { sceneSvg, type Layout } from './demo-scenes/scenes.js';
import { balanceSides, grain, means, middle, recoloured, shareAtLeast, stampLabel } from './demo-scenes/pixels.js';

export { demoPhotoPlans, readScannerClasses, type DemoPhotoPlan, type Rgb, type ScannerClasses } from './demo-scenes/plans.js';

/**
 * Generated demo photos for the seed: stylised rice-field and leaf scenes drawn as SVG and
 * rendered by sharp (never real photos; a small corner label says so). Everything is drawn
 * from a seed string, so the same seed gives the same bytes.
 *
 * A demo disease's photos carry the colour contract of demo-data/scanner/classes.json: the demo
 * scanner model tells diseases apart by a photo's mean colour at 224×224, so each photo's mean
 * (stretched to 224×224, or centre-cropped to it) is brought to an aimed colour while its scene
 * (layout, leaves, marks) varies freely.
 */

export interface DemoPhoto {
  jpeg: Buffer;
  /** As the photo intake takes it (perceptual hash and the quality flags' measures). */
  fingerprint: Fingerprint;
}

const FINGERPRINT_SIZES = {
  maxPixels: CATALOG_LIMITS.maxImagePixels,
  displaySize: CATALOG_LIMITS.displaySize,
  thumbSize: CATALOG_LIMITS.thumbSize,
};

/** How many times a photo that earns a quality flag is drawn again (the last one is kept whatever it earns). */
const REDRAWS = 12;

/**
 * One demo photo, 800×600 JPEG, that earns no quality flag. `attempt` draws another scene for the
 * same plan (the seed asks for one when a photo comes out too close to another).
 */
export async function renderDemoPhoto(plan: DemoPhotoPlan, attempt = 0): Promise<DemoPhoto> {
  for (let redraw = 0; ; redraw += 1) {
    const last = redraw >= REDRAWS;
    const jpeg = await draw(plan, `${plan.seed}:${attempt}${redraw ? `:${redraw}` : ''}`, last);
    if (!jpeg) continue;
    const { fingerprint, width, height } = await fingerprintImage(jpeg, FINGERPRINT_SIZES);
    const L = DATASET_LIMITS;
    // A grey level's margin: the thumbnail job measures again from its own resize.
    const clear =
      qualityFlags({ ...fingerprint, width, height }).length === 0 &&
      fingerprint.brightness > L.darkBelow &&
      fingerprint.brightness < L.brightAbove;
    if (clear || last) return { jpeg, fingerprint };
  }
}

/** An aim this light (its grey level) is drawn as seedlings against a white sky (scenes.ts, canopyScene). */
const PALE_GREY = 190;

/** A photo drawn from `seed`; null when a pale scene's white area came out too small or too large (checked before the costly steps). */
async function draw(plan: DemoPhotoPlan, seed: string, last: boolean): Promise<Buffer | null> {
  const random = seededRandom(hash32(seed));
  const pale = plan.aim !== null && greyOf(plan.aim) > PALE_GREY;
  const roll = random();
  const layout: Layout = pale ? 'canopy' : roll < 0.4 ? 'field' : roll < 0.72 ? 'closeup' : 'ground';
  const svg = sceneSvg(random, plan.style, layout);
  const px = new Float32Array(await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer());
  if (pale && !last) {
    const white = shareAtLeast(px, 236);
    if (white < 0.33 || white > 0.45) return null;
  }
  if (plan.aim) balanceSides(px);
  const noise = grain(random, pale ? 5 : 8);
  const mask = await stampLabel(px);
  if (!plan.aim) return encode(recoloured(px, noise, mask, [1, 1, 1], [0, 0, 0]));
  const aim = plan.aim;
  // The scene is drawn in natural colours; each channel is then scaled to the aimed mean: toward
  // 0 when it must fall, toward 255 when it must rise. The scale keeps most of the contrast (0.75
  // at least), clipping some highlights or shadows rather than flattening the picture; except
  // for a pale aim, whose white sky takes the brightness while the rest stays below the mean.
  const from = middle(means(px));
  const scale = aim.map((t, c) => {
    const m = Math.min(254, Math.max(1, from[c]!));
    return Math.min(1, Math.max(pale ? 0 : 0.75, t <= m ? t / m : (255 - t) / (255 - m)));
  });
  const offset = aim.map((t, c) => t - scale[c]! * from[c]!);
  let out = recoloured(px, noise, mask, scale, offset);
  // Clipping and the label move the mean: shift until it is back.
  for (let round = 0; round < 6; round += 1) {
    const miss = aim.map((t, c) => t - middle(means(out))[c]!);
    if (Math.hypot(...miss) < 0.5) break;
    miss.forEach((d, c) => {
      offset[c]! += d;
    });
    out = recoloured(px, noise, mask, scale, offset);
  }
  return encode(out);
}

const encode = (pixels: Uint8ClampedArray) =>
  sharp(pixels, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: DEMO_PHOTO.quality })
    .toBuffer();

/** Bits past DATASET_LIMITS.nearDuplicateBits two demo photos keep apart: the thumbnail job measures the hash again from its own resize. */
const HASH_MARGIN = 2;

/**
 * Demo photos that are no copies of one another: a photo whose perceptual hash comes within the
 * near-duplicate threshold (and a margin) of one taken before, here or in `taken`, is drawn
 * again. Photos are drawn two at a time and checked in order, so the result does not depend on
 * which finishes first.
 */
export class DemoPhotoSet {
  private readonly hashes: string[];

  constructor(taken: Iterable<string> = []) {
    this.hashes = [...taken];
  }

  async take(plans: readonly DemoPhotoPlan[], concurrency = 2): Promise<DemoPhoto[]> {
    // `concurrency` lanes, each drawing its photos one after another.
    const lanes = Array.from({ length: concurrency }, () => Promise.resolve());
    const drawn = plans.map((plan, i) => {
      const photo = lanes[i % concurrency]!.then(() => renderDemoPhoto(plan));
      lanes[i % concurrency] = photo.then(
        () => undefined,
        () => undefined,
      );
      return photo;
    });
    const out: DemoPhoto[] = [];
    try {
      for (const [i, plan] of plans.entries()) {
        let photo = await drawn[i]!;
        for (let attempt = 1; attempt <= 20 && this.near(photo.fingerprint.phash); attempt += 1)
          photo = await renderDemoPhoto(plan, attempt);
        this.hashes.push(photo.fingerprint.phash);
        out.push(photo);
      }
    } finally {
      // A failure is thrown once, from the loop: the photos still drawing are let go quietly.
      await Promise.allSettled(drawn);
    }
    return out;
  }

  private near(phash: string): boolean {
    return this.hashes.some((h) => hammingDistance(h, phash) <= DATASET_LIMITS.nearDuplicateBits + HASH_MARGIN);
  }
}
