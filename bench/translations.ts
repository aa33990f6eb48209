/**
 * npm run bench:translations — the translators' XLIFF import of 5,000 units in one go.
 *
 * On each engine (--engines sqlite,postgres), --rounds times, a fresh database holds --pests
 * pests (no photos) with their five translated fields in English. Their Filipino XLIFF 2.0 is
 * exported through GET /api/translations/export, every unit's target filled, and the file sent
 * to POST /api/translations/import through the real route (app.inject: multipart parsing, the
 * temporary file, the XLIFF reader, the checks, one transaction with a version and an audit
 * entry per record). Prints each round's import time, and the median against the budget (10 s).
 *
 * Options: --pests 1000  --rounds 5  --engines sqlite,postgres  --pg URL
 */
import { sheetUpload } from '../tests/fixtures/spreadsheets.js';
import { benchDatabase, benchEngines, benchPgUrl, median, option } from './support.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const PESTS = Number(option('pests', '1000'));
const ROUNDS = Number(option('rounds', '5'));
const BUDGET_MS = 10_000;
const USER = { username: 'bench_translator', password: 'Bench#Pass1', fullname: 'Bench Translator' };

/** Fills every unit's target in an exported XLIFF (targets after sources), as a translator's tool does. */
const fillTargets = (xml: string, text: (source: string) => string) =>
  xml.replace(
    /<source>([^<]*)<\/source>(\s*<target>[^<]*<\/target>)?/g,
    (_m, source: string) => `<source>${source}</source><target>${text(source)}</target>`,
  );

async function runRound(engine: 'sqlite' | 'postgres') {
  const target = await benchDatabase(engine, PG, 'palayan-bench-translations-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/identity/accounts/create-account.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent' }), {
    logger: false,
  });
  try {
    // A system admin: the option values' units (File Maintenance's) are imported too, not errors.
    await createAccount(ctx.db, { ...USER, role: 'SYSTEM_ADMIN' }, null);
    const now = new Date().toISOString();
    for (let i = 0; i < PESTS; i += 200) {
      await ctx.db
        .insertInto('rice_local_pests')
        .values(
          Array.from({ length: Math.min(200, PESTS - i) }, (_, k) => ({
            id: `bench-pest-${String(i + k).padStart(5, '0')}`,
            name: `Pest ${i + k}`,
            description: `Description ${i + k}`,
            cause: `Cause ${i + k}`,
            symptoms: `Symptoms ${i + k}`,
            treatments: `Treatments ${i + k}`,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: USER.username, password: USER.password },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const exported = await app.inject({ url: '/api/translations/export?lang=fil&format=xliff', headers: { cookie } });
    if (exported.statusCode !== 200) throw new Error(`export: ${exported.statusCode} ${exported.body.slice(0, 300)}`);
    const xml = fillTargets(exported.body, (s) => `${s} — isinalin`);
    const units = xml.match(/<unit /g)?.length ?? 0;
    const body = sheetUpload('palayan-fil.xlf', Buffer.from(xml, 'utf8'));

    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/translations/import?lang=fil',
      payload: body.payload,
      headers: { ...body.headers, cookie },
    });
    const ms = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const report = res.json() as { changed: number; unchanged: number; skipped: number };
    if (report.changed < PESTS * 5) throw new Error(`only ${report.changed} units changed: ${res.body.slice(0, 300)}`);
    return { ms, units, changed: report.changed, kb: body.payload.length / 1024 };
  } finally {
    await app.close();
    await target.drop();
  }
}

for (const engine of ENGINES) {
  console.log(`\n${engine}: ${PESTS} pests, their Filipino XLIFF with every target filled, imported in one request`);
  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const r = await runRound(engine);
    times.push(r.ms);
    console.log(`  round ${round}: import ${r.ms.toFixed(0)} ms   (${r.units} units in ${r.kb.toFixed(0)} KB, ${r.changed} changed)`);
  }
  const m = median(times);
  console.log(`  median of ${ROUNDS}: ${m.toFixed(0)} ms   (budget ≤ ${BUDGET_MS} ms: ${m <= BUDGET_MS ? 'pass' : 'FAIL'})`);
}
