/**
 * npm run bench:scan-reports — the scanner loop at volume.
 *
 * For each engine (SQLite in a temp folder; PostgreSQL in a throw-away schema of --pg), a fresh
 * database gets 12 diseases and --reports stored scan reports (default 1,000,000, spread over
 * the last two years, 19 places, with their daily and weekly counts as the server keeps them). Then one
 * real server process (build/, as `npm start` runs it) is started on it, and:
 *   - the dashboard's queries are timed in process (the service's calls, no HTTP), then over
 *     HTTP with a signed-in session, one after another:
 *     GET /api/dashboard/detections, the same filtered by one disease, and the CSV export
 *     (--calls each, after a warm-up): p50 / p99 ms;
 *   - --installs installs register (POST /api/public/v1/installs), as phones do on first start;
 *   - POST /api/public/v1/scan-reports is driven by autocannon (--connections, --seconds, --runs;
 *     every request a new reportId from the next install in turn, with its token, 12 labels x 6
 *     municipalities), and the reports accepted per second (checked against the table's row
 *     count) are printed per run with the median. Every report is counted against its install's,
 *     its address's and the deployment's limits as in production; the per-install limit keeps
 *     its default, while the per-address and deployment limits and the registration limit are
 *     lifted (the bench is one client address pushing past the default ceiling on purpose).
 * Options: --engines sqlite,postgres  --pg URL (default postgres://postgres@127.0.0.1:5432/test)
 *          --reports N  --calls N (default 200)  --seconds N (default 10)  --runs N (default 3)
 *          --connections N (default 16)  --installs N (default 20000)
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { TARLAC_MUNICIPALITIES } from '../common/scan-reports.js';
import { DISEASES, seedScanReports, slug } from './scan-reports-data.js';
import { benchDatabase, benchLogin, median, option, percentile, benchEngines, benchPgUrl, startBuiltServer } from './support.js';

const ENGINES = benchEngines();
const PG = benchPgUrl();
const REPORTS = Number(option('reports', '1000000'));
const CALLS = Number(option('calls', '200'));
const SECONDS = Number(option('seconds', '10'));
const RUNS = Number(option('runs', '3'));
const CONNECTIONS = Number(option('connections', '16'));
const INSTALLS = Number(option('installs', '20000'));
const USER = { username: 'bench_admin', password: 'Bench#Pass1' };

/** Seeds a fresh database in this process, then times the dashboard's queries there (no HTTP). */
async function seedAndTimeService(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/identity/accounts/create-account.js');
  const { app, ctx } = await buildApp(
    loadConfig({}, { dataDir, databaseUrl, logLevel: 'silent', eventChannel: `bench_${path.basename(dataDir).replace(/\W/g, '')}` }),
    { logger: false },
  );
  try {
    await createAccount(ctx.db, { ...USER, fullname: 'Bench Admin', email: 'bench@example.test', role: 'ADMIN' }, null);
    await seedScanReports(ctx.db, REPORTS, Boolean(databaseUrl));
    // The queries alone: the service's calls in this process, no HTTP.
    const { createScanReportsService } = await import('../server/modules/farmer-app/scan-reports/service.js');
    const service = createScanReportsService(ctx);
    try {
      console.log(`  dashboard queries in process (service calls, ${CALLS} each):`);
      for (const [name, fn] of [
        ['detections (all diseases)', () => service.detections(undefined)],
        ['detections (one disease)', () => service.detections('d3')],
        ['detections CSV', () => service.detectionsCsv(undefined)],
      ] as const) {
        const t = await timeCalls(fn as () => Promise<unknown>);
        console.log(`    ${name.padEnd(28)} p50 ${t.p50.toFixed(1)} ms  p99 ${t.p99.toFixed(1)} ms`);
      }
    } finally {
      service.close();
    }
  } finally {
    await app.close();
  }
}

async function timeCalls(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i += 1) await fn();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function timeQuery(url: string, cookie: string): Promise<{ p50: number; p99: number }> {
  const once = async () => {
    const res = await fetch(url, { headers: { cookie } });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    await res.arrayBuffer();
  };
  for (let i = 0; i < 10; i += 1) await once();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const t0 = performance.now();
    await once();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Registers `n` installs, as that many phones would on first start; their tokens. */
async function registerInstalls(url: string, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i += 100) {
    tokens.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, async () => {
          const res = await fetch(`${url}/api/public/v1/installs`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          if (res.status !== 201) throw new Error(`registering an install: ${res.status}`);
          return ((await res.json()) as { installToken: string }).installToken;
        }),
      )),
    );
  }
  return tokens;
}

/** Reports from the registered installs in turn, each a new reportId, 12 labels x 6 municipalities. */
function ingest(url: string, seconds: number, tokens: string[]): Promise<autocannon.Result> {
  const scannedAt = new Date().toISOString();
  let next = 0;
  const requests = [
    {
      method: 'POST' as const,
      path: '/api/public/v1/scan-reports',
      setupRequest: (req: autocannon.Request) => {
        const i = next++;
        const d = DISEASES[i % DISEASES.length]!;
        return {
          ...req,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]}` },
          body: JSON.stringify({
            reportId: randomUUID(),
            label: slug(d),
            confidence: 0.9,
            modelVersion: 'scanner-2026.1',
            scannedAt,
            municipality: TARLAC_MUNICIPALITIES[i % 6],
            barangay: 'Poblacion',
          }),
        };
      },
    },
  ];
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, requests }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function rowCount(engine: 'sqlite' | 'postgres', dataDir: string, databaseUrl: string | undefined): Promise<number> {
  if (engine === 'postgres') {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const { rows } = await c.query('select count(*)::int as n from scan_reports');
    await c.end();
    return rows[0].n as number;
  }
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'palayan.sqlite'), { readonly: true });
  const n = (db.prepare('select count(*) as n from scan_reports').get() as { n: number }).n;
  db.close();
  return n;
}

async function bench(engine: 'sqlite' | 'postgres'): Promise<void> {
  console.log(`\n== ${engine} ==`);
  const target = await benchDatabase(engine, PG, 'palayan-bench-scan-');
  const { dataDir, databaseUrl } = target;
  let server: { url: string; child: ChildProcess } | undefined;
  try {
    await seedAndTimeService(dataDir, databaseUrl);
    server = await startBuiltServer({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      SCAN_REPORTS_PER_IP_PER_MINUTE: '1000000000',
      SCAN_REPORTS_PER_MINUTE: '1000000000',
      INSTALL_REGISTRATIONS_PER_IP_PER_HOUR: '1000000000',
      INSTANCE_ID: 'bench',
      EVENT_CHANNEL: `bench_${path.basename(dataDir).replace(/\W/g, '')}_server`,
    });
    const cookie = await benchLogin(server.url, USER);
    const queries = {
      'detections (all diseases)': `${server.url}/api/dashboard/detections`,
      'detections (one disease)': `${server.url}/api/dashboard/detections?diseaseId=d3`,
      'detections CSV': `${server.url}/api/dashboard/detections.csv`,
    };
    console.log(`  dashboard at ${REPORTS.toLocaleString('en')} stored reports (${CALLS} calls each, HTTP round trip):`);
    for (const [name, url] of Object.entries(queries)) {
      const t = await timeQuery(url, cookie);
      console.log(`    ${name.padEnd(28)} p50 ${t.p50.toFixed(1)} ms  p99 ${t.p99.toFixed(1)} ms`);
    }
    const t0 = performance.now();
    const tokens = await registerInstalls(server.url, INSTALLS);
    console.log(`  registered ${INSTALLS.toLocaleString('en')} installs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await ingest(server.url, 2, tokens); // warm-up
    const perRun: number[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const before = await rowCount(engine, dataDir, databaseUrl);
      const r = await ingest(server.url, SECONDS, tokens);
      const after = await rowCount(engine, dataDir, databaseUrl);
      const accepted = after - before;
      const perSecond = accepted / SECONDS;
      perRun.push(perSecond);
      console.log(
        `    run ${run}: ${accepted} reports accepted in ${SECONDS} s = ${perSecond.toFixed(0)} reports/s (2xx ${r['2xx']}, non-2xx ${r.non2xx}, errors ${r.errors}, p50 latency ${r.latency.p50} ms, p99 ${r.latency.p99} ms)`,
      );
    }
    console.log(`  sustained ingest (${CONNECTIONS} connections): median ${median(perRun).toFixed(0)} reports/s`);
    const t = await timeQuery(queries['detections (all diseases)'], cookie);
    console.log(`  after ingest: detections (all diseases) p50 ${t.p50.toFixed(1)} ms  p99 ${t.p99.toFixed(1)} ms`);
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      await new Promise((r) => server!.child.once('exit', r));
    }
    await target.drop();
  }
}

console.log(
  `scan reports bench: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const engine of ENGINES) await bench(engine);
