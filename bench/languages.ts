/**
 * npm run bench:languages — the farmer app's diseases list in English and in Filipino.
 *
 * On each engine (--engines sqlite,postgres): --records diseases, each with --photos photos and
 * its five farmer-facing fields; Filipino translations of --share of those fields (the rest
 * falls back to English), and of the affected parts. Then GET /api/public/v1/diseases and
 * GET /api/public/v1/diseases?lang=fil through the real routes (app.inject), --requests times
 * each, interleaved, in --rounds rounds: each round's p50, p99 and ratio of the p99s, the median
 * of the rounds' ratios, and the p99s of all the rounds' requests together (the budget: Filipino
 * at most 20% above English). A p99 of a thousand requests is its ten slowest, which garbage
 * collections land on: one round alone says little. The collections each language's requests
 * met are counted too.
 *
 * Options: --records 100  --photos 3  --share 0.7  --requests 1000  --rounds 5  --engines sqlite,postgres
 */
import { benchDatabase, benchEngines, benchPgUrl, option, percentile } from './support.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const RECORDS = Number(option('records', '100'));
const PHOTOS = Number(option('photos', '3'));
const SHARE = Number(option('share', '0.7'));
const REQUESTS = Number(option('requests', '1000'));
const ROUNDS = Number(option('rounds', '5'));
const FIELDS = ['name', 'description', 'cause', 'symptoms', 'treatments'] as const;

async function runEngine(engine: 'sqlite' | 'postgres') {
  const target = await benchDatabase(engine, PG, 'palayan-bench-languages-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent', publicRateLimitPerMinute: 1_000_000 }), { logger: false });
  try {
    const now = new Date().toISOString();
    const text = (field: string, i: number) => `${field} of disease ${i}: ${'Lesions spread along the leaf blade and turn grey. '.repeat(4)}`;
    // A translation is about as long as its English: each is the English with a short prefix.
    const english = (field: string, i: number) => (field === 'name' ? `Disease ${i}` : text(field, i));
    const ids = Array.from({ length: RECORDS }, (_, i) => `bench-disease-${String(i).padStart(4, '0')}`);
    await ctx.db.insertInto('rice_local_diseases').values(ids.map((id, i) => ({
      id, name: `Disease ${i}`, description: text('description', i), cause: text('cause', i), symptoms: text('symptoms', i), treatments: text('treatments', i),
      affectedParts: JSON.stringify(['Leaf', 'Stem']), createdAt: now, updatedAt: now,
    }))).execute();
    const photos = ids.flatMap((id) => Array.from({ length: PHOTOS }, (_, k) => ({
      id: `${id}-p${k}`, collection: 'rice_local_diseases', entryId: id, position: k, status: 'ready', originalKey: `rice_disease/bench/${id}-${k}.jpg`,
      displayKey: `rice_disease/_variants/${id}-${k}_display.jpg`, thumbKey: `rice_disease/_variants/${id}-${k}_thumb.jpg`, externalUrl: null, mimeType: 'image/jpeg',
      sizeBytes: 300_000, width: 1600, height: 1200, originalName: `IMG_${k}.jpg`, sha256: `sha-${id}-${k}`, uploadedBy: null, createdAt: now, linkedAt: now,
    })));
    for (let i = 0; i < photos.length; i += 200) await ctx.db.insertInto('catalog_images').values(photos.slice(i, i + 200)).execute();
    const rows = ids.flatMap((id, i) => FIELDS.filter((_, f) => ((i * FIELDS.length + f) % 10) / 10 < SHARE).map((field) => ({
      collection: 'rice_local_diseases', recordId: id, field, lang: 'fil', text: `Salin: ${english(field, i)}`, sourceText: english(field, i), sourceHash: 'bench', updatedAt: now, updatedBy: null,
    })));
    for (let i = 0; i < rows.length; i += 200) await ctx.db.insertInto('translations').values(rows.slice(i, i + 200)).execute();
    await ctx.db.insertInto('translations').values(['Leaf', 'Stem'].map((v, k) => ({
      collection: 'maintenance', recordId: 'rice_diseases_enums', field: `affectedParts:${v}`, lang: 'fil', text: ['Dahon', 'Tangkay'][k]!, sourceText: v, sourceHash: 'bench', updatedAt: now, updatedBy: null,
    }))).execute();

    // Garbage collections, each counted against the request it paused (requests run one at a time).
    const pauses: Array<{ at: number; ms: number }> = [];
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) pauses.push({ at: e.startTime, ms: e.duration }); });
    observer.observe({ entryTypes: ['gc'] });
    const gc = { en: { n: 0, ms: 0 }, fil: { n: 0, ms: 0 } };
    const windows: Array<{ from: number; to: number; lang: 'en' | 'fil'; paused: number }> = [];
    const net = { en: [] as number[], fil: [] as number[] };
    /** The observer reports after the fact: the round's pauses are matched to its requests at its end. */
    const countPauses = async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      let w = 0;
      for (const p of pauses.splice(0).sort((a, b) => a.at - b.at)) {
        while (w < windows.length && windows[w]!.to < p.at) w += 1;
        const hit = windows[w];
        if (hit && hit.from <= p.at) { gc[hit.lang].n += 1; gc[hit.lang].ms += p.ms; hit.paused += p.ms; }
      }
      for (const w of windows) net[w.lang].push(w.to - w.from - w.paused);
      windows.length = 0;
    };
    const timed = async (url: string, lang?: 'en' | 'fil') => {
      const started = performance.now();
      const res = await app.inject({ url });
      const ended = performance.now();
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
      if (lang) windows.push({ from: started, to: ended, lang, paused: 0 });
      return { ms: ended - started, bytes: res.rawPayload.length };
    };
    for (let w = 0; w < 20; w += 1) { await timed('/api/public/v1/diseases'); await timed('/api/public/v1/diseases?lang=fil'); }
    const rounds: Array<{ en: { p50: number; p99: number }; fil: { p50: number; p99: number } }> = [];
    const all = { en: [] as number[], fil: [] as number[] };
    let sizes = { en: 0, fil: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const en: number[] = [];
      const fil: number[] = [];
      for (let r = 0; r < REQUESTS; r += 1) {
        const a = await timed('/api/public/v1/diseases', 'en');
        const b = await timed('/api/public/v1/diseases?lang=fil', 'fil');
        en.push(a.ms);
        fil.push(b.ms);
        sizes = { en: a.bytes, fil: b.bytes };
      }
      await countPauses();
      rounds.push({ en: { p50: percentile(en, 50), p99: percentile(en, 99) }, fil: { p50: percentile(fil, 50), p99: percentile(fil, 99) } });
      all.en.push(...en);
      all.fil.push(...fil);
    }
    const pooled = { en: { p50: percentile(all.en, 50), p99: percentile(all.en, 99) }, fil: { p50: percentile(all.fil, 50), p99: percentile(all.fil, 99) } };
    observer.disconnect();
    return { engine, translations: rows.length, rounds, pooled, sizes, gc, net: { en: percentile(net.en, 99), fil: percentile(net.fil, 99) } };
  } finally {
    await app.close();
    await target.drop();
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const engine of ENGINES) {
  const r = await runEngine(engine);
  console.log(`\n${engine}: ${RECORDS} diseases, ${r.translations} Filipino translations (${Math.round(SHARE * 100)}% of the fields); ${r.sizes.en} bytes in English, ${r.sizes.fil} with ?lang=fil`);
  r.rounds.forEach((x, i) => {
    console.log(`  round ${i + 1}: English p50 ${fmt(x.en.p50)} p99 ${fmt(x.en.p99)} | ?lang=fil p50 ${fmt(x.fil.p50)} p99 ${fmt(x.fil.p99)} | p99 ratio ${(x.fil.p99 / x.en.p99).toFixed(2)}, p50 ratio ${(x.fil.p50 / x.en.p50).toFixed(2)}`);
  });
  console.log(`  median of the rounds: p99 ratio ${median(r.rounds.map((x) => x.fil.p99 / x.en.p99)).toFixed(2)}, p50 ratio ${median(r.rounds.map((x) => x.fil.p50 / x.en.p50)).toFixed(2)}`);
  const p = r.pooled;
  console.log(`  all ${ROUNDS * REQUESTS} requests of each: English p99 ${fmt(p.en.p99)}, ?lang=fil p99 ${fmt(p.fil.p99)}: p99 ratio ${(p.fil.p99 / p.en.p99).toFixed(2)}, p50 ratio ${(p.fil.p50 / p.en.p50).toFixed(2)}   (budget p99 ≤ 1.20)`);
  console.log(`  garbage collections during the requests: English ${r.gc.en.n} (${fmt(r.gc.en.ms)} in all), ?lang=fil ${r.gc.fil.n} (${fmt(r.gc.fil.ms)} in all); without their pauses, p99 ${fmt(r.net.en)} and ${fmt(r.net.fil)}: ratio ${(r.net.fil / r.net.en).toFixed(2)}`);
}
