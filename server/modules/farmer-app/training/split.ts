import crypto from 'node:crypto';

export type SplitName = 'train' | 'validation' | 'test';
export const SPLITS: SplitName[] = ['train', 'validation', 'test'];

/**
 * Where a photo goes: sha256(seed:photoId) read as a fraction in [0, 1), compared with the
 * ratios. It depends on nothing but the photo's id and the seed, so a photo stays in its split
 * when photos are added or removed (a model retrained later is tested on the same photos), and
 * it is applied within each disease, so each class is split in the same proportions (within
 * sampling error: a class of n photos puts about n x ratio in each split).
 */
export function splitOf(photoId: string, seed: string, ratios: { train: number; validation: number }): SplitName {
  const digest = crypto.createHash('sha256').update(`${seed}:${photoId}`).digest();
  const u = digest.readUIntBE(0, 6) / 2 ** 48;
  if (u < ratios.train) return 'train';
  if (u < ratios.train + ratios.validation) return 'validation';
  return 'test';
}

/** Unique labels for the given names, in the given order: 'rice-blast', then 'rice-blast-2'. */
export function uniqueLabels(names: string[], slug: (name: string) => string): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const base = slug(name) || 'class';
    let label = base;
    for (let n = 2; used.has(label); n += 1) label = `${base}-${n}`;
    used.add(label);
    return label;
  });
}
