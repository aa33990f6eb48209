import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../platform/support/seeded-random.js';

/** What the demo photos are: which scene, which marks, which mean colour (demo-data/scanner/classes.json). */

export type Rgb = readonly [number, number, number];

export const DEMO_PHOTO = { width: 800, height: 600, quality: 80, label: 'Demo image, not a real photo' } as const;

const SCANNER_CLASSES_FILE = path.resolve(import.meta.dirname, '..', '..', '..', 'demo-data', 'scanner', 'classes.json');

export interface ScannerClasses {
  photosPerDisease: number;
  ambiguousPerDisease: number;
  /** How far (Euclidean, RGB 0–255) a normal photo's mean colour may lie from its class's colour. */
  jitter: number;
  classes: Array<{ name: string; meanColour: Rgb }>;
  /** The demo's training class marked "not a rice plant" (no class of the disease scanner), when classes.json has one. */
  notRicePlant: { name: string; meanColour: Rgb } | null;
}

export function readScannerClasses(file = SCANNER_CLASSES_FILE): ScannerClasses {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ScannerClasses>;
  if (!Array.isArray(raw.classes) || typeof raw.photosPerDisease !== 'number' || typeof raw.jitter !== 'number') {
    throw new Error(`${file}: expected photosPerDisease, jitter and classes`);
  }
  return {
    photosPerDisease: raw.photosPerDisease,
    ambiguousPerDisease: raw.ambiguousPerDisease ?? 0,
    jitter: raw.jitter,
    classes: raw.classes,
    notRicePlant: raw.notRicePlant ?? null,
  };
}

export type MarkStyle =
  'spindles' | 'spots' | 'streaks' | 'edges' | 'tips' | 'blotches' | 'balls' | 'bugs' | 'caterpillars' | 'snails' | 'bites';

/** What each demo disease or pest looks like on a leaf, by a word of its name. */
const MARK_STYLES: Array<[RegExp, MarkStyle]> = [
  [/snail/i, 'snails'],
  [/caterpillar|armyworm|leaffolder|borer|maggot/i, 'caterpillars'],
  [/\brat\b/i, 'bites'],
  [/hopper|bug/i, 'bugs'],
  [/blast/i, 'spindles'],
  [/streak|narrow brown|bakanae/i, 'streaks'],
  [/sheath/i, 'blotches'],
  [/blight|ragged/i, 'edges'],
  [/tungro/i, 'tips'],
  [/smut/i, 'balls'],
  [/spot|stunt/i, 'spots'],
];
const DISEASE_FALLBACK: MarkStyle[] = ['spindles', 'spots', 'streaks', 'edges', 'tips', 'blotches'];

export interface DemoPhotoPlan {
  /** Every random choice of the scene comes from this. */
  seed: string;
  style: MarkStyle;
  /** The mean colour the photo is brought to; null leaves the scene's own colours. */
  aim: Rgb | null;
  /** Painted halfway to the nearest other class: the demo scanner's honest mistake. */
  ambiguous: boolean;
}

export const greyOf = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

export function hash32(text: string): number {
  return crypto.createHash('sha256').update(text).digest().readUInt32BE(0);
}

/**
 * The photos a demo pest (3) or disease gets. A disease listed in the scanner's classes gets
 * photosPerDisease photos: the last ambiguousPerDisease of them aimed at the midpoint between
 * its colour and the nearest other class's, the others at its colour moved by at most a third
 * of the jitter (so photos of one disease are not all one colour, and drawing and JPEG have the
 * rest of the jitter to miss the aim by).
 */
export function demoPhotoPlans(kind: 'pest' | 'disease', name: string, scanner: ScannerClasses | null): DemoPhotoPlan[] {
  const style =
    MARK_STYLES.find(([pattern]) => pattern.test(name))?.[1] ??
    (kind === 'pest' ? 'bugs' : DISEASE_FALLBACK[hash32(name) % DISEASE_FALLBACK.length]!);
  const seed = (i: number) => `${kind}:${name}:${i}`;
  const own =
    kind === 'disease'
      ? [...(scanner?.classes ?? []), ...(scanner?.notRicePlant ? [scanner.notRicePlant] : [])].find((c) => c.name === name)
      : undefined;
  if (!own || !scanner) {
    const count = kind === 'pest' ? 3 : 4;
    return Array.from({ length: count }, (_, i) => ({ seed: seed(i), style, aim: null, ambiguous: false }));
  }
  const others = scanner.classes.filter((c) => c.name !== own.name);
  const nearest = others.reduce<(typeof others)[number] | null>(
    (best, c) => (!best || distance(c.meanColour, own.meanColour) < distance(best.meanColour, own.meanColour) ? c : best),
    null,
  );
  const ambiguous = nearest ? Math.min(scanner.ambiguousPerDisease, scanner.photosPerDisease) : 0;
  return Array.from({ length: scanner.photosPerDisease }, (_, i) => {
    if (i >= scanner.photosPerDisease - ambiguous) {
      const mid = own.meanColour.map((v, c) => (v + nearest!.meanColour[c]!) / 2) as unknown as Rgb;
      return { seed: seed(i), style, aim: mid, ambiguous: true };
    }
    const random = seededRandom(hash32(`${seed(i)}:jitter`));
    // A random direction, a radius up to a third of the jitter.
    const z = random() * 2 - 1;
    const phi = random() * 2 * Math.PI;
    const radius = (scanner.jitter / 3) * Math.cbrt(random());
    const s = Math.sqrt(1 - z * z);
    const offset: Rgb = [s * Math.cos(phi) * radius, s * Math.sin(phi) * radius, z * radius];
    // A very light class is moved darker only: lighter still, its photos' median grey would pass the "too bright" limit.
    const sign = greyOf(own.meanColour) > 200 && greyOf(offset) > 0 ? -1 : 1;
    const aim = own.meanColour.map((v, c) => Math.min(250, Math.max(5, v + sign * offset[c]!))) as unknown as Rgb;
    return { seed: seed(i), style, aim, ambiguous: false };
  });
}
