/**
 * Dataset health: what the console measures of each disease photo (the scanner's training
 * data) and when it calls photos copies of one another or of poor quality.
 */
export const DATASET_LIMITS = {
  /**
   * Two photos whose 64-bit perceptual hashes differ in at most this many bits are near
   * duplicates: the threshold imagededup uses for pHash. It catches a photo saved again at
   * another JPEG quality, resized, slightly cropped or brightened; not a mirrored copy.
   */
  nearDuplicateBits: 10,
  /** Variance of the Laplacian of the grey image (the thumbnail's size, long edge 480 px) below which a photo is blurry. */
  blurryBelow: 60,
  /** Median grey level (0–255) below or above which a photo is too dark or too bright. */
  darkBelow: 40,
  brightAbove: 215,
  /** Entropy of the grey levels (bits, at most 8) below which a photo holds little to learn from. */
  lowInformationBelow: 4,
  /** The shorter edge below which a photo is too small for the scanner's 224 px inputs. */
  minShortEdge: 224,
} as const;

export const QUALITY_FLAGS = ['blurry', 'dark', 'bright', 'low_information', 'too_small'] as const;
export type QualityFlag = (typeof QUALITY_FLAGS)[number];

/** What a photo's fingerprint holds besides its hash. */
export interface QualityMeasures {
  sharpness: number | null;
  brightness: number | null;
  entropy: number | null;
  width: number | null;
  height: number | null;
}

/** The flags a photo's measures earn; a measure not taken earns none. */
export function qualityFlags(m: QualityMeasures): QualityFlag[] {
  const L = DATASET_LIMITS;
  const flags: QualityFlag[] = [];
  if (m.sharpness !== null && m.sharpness < L.blurryBelow) flags.push('blurry');
  if (m.brightness !== null && m.brightness < L.darkBelow) flags.push('dark');
  if (m.brightness !== null && m.brightness > L.brightAbove) flags.push('bright');
  if (m.entropy !== null && m.entropy < L.lowInformationBelow) flags.push('low_information');
  if (m.width !== null && m.height !== null && Math.min(m.width, m.height) < L.minShortEdge) flags.push('too_small');
  return flags;
}

/** Bits set in a 32-bit number. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Bits that differ between two 64-bit hashes written as 16 hex digits. */
export function hammingDistance(a: string, b: string): number {
  const half = (s: string, i: number) => Number.parseInt(s.slice(i, i + 8), 16) >>> 0;
  return popcount32((half(a, 0) ^ half(b, 0)) >>> 0) + popcount32((half(a, 8) ^ half(b, 8)) >>> 0);
}

export const DATASET_TEXTS = {
  link: 'Dataset health',
  title: 'Dataset health',
  subtitle: 'The disease photos the scanner learns from: balance, copies and quality',
  withPending: 'Include photos waiting for review',
  back: 'Back to Rice Disease',
  loading: 'Checking the photos...',
  csv: 'Download the report (CSV)',
  csvFile: 'dataset-health.csv',
  balance: {
    title: 'Photos per disease',
    fingerprinted: 'Checked',
    imbalance: (ratio: number | null) => (ratio === null ? 'Imbalance: -' : `Imbalance (smallest ÷ largest): ${ratio.toFixed(2)}`),
  },
  totals: {
    photos: 'Photos',
    fingerprinted: 'Checked',
    exact: 'Exact copies',
    near: 'Near copies',
    conflicts: 'In two diseases',
    flagged: 'Quality flags',
  },
  clusters: {
    title: 'Copies',
    help:
      'Photos that are the same picture: the same file twice, or the same shot resized, cropped a little ' +
      'or saved again. The training set keeps each group together, and leaves out a picture filed under ' +
      'two diseases.',
    empty: 'No photo is a copy of another.',
    kind: { exact: 'Exact copies', near: 'Near copies', conflict: 'Same picture in two diseases' },
    distance: (bits: number) => (bits === 0 ? 'identical' : bits <= 4 ? 'almost identical' : 'very alike'),
    more: (n: number) => `${n.toLocaleString('en-US')} more groups in the CSV`,
  },
  quality: {
    title: 'Quality',
    help:
      'Photos a scanner learns little from: blurred (its edges are not crisp), too dark or too bright, ' +
      'or with too little in it (mostly one flat colour). Retake or remove them.',
    empty: 'No photo is flagged.',
    flags: {
      blurry: 'Blurry',
      dark: 'Too dark',
      bright: 'Too bright',
      low_information: 'Little information',
      too_small: 'Too small',
    } satisfies Record<QualityFlag, string>,
    measures: (m: {
      sharpness: number | null;
      brightness: number | null;
      brightnessLow: number | null;
      brightnessHigh: number | null;
      entropy: number | null;
    }) =>
      `sharpness ${m.sharpness ?? '-'}, brightness ` +
      `${m.brightnessLow ?? '-'}/${m.brightness ?? '-'}/${m.brightnessHigh ?? '-'}, information ` +
      `${m.entropy ?? '-'}`,
    more: (n: number) => `${n.toLocaleString('en-US')} more photos in the CSV`,
  },
  unchecked: (n: number) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? 'photo is' : 'photos are'} not checked yet (their thumbnails are being made, or run cli.js fingerprint-photos).`,
  csvColumns: [
    'kind',
    'group',
    'photo_id',
    'disease_id',
    'disease',
    'phash',
    'distance',
    'flags',
    'sharpness',
    'brightness_p5',
    'brightness_median',
    'brightness_p95',
    'entropy',
    'width',
    'height',
  ] as const,
} as const;

/** How many copy groups and flagged photos the screen draws; the CSV holds them all. */
export const DATASET_SCREEN_LIMITS = { clusters: 100, flagged: 200 } as const;

export const PHOTO_REMOVAL_TEXTS = {
  remove: 'Remove from this disease',
  removeShort: 'Remove',
  /** Names begin with the button's visible text (what a voice-control user says). */
  removeLabel: (disease: string) => `Remove from this disease (${disease})`,
  removed: 'Removed from the disease. Put it back from Removed photos below.',
  lastPhoto: 'This is the disease\u2019s only photo: it stays.',
  notThere: 'This photo is no longer in that disease (the list may be out of date).',
  putBack: 'Put back',
  putBackLabel: (disease: string) => `Put back into ${disease}`,
  putBackDone: 'The photo is back in its disease, after its other photos.',
  diseaseGone: 'Its disease has been deleted: restore the disease from the trash first.',
  ownPending:
    'Your change of this disease is waiting for review. Wait for its decision, or withdraw it on the Review page, then try again.',
  title: 'Removed photos',
  help: 'Photos taken out of their disease here. They are kept, out of the training set, until put back.',
  empty: 'No photo has been removed.',
  by: (name: string | null, when: string) => `Removed by ${name ?? 'Unknown'} · ${when}`,
  audit: {
    removed: (disease: string) => `Removed a photo from disease "${disease}" (Dataset health)`,
    putBack: (disease: string) => `Put a removed photo back into disease "${disease}" (Dataset health)`,
  },
} as const;
