/**
 * npm run bench:models — evaluating a scanner model on the held-out photos, on this machine.
 *
 * A fresh SQLite database gets --photos disease photos (default 2,000: JPEGs of PHOTO_MAX_EDGE,
 * 1600 px on the long side, as the console stores phone photos; --distinct different pictures
 * copied under every photo's own key), 12 diseases and 5,000 varieties. A real server process
 * (build/, as `npm start` runs it) is started on it, and over HTTP as a super admin:
 *   - a convolutional model of at least 300 MFLOPs at 224×224 (made by the same recipes as the
 *     test models, server/libraries/tflite/recipes.ts) is uploaded;
 *   - a variety search (GET /api/varieties?search=…, one after another, --gap ms apart) is timed
 *     for --baseline seconds with nothing else running: p50 / p99;
 *   - an evaluation of every photo (split "all") is started and the same searches run until it is
 *     done: their p50 / p99 during it, and the ratio of the p99s;
 *   - photos per second, the evaluation's wall time, and the server's peak resident memory
 *     (sampled every 250 ms; the evaluation thread lives in the same process).
 *   - Check file (POST /api/models/inspect) of the same model: its search for the pixel contract
 *     on the held-out photos of the 12 diseases, timed, with the searches' p99 meanwhile.
 * Targets: 2,000 photos in at most 5 minutes; the contract search in at most 60 s; the search's
 * p99 at most doubled during either.
 * --output uint8: the model gives its scores as uint8 (dequantised by the server).
 * After 5 s of unmeasured searches (warm-up), each of --runs runs times both phases; the medians
 * of the runs are printed last.
 * --only contract: the baseline and the contract search alone (no evaluation).
 * Options: --photos 2000  --distinct 40  --baseline 20  --gap 50  --runs 3  --output uint8  --only contract
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { CATALOG_LIMITS } from '../common/catalog.js';
import { seededRandom } from '../server/platform/support/seeded-random.js';
import { convBenchClassifier, convBenchFlops } from '../server/libraries/tflite/recipes.js';
import { realisticVariety, SEARCHES } from './variety-data.js';
import { benchLogin, median, option, percentile, rssMb, startBuiltServer } from './support.js';

const PHOTOS = Number(option('photos', '2000'));
const DISTINCT = Number(option('distinct', '40'));
const BASELINE_S = Number(option('baseline', '20'));
const GAP_MS = Number(option('gap', '50'));
/** --only contract: the baseline and Check file's contract search, no evaluation. */
const ONLY = option('only', '');
const RUNS = Number(option('runs', '3'));
const OUTPUT = option('output', '') === 'uint8' ? ('uint8' as const) : undefined;
const USER = { username: 'bench_super', password: 'Bench#Pass1' };
const built = <M>(file: string): Promise<M> => import(new URL(`../build/server/${file}`, import.meta.url).href) as Promise<M>;

async function photoBodies(): Promise<Buffer[]> {
  const random = seededRandom(7);
  const edge = CATALOG_LIMITS.photoMaxEdge;
  const bodies: Buffer[] = [];
  for (let i = 0; i < DISTINCT; i += 1) {
    const w = edge;
    const h = Math.round(edge * 0.75);
    const blobs = Array.from(
      { length: 30 },
      () =>
        `<ellipse cx="${Math.floor(random() * w)}" cy="${Math.floor(random() * h)}" rx="${20 + Math.floor(random() * 200)}" ry="${10 + Math.floor(random() * 60)}" fill="rgb(${Math.floor(random() * 255)},${Math.floor(random() * 255)},${Math.floor(random() * 120)})" transform="rotate(${Math.floor(random() * 180)})"/>`,
    ).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="rgb(${60 + i},${120 + (i % 60)},50)"/>${blobs}</svg>`;
    bodies.push(await sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer());
  }
  return bodies;
}

async function seed(dataDir: string): Promise<void> {
  const { loadConfig } = await built<typeof import('../server/config.js')>('config.js');
  const { buildApp } = await built<typeof import('../server/app.js')>('app.js');
  const { createAccount } = await built<typeof import('../server/modules/identity/accounts/create-account.js')>(
    'modules/identity/accounts/create-account.js',
  );
  const { varietiesRepository } = await built<typeof import('../server/modules/content/varieties/repository.js')>(
    'modules/content/varieties/repository.js',
  );
  const { tidyVarietySearch } = await built<typeof import('../server/db/variety-search.js')>('db/variety-search.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir, logLevel: 'silent' }), { logger: false });
  try {
    await createAccount(ctx.db, { ...USER, fullname: 'Bench Super Admin', email: 'bench-super@example.test', role: 'SYSTEM_ADMIN' }, null);
    const base = Date.parse('2024-01-01T00:00:00Z');
    const varieties = Array.from({ length: 5000 }, (_, i) => realisticVariety(i, new Date(base + i * 60_000).toISOString()));
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < varieties.length; i += 500) await varietiesRepository.insertMany(trx, varieties.slice(i, i + 500));
    });
    await tidyVarietySearch(ctx.db);
    const bodies = await photoBodies();
    const now = new Date().toISOString();
    for (let d = 0; d < 12; d += 1) {
      await ctx.db
        .insertInto('rice_local_diseases')
        .values({
          id: `bench-d${d}`,
          name: `Bench disease ${d + 1}`,
          scientificName: '',
          isDeleted: 0,
          createdAt: new Date(base + d * 1000).toISOString(),
        })
        .execute();
    }
    const rows = [];
    for (let i = 0; i < PHOTOS; i += 1) {
      const body = bodies[i % bodies.length]!;
      const entryId = `bench-d${i % 12}`;
      const key = `rice_disease/${entryId}/bench-${i}.jpg`;
      await ctx.storage.put(key, body);
      rows.push({
        id: `bench-photo-${String(i).padStart(5, '0')}`,
        collection: 'rice_local_diseases',
        entryId,
        position: Math.floor(i / 12),
        status: 'ready',
        originalKey: key,
        displayKey: null,
        thumbKey: null,
        externalUrl: null,
        mimeType: 'image/jpeg',
        sizeBytes: body.length,
        width: CATALOG_LIMITS.photoMaxEdge,
        height: Math.round(CATALOG_LIMITS.photoMaxEdge * 0.75),
        originalName: `bench-${i}.jpg`,
        sha256: `bench-${i}`,
        uploadedBy: null,
        createdAt: now,
        linkedAt: now,
        locationCleaned: 1,
      });
    }
    for (let i = 0; i < rows.length; i += 200)
      await ctx.db
        .insertInto('catalog_images')
        .values(rows.slice(i, i + 200))
        .execute();
  } finally {
    await app.close();
  }
}

/** Variety searches one after another until `stop()` is true: each one's time in ms. */
async function searches(url: string, cookie: string, stop: () => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; !stop(); i += 1) {
    const q = SEARCHES[i % SEARCHES.length]!;
    const started = performance.now();
    const res = await fetch(`${url}/api/varieties?search=${encodeURIComponent(q)}&page=${1 + (i % 3)}`, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`search failed: ${res.status}`);
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  return times;
}

async function main() {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url))], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-models-'));
  let child: ChildProcess | null = null;
  try {
    console.log(`seeding ${PHOTOS} photos (${DISTINCT} distinct JPEGs, ${CATALOG_LIMITS.photoMaxEdge} px), 12 diseases, 5,000 varieties…`);
    await seed(dataDir);
    const server = await startBuiltServer({
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      INSTANCE_ID: 'bench-models',
    });
    child = server.child;
    const cookie = await benchLogin(server.url, USER);

    const labels = Array.from({ length: 12 }, (_, d) => `bench-disease-${d + 1}`);
    const model = await convBenchClassifier({ classes: 12, labels, output: OUTPUT });
    console.log(
      `model: ${(model.length / 1024).toFixed(0)} KB, ${(convBenchFlops(12) / 1e6).toFixed(0)} MFLOPs per 224×224 photo, ${OUTPUT ?? 'float32'} scores`,
    );
    const form = new FormData();
    form.append(
      'meta',
      JSON.stringify({
        stage: 'disease',
        contract: { scaling: '-1-1', mean: null, std: null, resize: 'stretch' },
        thresholds: { confidence: 0.5, margin: 0 },
        mapping: labels.map((_, d) => ({ recordId: `bench-d${d}`, verdict: null })),
        note: 'bench',
      }),
    );
    form.append('model', new Blob([Buffer.from(model)]), 'bench.tflite');
    const uploaded = await fetch(`${server.url}/api/models`, { method: 'POST', headers: { cookie }, body: form });
    if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const { id } = (await uploaded.json()) as { id: string };

    const warm = Date.now() + 5000;
    await searches(server.url, cookie, () => Date.now() > warm);
    const results: Array<{ rate: number; seconds: number; peak: number; b50: number; b99: number; d50: number; d99: number }> = [];
    for (let run = 1; run <= RUNS; run += 1) {
      console.log(`run ${run}: variety searches alone for ${BASELINE_S} s, then while an evaluation of every photo runs`);
      const until = Date.now() + BASELINE_S * 1000;
      const baseline = await searches(server.url, cookie, () => Date.now() > until);
      if (ONLY === 'contract') {
        results.push({ rate: 0, seconds: 0, peak: 0, b50: median(baseline), b99: percentile(baseline, 99), d50: 0, d99: 0 });
        continue;
      }
      let peak = rssMb(child.pid!);
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(child!.pid!));
      }, 250);
      const started = performance.now();
      const queued = await fetch(`${server.url}/api/models/${id}/evaluations`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ split: 'all' }),
      });
      if (queued.status !== 202) throw new Error(`evaluation refused: ${queued.status} ${await queued.text()}`);
      const evaluationId = ((await queued.json()) as { id: string }).id;
      let finished = false;
      let state = 'queued';
      const poll = (async () => {
        while (!finished) {
          await new Promise((r) => setTimeout(r, 1000));
          const m = (await (await fetch(`${server.url}/api/models/${id}`, { headers: { cookie } })).json()) as {
            evaluations: Array<{ id: string; state: string; done: number; total: number }>;
          };
          const e = m.evaluations.find((x) => x.id === evaluationId)!;
          state = e.state;
          if (!['queued', 'running'].includes(e.state)) finished = true;
        }
      })();
      const during = await searches(server.url, cookie, () => finished);
      await poll;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (state !== 'done') throw new Error(`the evaluation ended ${state}`);
      const report = (await (
        await fetch(`${server.url}/api/models/${id}/evaluations/${evaluationId}`, { headers: { cookie } })
      ).json()) as { evaluation: { done: number } };
      const r = {
        rate: report.evaluation.done / seconds,
        seconds,
        peak,
        b50: median(baseline),
        b99: percentile(baseline, 99),
        d50: median(during),
        d99: percentile(during, 99),
      };
      results.push(r);
      console.log(
        `  ${report.evaluation.done} photos in ${seconds.toFixed(1)} s (${r.rate.toFixed(1)} photos/s), peak RSS ${peak.toFixed(0)} MB;` +
          ` search alone p50 ${r.b50.toFixed(1)} / p99 ${r.b99.toFixed(1)} ms (${baseline.length} requests), during p50 ${r.d50.toFixed(1)} / p99 ${r.d99.toFixed(1)} ms (${during.length}); p99 ratio ${(r.d99 / r.b99).toFixed(2)}`,
      );
    }
    const m = (f: (r: (typeof results)[number]) => number) => median(results.map(f));
    const checks: Array<{ seconds: number; photos: number; d99: number }> = [];
    for (let run = 1; run <= RUNS; run += 1) {
      // A model of its own each run (other weights, another sha256): Check file keeps a model's trial, which would be read back.
      const checked = await convBenchClassifier({ classes: 12, labels, output: OUTPUT, seed: 100 + run });
      const inspect = new FormData();
      inspect.append('meta', JSON.stringify({ stage: 'disease' }));
      inspect.append('model', new Blob([Buffer.from(checked)]), 'bench.tflite');
      let finished = false;
      const started = performance.now();
      const answer = fetch(`${server.url}/api/models/inspect`, { method: 'POST', headers: { cookie }, body: inspect }).then(async (res) => {
        finished = true;
        if (res.status !== 200) throw new Error(`Check file failed: ${res.status} ${await res.text()}`);
        return (await res.json()) as { contractSearch: { photos: number; trials: unknown[] } | null };
      });
      const during = await searches(server.url, cookie, () => finished);
      const found = await answer;
      const seconds = (performance.now() - started) / 1000;
      if (!found.contractSearch) throw new Error('Check file tried no contract');
      checks.push({ seconds, photos: found.contractSearch.photos, d99: percentile(during, 99) });
      const { trials, photos } = found.contractSearch;
      console.log(
        `  Check file: ${trials.length} contracts on ${photos} held-out photos in ${seconds.toFixed(1)} s;` +
          ` search during p99 ${percentile(during, 99).toFixed(1)} ms (${during.length})`,
      );
    }
    console.log(
      `median of ${RUNS} runs: ${PHOTOS} photos in ${m((r) => r.seconds).toFixed(1)} s = ${m((r) => r.rate).toFixed(1)} photos/s (target: ≤ 300 s)`,
    );
    console.log(`  peak resident memory of the server: ${m((r) => r.peak).toFixed(0)} MB`);
    console.log(
      `  variety search p99: ${m((r) => r.b99).toFixed(1)} ms alone, ${m((r) => r.d99).toFixed(1)} ms while evaluating; ratio of p99s ${m((r) => r.d99 / r.b99).toFixed(2)} (target ≤ 2)`,
    );
    const checkSeconds = median(checks.map((c) => c.seconds));
    const checkP99 = median(checks.map((c) => c.d99));
    console.log(
      `  Check file's contract search: ${checkSeconds.toFixed(1)} s on ${checks[0]!.photos} photos (target ≤ 60 s);` +
        ` search p99 meanwhile ${checkP99.toFixed(1)} ms, ratio ${(checkP99 / m((r) => r.b99)).toFixed(2)} (target ≤ 2)`,
    );
  } finally {
    child?.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
