/**
 * npm run bench:versions — the Versions panel of a disease with 2000 photos and 50 versions.
 *
 * On each engine (--engines sqlite,postgres) a disease is stored with --photos photo rows, gets
 * its first version from the start-up backfill, then --edits saves through PUT (each changes
 * the treatments and takes 5 photos out). Then, through the real routes (app.inject):
 *   - the Versions list's first page, --requests times: p50 and p99;
 *   - comparing version 1 with the newest (all its photo changes), --requests times: p50, p99;
 *   - restoring version 1 (every photo back in order) --restores times: median and max;
 *   - storage: the versions' rows and bytes, and the photo rows before and after (no copies).
 *
 * Options: --photos 2000  --edits 49  --requests 200  --restores 3  --engines sqlite,postgres
 */
import { benchDatabase, median, option, percentile, benchEngines, benchPgUrl, storeBenchDisease } from './support.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const PHOTOS = Number(option('photos', '2000'));
const EDITS = Number(option('edits', '49'));
const REQUESTS = Number(option('requests', '200'));
const RESTORES = Number(option('restores', '3'));
const USER = { username: 'bench_admin', password: 'Bench#Pass1', fullname: 'Bench Admin' };

async function timed(work: () => Promise<{ statusCode: number; body: string }>): Promise<number> {
  const started = performance.now();
  const res = await work();
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
  return ms;
}

async function runEngine(engine: 'sqlite' | 'postgres') {
  const target = await benchDatabase(engine, PG, 'palayan-bench-versions-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/identity/accounts/create-account.js');
  const { backfillFirstVersions } = await import('../server/modules/publishing/versions/current.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent' }), {
    logger: false,
  });
  try {
    await createAccount(ctx.db, { ...USER, role: 'ADMIN' }, null);
    const id = 'bench-disease';
    const photoIds = await storeBenchDisease(ctx.db, id, PHOTOS);
    await backfillFirstVersions(ctx);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: USER.username, password: USER.password },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const base = `/api/rice_diseases/${id}`;
    const detail = async () =>
      (await app.inject({ url: base, headers: { cookie } })).json() as { version: number; images: Array<{ id: string }> };

    let kept = photoIds;
    const editMs: number[] = [];
    for (let e = 1; e <= EDITS; e += 1) {
      const { version } = await detail();
      kept = kept.filter((_, i) => i % Math.floor(kept.length / 5) !== 1 || i > kept.length - 2);
      kept = kept.slice(0, Math.max(1, photoIds.length - 5 * e));
      editMs.push(
        await timed(() =>
          app.inject({
            method: 'PUT',
            url: base,
            headers: { cookie },
            payload: {
              name: 'Rice blast (bench)',
              scientificName: 'Magnaporthe oryzae',
              localName: '',
              description: '',
              cause: '',
              symptoms: '',
              treatments: `Treatment ${e}`,
              affectedParts: [],
              imageIds: kept,
              version,
            },
          }),
        ),
      );
    }
    const listMs: number[] = [];
    for (let r = 0; r < REQUESTS; r += 1) listMs.push(await timed(() => app.inject({ url: `${base}/versions`, headers: { cookie } })));
    const latest = (await app.inject({ url: `${base}/versions`, headers: { cookie } })).json() as {
      items: Array<{ number: number }>;
      recordVersion: number;
    };
    const newest = latest.items[0]!.number;
    const compareMs: number[] = [];
    let compared: { photos: { added: { total: number }; removed: { total: number } } } | null = null;
    for (let r = 0; r < REQUESTS; r += 1) {
      compareMs.push(
        await timed(async () => {
          const res = await app.inject({ url: `${base}/versions/compare?from=1&to=${newest}`, headers: { cookie } });
          compared = res.json();
          return res;
        }),
      );
    }
    const photoRowsBefore = Number(
      (
        await ctx.db
          .selectFrom('catalog_images')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const restoreMs: number[] = [];
    for (let r = 0; r < RESTORES; r += 1) {
      const { version } = await detail();
      // Alternately version 1 (every photo back) and the newest edit (245 out again).
      restoreMs.push(
        await timed(() =>
          app.inject({
            method: 'POST',
            url: `${base}/versions/${r % 2 === 0 ? 1 : newest}/restore`,
            headers: { cookie },
            payload: { version },
          }),
        ),
      );
    }
    const back = await detail();
    const photoRowsAfter = Number(
      (
        await ctx.db
          .selectFrom('catalog_images')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const rows = await ctx.db.selectFrom('record_versions').select(['snapshot', 'summary']).where('documentId', '=', id).execute();
    const bytes = rows.reduce((sum, r) => sum + r.snapshot.length + r.summary.length, 0);
    return {
      engine,
      versions: rows.length,
      photosNow: back.images.length,
      editMedianMs: median(editMs),
      list: { p50: percentile(listMs, 50), p99: percentile(listMs, 99) },
      compare: {
        p50: percentile(compareMs, 50),
        p99: percentile(compareMs, 99),
        added: compared!.photos.added.total,
        removed: compared!.photos.removed.total,
      },
      restore: { median: median(restoreMs), max: Math.max(...restoreMs) },
      storage: { versionBytes: bytes, perVersionKb: bytes / rows.length / 1024, photoRowsBefore, photoRowsAfter },
    };
  } finally {
    await app.close();
    await target.drop();
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
for (const engine of ENGINES) {
  const r = await runEngine(engine);
  console.log(`\n${engine}: a disease with ${PHOTOS} photos, ${r.versions} versions (now ${r.photosNow} photos)`);
  console.log(`  edit (PUT, ${PHOTOS} image ids)      median ${fmt(r.editMedianMs)}`);
  console.log(`  Versions list, first page       p50 ${fmt(r.list.p50)}   p99 ${fmt(r.list.p99)}   (budget p99 ≤ 100 ms)`);
  console.log(
    `  compare v1 with the newest      p50 ${fmt(r.compare.p50)}   p99 ${fmt(r.compare.p99)}   (budget p99 ≤ 200 ms; ${r.compare.removed} photos removed, ${r.compare.added} added)`,
  );
  console.log(`  restore                         median ${fmt(r.restore.median)}   max ${fmt(r.restore.max)}   (budget ≤ 2 s)`);
  console.log(
    `  storage: ${(r.storage.versionBytes / 1024).toFixed(0)} KB of version rows (${r.storage.perVersionKb.toFixed(1)} KB each); photo rows ${r.storage.photoRowsBefore} before restores, ${r.storage.photoRowsAfter} after (no copies)`,
  );
}
