/**
 * npm run bench:dataset — near-duplicate search and the photo fingerprint's cost.
 *
 * 1. --photos fingerprints (default 100,000) in two shapes: uniform random hashes, and
 *    "field" hashes drawn around 300 prototypes (many photos of similar leaves: large buckets,
 *    the hard case for the index); in both, a fifth of the photos have 1 to 4 copies a few bits
 *    away. Prints the index build time, "near duplicates of this photo" latency (p50, p99 over
 *    --queries lookups), and the whole cluster report (clusterPhotos: exact and near copies,
 *    conflicts), each the median of --runs.
 * 2. A 4000×3000 phone-sized JPEG: the thumbnail work (makeVariants) with and without the
 *    fingerprint taken from its pixels, median of --runs × 5, and the share the fingerprint adds.
 *
 * Options: --photos 100000  --queries 10000  --runs 3
 */
import sharp from 'sharp';
import { DATASET_LIMITS } from '../common/dataset.js';
import { clusterPhotos, type ClusteredPhoto } from '../server/modules/farmer-app/training/clusters.js';
import { fingerprintPixels } from '../server/modules/content/photos/pixels/fingerprint.js';
import { HashIndex } from '../server/modules/content/photos/pixels/hash-index.js';
import { makeVariants } from '../server/modules/content/photos/pixels/images.js';
import { seededRandom } from '../server/platform/support/seeded-random.js';
import { median, option, percentile } from './support.js';

const PHOTOS = Number(option('photos', '100000'));
const QUERIES = Number(option('queries', '10000'));
const RUNS = Number(option('runs', '3'));
const R = DATASET_LIMITS.nearDuplicateBits;

function hashes(shape: 'uniform' | 'field'): string[] {
  const random = seededRandom(shape === 'uniform' ? 1 : 2);
  const word = () => Math.floor(random() * 2 ** 32) >>> 0;
  const flip = (hi: number, lo: number, bits: number): [number, number] => {
    for (let b = 0; b < bits; b += 1) {
      const k = Math.floor(random() * 64);
      if (k < 32) hi = (hi ^ (1 << k)) >>> 0;
      else lo = (lo ^ (1 << (k - 32))) >>> 0;
    }
    return [hi, lo];
  };
  const prototypes = Array.from({ length: 300 }, () => [word(), word()] as [number, number]);
  const out: string[] = [];
  const hex = ([hi, lo]: [number, number]) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  while (out.length < PHOTOS) {
    const base: [number, number] =
      shape === 'uniform' ? [word(), word()] : flip(...prototypes[Math.floor(random() * prototypes.length)]!, 14);
    out.push(hex(base));
    if (random() < 0.2)
      for (let c = 1 + Math.floor(random() * 4); c > 0 && out.length < PHOTOS; c -= 1)
        out.push(hex(flip(base[0], base[1], 1 + Math.floor(random() * 6))));
  }
  return out;
}

function searchBench(shape: 'uniform' | 'field') {
  const all = hashes(shape);
  const photos: ClusteredPhoto[] = all.map((phash, i) => ({
    id: `p${String(i).padStart(6, '0')}`,
    entryId: `d${i % 40}`,
    sha256: `s${i}`,
    phash,
    linkedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  }));
  const builds: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  const reports: number[] = [];
  let clustered = 0;
  for (let run = 0; run < RUNS; run += 1) {
    let t = performance.now();
    const index = new HashIndex();
    for (const h of all) index.add(h);
    builds.push(performance.now() - t);
    const times: number[] = [];
    for (let q = 0; q < QUERIES; q += 1) {
      const h = all[(q * 7919) % all.length]!;
      t = performance.now();
      index.near(h, R);
      times.push(performance.now() - t);
    }
    p50s.push(percentile(times, 50));
    p99s.push(percentile(times, 99));
    t = performance.now();
    const clusters = clusterPhotos(photos);
    reports.push(performance.now() - t);
    clustered = [...clusters.values()].filter((c) => c.size > 1).length;
  }
  console.log(
    `${shape} hashes, ${PHOTOS.toLocaleString('en-US')} photos (${clustered.toLocaleString('en-US')} in clusters of 2 or more): index built in ${median(builds).toFixed(0)} ms; near duplicates of one photo: p50 ${median(p50s).toFixed(3)} ms, p99 ${median(p99s).toFixed(3)} ms (target ≤ 5); the whole cluster report ${(median(reports) / 1000).toFixed(2)} s (target ≤ 10)`,
  );
}

async function fingerprintCost() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6b8f3a"/><stop offset="1" stop-color="#2f4a1c"/></linearGradient></defs>
    <rect width="4000" height="3000" fill="#b9a982"/><g transform="rotate(-9 2000 1500)"><ellipse cx="2000" cy="1500" rx="1800" ry="420" fill="url(#g)"/>
    ${Array.from({ length: 60 }, (_, i) => `<ellipse cx="${400 + ((i * 613) % 3200)}" cy="${1250 + ((i * 379) % 500)}" rx="${30 + (i % 7) * 12}" ry="${18 + (i % 5) * 8}" fill="#7a4e22" opacity="0.8"/>`).join('')}</g></svg>`;
  // Grain as a camera sensor adds it, so the JPEG is the size of a phone's (about 3 MB).
  const base = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  const random = seededRandom(7);
  for (let i = 0; i < base.data.length; i += 1)
    base.data[i] = Math.max(0, Math.min(255, base.data[i]! + Math.round((random() - 0.5) * 24)));
  const photo = await sharp(base.data, { raw: base.info }).jpeg({ quality: 92 }).toBuffer();
  const options = { displaySize: 1024, thumbSize: 480, maxPixels: 50_000_000 };
  const without: number[] = [];
  const fingerprint: number[] = [];
  for (let i = 0; i < RUNS * 5; i += 1) {
    let t = performance.now();
    const variants = await makeVariants(photo, options);
    without.push(performance.now() - t);
    t = performance.now();
    await fingerprintPixels(variants.pixels);
    fingerprint.push(performance.now() - t);
  }
  const v = median(without);
  const f = median(fingerprint);
  console.log(
    `4000×3000 JPEG of ${(photo.length / 1048576).toFixed(1)} MB: thumbnails ${v.toFixed(0)} ms, fingerprint from their pixels ${f.toFixed(1)} ms: +${((f / v) * 100).toFixed(1)}% (target ≤ 15%), medians of ${RUNS * 5}`,
  );
}

searchBench('uniform');
searchBench('field');
await fingerprintCost();
