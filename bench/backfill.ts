/**
 * npm run bench:backfill — the start-up backfill of first versions at scale.
 *
 * On each engine (--engines sqlite,postgres): --rows varieties written straight to the table
 * (as the Firebase import or a database from before versions leaves them, without versions),
 * then the backfill the server runs at start-up, timed twice: the first pass writes a version
 * for each; the second, every later start, finds nothing to write. The tables' statistics are
 * taken before the records are added, as a database in use has them when an import lands.
 *
 * Options: --rows 100000  --engines sqlite,postgres
 */
import { benchDatabase, benchEngines, benchPgUrl, option } from './support.js';
import { realisticVariety } from './variety-data.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const ROWS = Number(option('rows', '100000'));

async function runEngine(engine: 'sqlite' | 'postgres') {
  const target = await benchDatabase(engine, PG, 'palayan-bench-backfill-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { backfillFirstVersions } = await import('../server/modules/publishing/versions/current.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent' }), {
    logger: false,
  });
  try {
    const { sql } = await import('kysely');
    await sql`analyze`.execute(ctx.db);
    const now = new Date().toISOString();
    for (let i = 0; i < ROWS; i += 500) {
      await ctx.db
        .insertInto('rice_seed_varieties')
        .values(Array.from({ length: Math.min(500, ROWS - i) }, (_, k) => realisticVariety(i + k, now)))
        .execute();
    }
    const timed = async () => {
      const started = performance.now();
      const written = await backfillFirstVersions(ctx);
      return { written, s: (performance.now() - started) / 1000 };
    };
    const first = await timed();
    const again = await timed();
    console.log(
      `${engine}: ${ROWS.toLocaleString('en')} varieties without versions. First pass: ${first.written.toLocaleString('en')} versions in ${first.s.toFixed(1)} s; next start: ${again.written} written, ${again.s.toFixed(2)} s`,
    );
  } finally {
    await app.close();
    await target.drop();
  }
}

for (const engine of ENGINES) await runEngine(engine);
