/**
 * npm run bench:spreadsheets — the variety import and export at the size of a department's list.
 *
 * For each engine, --runs times, a fresh database holds --existing realistic varieties; a
 * --rows XLSX is made from the same generator: a fifth of its rows update existing varieties
 * (one field changed), one row in a hundred has an error, the rest are new. Through the real
 * routes (buildApp, app.inject: multipart parsing, the temporary file, the reader, the checks):
 * - dry run: POST /api/varieties/import/preview;
 * - import:  POST /api/varieties/import, rows with errors left out;
 * - export:  GET /api/varieties/export?format=xlsx and csv, after the import.
 * Then a --big-row CSV dry run, for the process's memory: resident and heap growth over the
 * run, against the file's size. Prints each run and the medians.
 *
 * Options: --engines sqlite,postgres  --pg URL  --rows 5000  --existing 1000  --runs 3  --big 10000
 */
import { randomBytes } from 'node:crypto';
import writeXlsxFile from 'write-excel-file/node';
import { csvRow } from '../common/csv.js';
import { LIST_SEPARATOR, VARIETY_COLUMNS } from '../common/spreadsheets.js';
import { VARIETY_LABELS } from '../common/varieties.js';
import { benchDatabase, median, option, benchEngines, benchPgUrl } from './support.js';
import { realisticVariety } from './variety-data.js';

const PG = benchPgUrl();
const ENGINES = benchEngines();
const ROWS = Number(option('rows', '5000'));
const EXISTING = Number(option('existing', '1000'));
const RUNS = Number(option('runs', '3'));
const BIG = Number(option('big', '10000'));
const USER = { username: 'bench_admin', password: 'Bench#Pass1', fullname: 'Bench Admin' };

type Cell = string | number;

/** Row i of the file: an update of existing variety i (its location changed), a new one, or one in a hundred with an error. */
function fileRow(i: number): Cell[] {
  const v = realisticVariety(i, new Date().toISOString());
  const values: Record<string, Cell | null> = {
    ...v,
    season: (JSON.parse(v.season) as string[]).join(LIST_SEPARATOR),
    environment: (JSON.parse(v.environment) as string[]).join(LIST_SEPARATOR),
    recommendedInTarlac: v.recommendedInTarlac ? 'Yes' : 'No',
    location: i < ROWS / 5 ? `${v.location} (revised)` : v.location,
  };
  if (i % 100 === 57) values.maturityDays = 'about 110';
  return VARIETY_COLUMNS.map((f) => values[f] ?? '');
}

function multipart(fileName: string, content: Buffer, fields: Record<string, string>) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function runOnce(engine: 'sqlite' | 'postgres', xlsx: Buffer, bigCsv: Buffer | null) {
  const target = await benchDatabase(engine, PG, 'palayan-bench-sheets-');
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/identity/accounts/create-account.js');
  const { varietiesRepository } = await import('../server/modules/content/varieties/repository.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent' }), {
    logger: false,
  });
  try {
    await createAccount(ctx.db, { ...USER, role: 'ADMIN' }, null);
    const base = Date.parse('2024-01-01T00:00:00Z');
    const seeded = Array.from({ length: EXISTING }, (_, i) => ({
      ...realisticVariety(i, new Date(base + i * 60_000).toISOString()),
      isDeleted: 0,
    }));
    await varietiesRepository.insertMany(ctx.db, seeded);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: USER.username, password: USER.password },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const post = (url: string, content: Buffer, name: string, fields: Record<string, string> = {}) => {
      const body = multipart(name, content, fields);
      return app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, cookie } });
    };
    const dry = await timed(() => post('/api/varieties/import/preview', xlsx, 'list.xlsx'));
    const counts = dry.value.json().counts as Record<string, number>;
    const imported = await timed(() => post('/api/varieties/import', xlsx, 'list.xlsx', { onErrors: 'skip' }));
    if (imported.value.statusCode !== 200) throw new Error(imported.value.body);
    const exportXlsx = await timed(() => app.inject({ method: 'GET', url: '/api/varieties/export?format=xlsx', headers: { cookie } }));
    const exportCsv = await timed(() => app.inject({ method: 'GET', url: '/api/varieties/export?format=csv', headers: { cookie } }));
    let memory: { rssMb: number; heapMb: number; ms: number } | null = null;
    if (bigCsv) {
      global.gc?.();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      }, 5);
      const big = await timed(() => post('/api/varieties/import/preview', bigCsv, 'big.csv'));
      clearInterval(sampler);
      memory = { rssMb: (peakRss - before.rss) / 1048576, heapMb: (peakHeap - before.heapUsed) / 1048576, ms: big.ms };
    }
    return {
      dryMs: dry.ms,
      importMs: imported.ms,
      exportXlsxMs: exportXlsx.ms,
      exportCsvMs: exportCsv.ms,
      counts,
      report: imported.value.json(),
      memory,
    };
  } finally {
    await app.close();
    await target.drop();
  }
}

async function main() {
  const header = VARIETY_COLUMNS.map((f) => VARIETY_LABELS[f]);
  const rows = Array.from({ length: ROWS }, (_, i) => fileRow(i));
  const xlsx = await writeXlsxFile([header, ...rows].map((r) => r.map((value) => ({ value })))).toBuffer();
  const bigCsv = Buffer.from([header, ...Array.from({ length: BIG }, (_, i) => fileRow(i))].map((r) => csvRow(r)).join('\r\n'));
  console.log(
    `XLSX of ${ROWS} rows: ${(xlsx.length / 1024).toFixed(0)} KB; ${EXISTING} varieties already there; CSV of ${BIG} rows: ${(bigCsv.length / 1048576).toFixed(1)} MB`,
  );
  for (const engine of ENGINES) {
    const runs: Array<Awaited<ReturnType<typeof runOnce>>> = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const r = await runOnce(engine, xlsx, run === RUNS ? bigCsv : null);
      runs.push(r);
      console.log(
        `${engine} run ${run}: dry run ${r.dryMs.toFixed(0)} ms ${JSON.stringify(r.counts)}; import ${r.importMs.toFixed(0)} ms ${JSON.stringify(r.report)}; export xlsx ${r.exportXlsxMs.toFixed(0)} ms, csv ${r.exportCsvMs.toFixed(0)} ms`,
      );
      if (r.memory)
        console.log(
          `${engine}: dry run of the ${BIG}-row CSV ${r.memory.ms.toFixed(0)} ms; growth while it ran: resident ${r.memory.rssMb.toFixed(0)} MB, heap ${r.memory.heapMb.toFixed(0)} MB`,
        );
    }
    const m = (pick: (r: (typeof runs)[number]) => number) => median(runs.map(pick)).toFixed(0);
    console.log(
      `${engine} medians of ${RUNS}: dry run ${m((r) => r.dryMs)} ms (target ≤ 3000), import ${m((r) => r.importMs)} ms (target ≤ 10000), export xlsx ${m((r) => r.exportXlsxMs)} ms, csv ${m((r) => r.exportCsvMs)} ms`,
    );
  }
}

await main();
