/**
 * npm run bench:languages — the farmer app's diseases list in English and in Filipino.
 *
 * On each engine (--engines sqlite,postgres): --records diseases, each with --photos photos and
 * its five farmer-facing fields; Filipino translations of --share of those fields (the rest
 * falls back to English), and of the affected parts. The built server (as `npm start` runs it)
 * then answers GET /api/public/v1/diseases and GET /api/public/v1/diseases?lang=fil over HTTP on
 * one kept-alive connection, asking for --encoding (gzip, as the farmer app's HTTP client does;
 * identity for none), --requests times each, interleaved, in --rounds rounds: each
 * round's p50, p99 and ratio of the p99s, the median of the rounds' ratios, and the p99s of all
 * the rounds' requests together (the budget: Filipino at most 20% above English). Last, the
 * server's own CPU time per request, each language alone for --requests requests.
 *
 * The server runs in its own process: the bench's HTTP client does not share its heap, and the
 * answers go through the sockets a phone's do. (Fastify's inject keeps every answer alive long
 * enough to reach the old generation: the heap it grows, and collects, is what it measures.)
 *
 * Options: --records 100  --photos 3  --share 0.7  --requests 1000  --rounds 5  --encoding gzip  --engines sqlite,postgres
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import {
  benchDatabase,
  benchEngines,
  benchPgUrl,
  cpuSeconds,
  median,
  option,
  percentile,
  startBuiltServer,
  stopBuiltServer,
} from './support.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const RECORDS = Number(option('records', '100'));
const PHOTOS = Number(option('photos', '3'));
const SHARE = Number(option('share', '0.7'));
const REQUESTS = Number(option('requests', '1000'));
const ROUNDS = Number(option('rounds', '5'));
const ENCODING = option('encoding', 'gzip');
const FIELDS = ['name', 'description', 'cause', 'symptoms', 'treatments'] as const;

async function runEngine(engine: 'sqlite' | 'postgres') {
  const target = await benchDatabase(engine, PG, 'palayan-bench-languages-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  let closed = false;
  let server: { url: string; child: ChildProcess } | undefined;
  const { app, ctx } = await buildApp(
    loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent', publicRateLimitPerMinute: 1_000_000 }),
    { logger: false },
  );
  try {
    const now = new Date().toISOString();
    const text = (field: string, i: number) =>
      `${field} of disease ${i}: ${'Lesions spread along the leaf blade and turn grey. '.repeat(4)}`;
    // A translation is about as long as its English: each is the English with a short prefix.
    const english = (field: string, i: number) => (field === 'name' ? `Disease ${i}` : text(field, i));
    const ids = Array.from({ length: RECORDS }, (_, i) => `bench-disease-${String(i).padStart(4, '0')}`);
    await ctx.db
      .insertInto('rice_local_diseases')
      .values(
        ids.map((id, i) => ({
          id,
          name: `Disease ${i}`,
          description: text('description', i),
          cause: text('cause', i),
          symptoms: text('symptoms', i),
          treatments: text('treatments', i),
          affectedParts: JSON.stringify(['Leaf', 'Stem']),
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    const photos = ids.flatMap((id) =>
      Array.from({ length: PHOTOS }, (_, k) => ({
        id: `${id}-p${k}`,
        collection: 'rice_local_diseases',
        entryId: id,
        position: k,
        status: 'ready',
        originalKey: `rice_disease/bench/${id}-${k}.jpg`,
        displayKey: `rice_disease/_variants/${id}-${k}_display.jpg`,
        thumbKey: `rice_disease/_variants/${id}-${k}_thumb.jpg`,
        externalUrl: null,
        mimeType: 'image/jpeg',
        sizeBytes: 300_000,
        width: 1600,
        height: 1200,
        originalName: `IMG_${k}.jpg`,
        sha256: `sha-${id}-${k}`,
        uploadedBy: null,
        createdAt: now,
        linkedAt: now,
      })),
    );
    for (let i = 0; i < photos.length; i += 200)
      await ctx.db
        .insertInto('catalog_images')
        .values(photos.slice(i, i + 200))
        .execute();
    const rows = ids.flatMap((id, i) =>
      FIELDS.filter((_, f) => ((i * FIELDS.length + f) % 10) / 10 < SHARE).map((field) => ({
        collection: 'rice_local_diseases',
        recordId: id,
        field,
        lang: 'fil',
        text: `Salin: ${english(field, i)}`,
        sourceText: english(field, i),
        sourceHash: 'bench',
        updatedAt: now,
        updatedBy: null,
      })),
    );
    for (let i = 0; i < rows.length; i += 200)
      await ctx.db
        .insertInto('translations')
        .values(rows.slice(i, i + 200))
        .execute();
    await ctx.db
      .insertInto('translations')
      .values(
        ['Leaf', 'Stem'].map((v, k) => ({
          collection: 'maintenance',
          recordId: 'rice_diseases_enums',
          field: `affectedParts:${v}`,
          lang: 'fil',
          text: ['Dahon', 'Tangkay'][k]!,
          sourceText: v,
          sourceHash: 'bench',
          updatedAt: now,
          updatedBy: null,
        })),
      )
      .execute();

    await app.close();
    closed = true;
    server = await startBuiltServer({
      DATA_DIR: target.dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
        http
          .get(`${server!.url}${path}`, { agent, headers: ENCODING === 'identity' ? {} : { 'accept-encoding': ENCODING } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          })
          .on('error', reject);
      });
    const timed = async (path: string) => {
      const started = performance.now();
      const res = await get(path);
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${res.status} ${res.body.toString().slice(0, 200)}`);
      return { ms, bytes: res.body.length };
    };
    const EN = '/api/public/v1/diseases';
    const FIL = '/api/public/v1/diseases?lang=fil';
    for (let w = 0; w < 200; w += 1) {
      await timed(EN);
      await timed(FIL);
    }
    const rounds: Array<{ en: { p50: number; p99: number }; fil: { p50: number; p99: number } }> = [];
    const all = { en: [] as number[], fil: [] as number[] };
    let sizes = { en: 0, fil: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const en: number[] = [];
      const fil: number[] = [];
      for (let r = 0; r < REQUESTS; r += 1) {
        const a = await timed(EN);
        const b = await timed(FIL);
        en.push(a.ms);
        fil.push(b.ms);
        sizes = { en: a.bytes, fil: b.bytes };
      }
      rounds.push({
        en: { p50: percentile(en, 50), p99: percentile(en, 99) },
        fil: { p50: percentile(fil, 50), p99: percentile(fil, 99) },
      });
      all.en.push(...en);
      all.fil.push(...fil);
    }
    const pooled = {
      en: { p50: percentile(all.en, 50), p99: percentile(all.en, 99) },
      fil: { p50: percentile(all.fil, 50), p99: percentile(all.fil, 99) },
    };
    const cpuPerRequest = async (path: string) => {
      const before = cpuSeconds(server!.child.pid!);
      for (let r = 0; r < REQUESTS; r += 1) await timed(path);
      return ((cpuSeconds(server!.child.pid!) - before) * 1000) / REQUESTS;
    };
    const cpu = { en: [] as number[], fil: [] as number[] };
    for (let k = 0; k < 3; k += 1) {
      cpu.en.push(await cpuPerRequest(EN));
      cpu.fil.push(await cpuPerRequest(FIL));
    }
    agent.destroy();
    return { engine, translations: rows.length, rounds, pooled, sizes, cpu: { en: median(cpu.en), fil: median(cpu.fil) } };
  } finally {
    if (!closed) await app.close();
    if (server) await stopBuiltServer(server.child);
    await target.drop();
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
for (const engine of ENGINES) {
  const r = await runEngine(engine);
  console.log(
    `\n${engine}: ${RECORDS} diseases, ${r.translations} Filipino translations (${Math.round(SHARE * 100)}% of the fields); ${r.sizes.en} bytes in English, ${r.sizes.fil} with ?lang=fil (${ENCODING})`,
  );
  r.rounds.forEach((x, i) => {
    console.log(
      `  round ${i + 1}: English p50 ${fmt(x.en.p50)} p99 ${fmt(x.en.p99)} | ?lang=fil p50 ${fmt(x.fil.p50)} p99 ${fmt(x.fil.p99)} | p99 ratio ${(x.fil.p99 / x.en.p99).toFixed(2)}, p50 ratio ${(x.fil.p50 / x.en.p50).toFixed(2)}`,
    );
  });
  console.log(
    `  median of the rounds: p99 ratio ${median(r.rounds.map((x) => x.fil.p99 / x.en.p99)).toFixed(2)}, p50 ratio ${median(r.rounds.map((x) => x.fil.p50 / x.en.p50)).toFixed(2)}`,
  );
  const p = r.pooled;
  console.log(
    `  all ${ROUNDS * REQUESTS} requests of each: English p99 ${fmt(p.en.p99)}, ?lang=fil p99 ${fmt(p.fil.p99)}: p99 ratio ${(p.fil.p99 / p.en.p99).toFixed(2)}, p50 ratio ${(p.fil.p50 / p.en.p50).toFixed(2)}   (budget p99 ≤ 1.20)`,
  );
  console.log(
    `  server CPU per request (median of 3 blocks of ${REQUESTS}, each language alone): English ${r.cpu.en.toFixed(2)} ms, ?lang=fil ${r.cpu.fil.toFixed(2)} ms: ratio ${(r.cpu.fil / r.cpu.en).toFixed(2)}`,
  );
}
