/**
 * npm run bench:review — review before publishing under load.
 *
 * On each engine (--engines sqlite,postgres), through the real routes (app.inject):
 *   - the Review queue with --pending open changes (varieties, pests, diseases, option lists,
 *     written as the gate writes them): its first page, --requests times (p50, p99), and the
 *     sidebar's count;
 *   - publishing a disease edit with --photos photos (an approval: the claim, the save through
 *     the catalog service with every photo's position, the version and the audit entries), --publishes times:
 *     median and max.
 *
 * Options: --pending 10000  --requests 200  --photos 2000  --publishes 5  --engines sqlite,postgres
 */
import { benchDatabase, benchEngines, benchPgUrl, median, option, percentile, storeBenchDisease } from './support.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const PENDING = Number(option('pending', '10000'));
const REQUESTS = Number(option('requests', '200'));
const PHOTOS = Number(option('photos', '2000'));
const PUBLISHES = Number(option('publishes', '5'));
const AUTHOR = { username: 'bench_author', password: 'Bench#Pass1', fullname: 'Bench Author' };
const REVIEWER = { username: 'bench_reviewer', password: 'Bench#Pass1', fullname: 'Bench Reviewer' };
const COLLECTIONS = ['rice_seed_varieties', 'rice_local_pests', 'rice_local_diseases', 'maintenance'] as const;

async function timed(work: () => Promise<{ statusCode: number; body: string }>, expected = 200): Promise<number> {
  const started = performance.now();
  const res = await work();
  const ms = performance.now() - started;
  if (res.statusCode !== expected) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
  return ms;
}

async function runEngine(engine: 'sqlite' | 'postgres') {
  const target = await benchDatabase(engine, PG, 'palayan-bench-review-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/identity/accounts/create-account.js');
  const { backfillFirstVersions } = await import('../server/modules/publishing/versions/current.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent' }), {
    logger: false,
  });
  try {
    const authorId = await createAccount(ctx.db, { ...AUTHOR, role: 'ADMIN' }, null);
    await createAccount(ctx.db, { ...REVIEWER, role: 'SYSTEM_ADMIN' }, null);
    const login = async (user: typeof AUTHOR) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { identifier: user.username, password: user.password },
      });
      return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    };
    const authorCookie = await login(AUTHOR);
    const reviewerCookie = await login(REVIEWER);

    // The queue: open changes submitted over the last weeks, one a record.
    const started = Date.now() - PENDING * 60_000;
    for (let i = 0; i < PENDING; i += 500) {
      await ctx.db
        .insertInto('pending_changes')
        .values(
          Array.from({ length: Math.min(500, PENDING - i) }, (_, k) => {
            const n = i + k;
            const at = new Date(started + n * 60_000).toISOString();
            return {
              id: `bench-change-${String(n).padStart(6, '0')}`,
              collection: COLLECTIONS[n % 4]!,
              action: 'update',
              recordId: `bench-record-${n}`,
              recordName: `Record ${n}`,
              baseVersion: 1,
              input: JSON.stringify({ id: `bench-record-${n}`, body: { name: `Record ${n}` } }),
              summary: null,
              state: n % 10 === 0 ? 'rejected' : 'pending',
              version: 1,
              authorId,
              authorRole: 'ADMIN',
              createdAt: at,
              submittedAt: at,
              reviewerId: null,
              reviewedAt: null,
              comment: null,
              scheduledAt: null,
              scheduledBy: null,
              publishedAt: null,
              publishedBy: null,
              breakGlassReason: null,
              publishError: null,
            };
          }),
        )
        .execute();
    }
    const firstPage: number[] = [];
    const counts: number[] = [];
    for (let r = 0; r < REQUESTS; r += 1) {
      firstPage.push(await timed(() => app.inject({ url: '/api/review/changes?state=open', headers: { cookie: reviewerCookie } })));
      counts.push(await timed(() => app.inject({ url: '/api/review/count', headers: { cookie: reviewerCookie } })));
    }
    const filtered: number[] = [];
    for (let r = 0; r < REQUESTS; r += 1)
      filtered.push(
        await timed(() =>
          app.inject({ url: '/api/review/changes?state=pending&collection=rice_local_diseases', headers: { cookie: reviewerCookie } }),
        ),
      );

    // A disease with PHOTOS photos, review on for diseases; each round the author edits it and the reviewer approves.
    const id = 'bench-disease';
    const photoIds = await storeBenchDisease(ctx.db, id, PHOTOS);
    await backfillFirstVersions(ctx);
    await app.inject({
      method: 'PUT',
      url: '/api/review/settings/rice_local_diseases',
      headers: { cookie: reviewerCookie },
      payload: { enabled: true },
    });
    const publishMs: number[] = [];
    const submitMs: number[] = [];
    let kept = photoIds;
    for (let p = 1; p <= PUBLISHES; p += 1) {
      const { version } = (await app.inject({ url: `/api/rice_diseases/${id}`, headers: { cookie: authorCookie } })).json() as {
        version: number;
      };
      // Each edit takes 5 photos out and moves the last photo first.
      kept = kept.slice(0, -5);
      kept = [kept[kept.length - 1]!, ...kept.slice(0, -1)];
      let changeId = '';
      submitMs.push(
        await timed(async () => {
          const res = await app.inject({
            method: 'PUT',
            url: `/api/rice_diseases/${id}`,
            headers: { cookie: authorCookie },
            payload: {
              name: 'Rice blast (bench)',
              scientificName: 'Magnaporthe oryzae',
              localName: '',
              description: '',
              cause: '',
              symptoms: '',
              treatments: `Treatment ${p}`,
              affectedParts: [],
              imageIds: kept,
              version,
            },
          });
          changeId = (res.json() as { review: { id: string } }).review.id;
          return res;
        }, 202),
      );
      publishMs.push(
        await timed(() =>
          app.inject({
            method: 'POST',
            url: `/api/review/changes/${changeId}/approve`,
            headers: { cookie: reviewerCookie },
            payload: { version: 1 },
          }),
        ),
      );
    }
    const after = (await app.inject({ url: `/api/rice_diseases/${id}`, headers: { cookie: authorCookie } })).json() as {
      treatments: string;
      images: unknown[];
    };
    if (after.treatments !== `Treatment ${PUBLISHES}`) throw new Error(`the last publish did not land: ${after.treatments}`);
    return {
      engine,
      photos: after.images.length,
      firstPage: { p50: percentile(firstPage, 50), p99: percentile(firstPage, 99) },
      filtered: { p50: percentile(filtered, 50), p99: percentile(filtered, 99) },
      count: { p50: percentile(counts, 50), p99: percentile(counts, 99) },
      submit: { median: median(submitMs), max: Math.max(...submitMs) },
      publish: { median: median(publishMs), max: Math.max(...publishMs) },
    };
  } finally {
    await app.close();
    await target.drop();
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
for (const engine of ENGINES) {
  const r = await runEngine(engine);
  console.log(`\n${engine}: ${PENDING} open changes; a disease with ${PHOTOS} photos (now ${r.photos})`);
  console.log(`  Review queue, first page         p50 ${fmt(r.firstPage.p50)}   p99 ${fmt(r.firstPage.p99)}   (budget p99 ≤ 100 ms)`);
  console.log(`  … waiting, diseases only         p50 ${fmt(r.filtered.p50)}   p99 ${fmt(r.filtered.p99)}`);
  console.log(`  sidebar count                    p50 ${fmt(r.count.p50)}   p99 ${fmt(r.count.p99)}`);
  console.log(`  send a ${PHOTOS}-photo edit for review  median ${fmt(r.submit.median)}   max ${fmt(r.submit.max)}`);
  console.log(`  approve and publish it           median ${fmt(r.publish.median)}   max ${fmt(r.publish.max)}   (budget ≤ 2 s)`);
}
