/**
 * npm run bench:varieties — the rice variety search under load.
 *
 * For each engine (SQLite in a temp folder; PostgreSQL in a throw-away schema of --pg) and each
 * row count, one database is seeded with realistic varieties (2% of them deleted). Then every
 * scenario runs in a fresh server process (buildApp + listen on 127.0.0.1), alternated --runs
 * times, driven with autocannon after a warm-up while a writer saves one variety every 500 ms
 * through the API (each save drops the cached results it can change, as real use would):
 * - cached:   a repeated mix of searches and pages (pathFor), the server as shipped;
 * - nocache:  the same mix with the result cache off (VARIETY_SEARCH_CACHE_SIZE=0);
 * - distinct: a new search text on every request (distinctSearches), the cache off;
 * - browse:   the list sorted and filtered, a new combination on every request (browsePaths), the
 *   server as shipped (a count per search and filters serves their other sorts and pages);
 * - browsebare: the same with the cache off.
 * Each run prints req/s, latency p50/p99, the server's CPU per request (for PostgreSQL also the
 * whole machine's, which includes the database's work) and the server's resident memory after
 * the run (its own memory with the V8 heap's share, and the mapped pages of files); then the
 * medians of the runs.
 *
 * Options: --engines sqlite,postgres  --pg URL (default postgres://postgres@127.0.0.1:5432/test)
 * --rows 5000,100000  --scenarios cached,nocache,distinct,browse,browsebare  --runs 3  --seconds 10  --warmup 3
 * --connections 16  --no-writes  --profile DIR (CPU profiles of the server processes)
 * --read-workers N (SQLITE_READ_WORKERS of the servers, threads that run the searches on SQLite; else its default)
 * --read-connections N (POSTGRES_READ_CONNECTIONS of the servers, connections of their prepared reads; else its default)
 * --translated SHARE (that share of the varieties gets a Filipino location, which their search
 * text takes in as a translation save does) --filipino-searches (one search in eight is then a
 * Filipino place: without it, the same searches as an untranslated run).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../server/db/types.js';
import { browsePaths, distinctSearches, FILIPINO_SEARCHES, filipinoPlace, pathFor, realisticVariety } from './variety-data.js';
import { benchDatabase, cpuSeconds, machineCpu, median, option, rssMb, rssParts, benchEngines, benchPgUrl } from './support.js';

const args = process.argv.slice(2);
const PG = benchPgUrl();
const ENGINES: Engine[] = benchEngines();
const ROWS = option('rows', '5000,100000').split(',').map(Number);
const SCENARIOS = option('scenarios', 'cached,nocache,distinct').split(',') as Scenario[];
const RUNS = Number(option('runs', '3'));
const SECONDS = Number(option('seconds', '10'));
const WARMUP = Number(option('warmup', '3'));
const CONNECTIONS = Number(option('connections', '16'));
const READ_WORKERS = option('read-workers', '');
const READ_CONNECTIONS = option('read-connections', '');
// The server processes are told through their environment (their arguments are the target's).
const TRANSLATED = Number(process.env.BENCH_TRANSLATED ?? option('translated', '0'));
const withFilipino = (pathOf: (n: number) => string) =>
  TRANSLATED > 0 && args.includes('--filipino-searches')
    ? (n: number) =>
        n % 8 === 7
          ? `/api/varieties?search=${encodeURIComponent(FILIPINO_SEARCHES[(n >> 3) % FILIPINO_SEARCHES.length]!)}&page=1`
          : pathOf(n)
    : pathOf;
const USER = { username: 'bench_admin', password: 'Bench#Pass1', fullname: 'Bench Admin' };

type Engine = 'sqlite' | 'postgres';
type Scenario = 'cached' | 'nocache' | 'distinct' | 'browse' | 'browsebare';
interface Target {
  dataDir: string;
  databaseUrl: string | undefined;
  rows: number;
}
interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  serverCpuMs: number;
  machineCpuMs: number;
  rssMb: number;
  rssAnonMb: number;
  rssFileMb: number;
  heapMb: number;
  saves: number;
}

/**
 * The server as `npm start` runs it: the build (scripts/build-server.mjs, brought up to date
 * before the runs), not the sources through tsx, which the search's reader threads would also
 * have to load and which cost them more than the build does.
 */
const built = <M>(file: string): Promise<M> => import(new URL(`../build/server/${file}`, import.meta.url).href) as Promise<M>;

/** Filipino locations for a share of the varieties, in their search text as a translation save puts them. */
async function translateLocations(db: Kysely<Database>, rows: Array<{ id: string; location: string | null }>): Promise<void> {
  const now = new Date().toISOString();
  const chosen = rows.filter((r, i) => r.location && ((i * 7919) % 100) / 100 < TRANSLATED);
  for (let i = 0; i < chosen.length; i += 500) {
    await db
      .insertInto('translations')
      .values(
        chosen.slice(i, i + 500).map((r) => ({
          collection: 'rice_seed_varieties',
          recordId: r.id,
          field: 'location',
          lang: 'fil',
          text: filipinoPlace(r.location!),
          sourceText: r.location!,
          sourceHash: 'bench',
          updatedAt: now,
          updatedBy: null,
        })),
      )
      .execute();
  }
  await sql`update rice_seed_varieties set "searchText" = "searchText" || ${'\n'} || lower(t.text)
    from translations t where t.collection = 'rice_seed_varieties' and t."recordId" = rice_seed_varieties.id and t.lang = 'fil' and t.field = 'location'`.execute(
    db,
  );
  console.log(`  translated the location of ${chosen.length.toLocaleString('en')} varieties`);
}

/** Child process: a real server on the target database, seeding it first when asked. */
async function serve(target: Target, seed: boolean): Promise<void> {
  const { loadConfig } = await built<typeof import('../server/config.js')>('config.js');
  const { buildApp } = await built<typeof import('../server/app.js')>('app.js');
  const config = loadConfig(
    { SQLITE_READ_WORKERS: process.env.SQLITE_READ_WORKERS, POSTGRES_READ_CONNECTIONS: process.env.POSTGRES_READ_CONNECTIONS },
    { dataDir: target.dataDir, databaseUrl: target.databaseUrl, logLevel: 'silent', loginRateLimitPerMinute: 1000 },
  );
  const { app, ctx } = await buildApp(config, { logger: false });
  let seedMs = 0;
  if (seed) {
    const { createAccount } = await built<typeof import('../server/modules/identity/accounts/create-account.js')>(
      'modules/identity/accounts/create-account.js',
    );
    const { varietiesRepository } = await built<typeof import('../server/modules/content/varieties/repository.js')>(
      'modules/content/varieties/repository.js',
    );
    const { tidyVarietySearch } = await built<typeof import('../server/db/variety-search.js')>('db/variety-search.js');
    await createAccount(ctx.db, { ...USER, role: 'ADMIN' }, null);
    const started = performance.now();
    const base = Date.parse('2024-01-01T00:00:00Z');
    const rows = Array.from({ length: target.rows }, (_, i) => realisticVariety(i, new Date(base + i * 60_000).toISOString()));
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) await varietiesRepository.insertMany(trx, rows.slice(i, i + 500));
    });
    if (TRANSLATED > 0) await translateLocations(ctx.db, rows);
    seedMs = performance.now() - started;
    // A settled database, as a deployment's is after its daily upkeep: otherwise autovacuum
    // works through the fresh rows during the runs (its CPU counted against the searches), and
    // SQLite's search index is in the many pieces a bulk load leaves.
    if (target.databaseUrl) await sql`vacuum analyze`.execute(ctx.db);
    else if (TRANSLATED > 0)
      await (await built<typeof import('../server/db/variety-search.js')>('db/variety-search.js')).rebuildVarietySearchOrder(ctx.db);
    else await tidyVarietySearch(ctx.db);
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0, seedMs });
  process.on('message', async (msg) => {
    if (msg === 'heap') process.send?.({ heapMb: process.memoryUsage().heapUsed / 1024 / 1024 });
    if (msg === 'stop') {
      await app.close();
      process.exit(0);
    }
  });
}

interface Server {
  url: string;
  seedMs: number;
  child: ChildProcess;
  heapMb(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(target: Target, seed: boolean, env: Record<string, string>): Promise<Server> {
  const profile = option('profile', '');
  const execArgv = profile ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profile}`] : process.execArgv;
  const child = fork(import.meta.filename, ['--serve', JSON.stringify(target), seed ? 'seed' : ''], {
    env: { ...process.env, ...env, BENCH_TRANSLATED: String(TRANSLATED) },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await new Promise<{ port: number; seedMs: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; seedMs: number }));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${info.port}`,
    seedMs: info.seedMs,
    child,
    heapMb: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { heapMb: number }).heapMb));
        child.send('heap');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: USER.username, password: USER.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('palayan_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

/** Saves one variety every 500 ms through the API (a real write: audit entry, cache invalidation). */
function startWriter(base: string, cookie: string, rows: number): { stop(): Promise<number> } {
  let running = true;
  let saves = 0;
  const loop = (async () => {
    let i = 0;
    while (running) {
      const id = `bench-${String((i * 7919) % Math.round(rows * 0.9)).padStart(6, '0')}`;
      i += 1;
      const current = await fetch(`${base}/api/varieties/${id}`, { headers: { cookie } });
      if (current.ok) {
        const v = (await current.json()) as Record<string, unknown>;
        const body = {
          ...v,
          maturityDays: 100 + (i % 30),
          averageYield: v.averageYield ?? 5,
          maxYield: v.maxYield ?? 8,
          breedingCode: v.breedingCode ?? 'PR1',
          season: (v.season as string[]).length ? v.season : ['Dry'],
          environment: (v.environment as string[]).length ? v.environment : ['Upperland'],
        };
        const res = await fetch(`${base}/api/varieties/${id}`, {
          method: 'PUT',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.ok) saves += 1;
        else if (res.status !== 409 && res.status !== 404) console.error(`write failed: ${res.status} ${await res.text()}`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return saves;
    },
  };
}

function drive(base: string, cookie: string, seconds: number, pathOf: (n: number) => string): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf(n++) }) }],
  });
}

async function runScenario(target: Target, scenario: Scenario, run: number, seed: boolean): Promise<Run> {
  const env = {
    ...(READ_WORKERS ? { SQLITE_READ_WORKERS: READ_WORKERS } : {}),
    ...(READ_CONNECTIONS ? { POSTGRES_READ_CONNECTIONS: READ_CONNECTIONS } : {}),
    ...(scenario === 'cached' || scenario === 'browse' ? {} : { VARIETY_SEARCH_CACHE_SIZE: '0' }),
  };
  const server = await startServer(target, seed, env);
  if (seed) console.log(`  seeded ${target.rows.toLocaleString('en')} varieties in ${(server.seedMs / 1000).toFixed(1)} s`);
  try {
    const cookie = await login(server.url);
    const probe = await fetch(`${server.url}/api/varieties?search=tubigan&page=2`, { headers: { cookie } });
    const body = (await probe.json()) as { items: unknown[] };
    if (!probe.ok || body.items.length !== 20) throw new Error(`unexpected probe answer: ${probe.status}`);
    if (TRANSLATED > 0) {
      const filipino = (await (
        await fetch(`${server.url}/api/varieties?search=${encodeURIComponent('lungsod ng tarlac')}`, { headers: { cookie } })
      ).json()) as { items: unknown[] };
      if (filipino.items.length === 0) throw new Error('no variety found by its Filipino location');
    }
    // Each run meets other searches than the last (a new seed), the same on every engine.
    const paths = (seed: number) =>
      scenario === 'distinct' ? distinctSearches(target.rows, seed) : scenario.startsWith('browse') ? browsePaths(seed) : pathFor;
    const pathOf = withFilipino(paths(run + 1));
    await drive(server.url, cookie, WARMUP, withFilipino(paths(1000 + run)));
    const writer = args.includes('--no-writes') ? null : startWriter(server.url, cookie, target.rows);
    const cpuBefore = cpuSeconds(server.child.pid!);
    const machineBefore = machineCpu();
    const result = await drive(server.url, cookie, SECONDS, pathOf);
    const machineAfter = machineCpu();
    const serverCpuMs = (cpuSeconds(server.child.pid!) - cpuBefore) * 1000;
    const saves = writer ? await writer.stop() : 0;
    const total = Math.max(1, result.requests.total);
    // /proc/stat counts in clock ticks of 10 ms, summed over the cores.
    const machineCpuMs = (machineAfter.busy - machineBefore.busy) * 10;
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      serverCpuMs: serverCpuMs / total,
      machineCpuMs: machineCpuMs / total,
      rssMb: rssMb(server.child.pid!),
      rssAnonMb: rssParts(server.child.pid!).anon,
      rssFileMb: rssParts(server.child.pid!).file,
      heapMb: await server.heapMb(),
      saves,
    };
  } finally {
    await server.stop();
  }
}

function describe(r: Run): string {
  return `${Math.round(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  server cpu ${r.serverCpuMs.toFixed(3)} ms/req  machine cpu ${r.machineCpuMs.toFixed(3)} ms/req  rss ${Math.round(r.rssMb)} MB (own ${Math.round(r.rssAnonMb)}, V8 heap ${Math.round(r.heapMb)}; mapped files ${Math.round(r.rssFileMb)})  errors ${r.errors}  saves ${r.saves}`;
}

async function prepare(engine: Engine, rows: number): Promise<Target & { drop(): Promise<void> }> {
  return { ...(await benchDatabase(engine, PG, 'palayan-bench-varieties-')), rows };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url))], { stdio: 'inherit' });
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}; ${CONNECTIONS} connections, ${SECONDS} s runs, ${RUNS} runs alternated; SQLite read workers ${READ_WORKERS || 'as configured'}, PostgreSQL read connections ${READ_CONNECTIONS || 'as configured'}; translated locations ${TRANSLATED}`,
  );
  for (const engine of ENGINES) {
    for (const rows of ROWS) {
      console.log(`\n== ${engine}, ${rows.toLocaleString('en')} varieties ==`);
      const target = await prepare(engine, rows);
      try {
        const runs = new Map<Scenario, Run[]>(SCENARIOS.map((s) => [s, []]));
        for (let run = 0; run < RUNS; run += 1) {
          for (const scenario of SCENARIOS) {
            const r = await runScenario(target, scenario, run, run === 0 && scenario === SCENARIOS[0]);
            runs.get(scenario)!.push(r);
            console.log(`  ${scenario.padEnd(8)} run ${run + 1}: ${describe(r)}`);
          }
        }
        for (const [scenario, rs] of runs) {
          const m = (f: (r: Run) => number) => median(rs.map(f));
          console.log(
            `  ${scenario.padEnd(8)} median: ${Math.round(m((r) => r.rps))} req/s  p50 ${m((r) => r.p50)} ms  p99 ${m((r) => r.p99)} ms  server cpu ${m((r) => r.serverCpuMs).toFixed(3)} ms/req  machine cpu ${m((r) => r.machineCpuMs).toFixed(3)} ms/req  rss ${Math.round(m((r) => r.rssMb))} MB (own ${Math.round(m((r) => r.rssAnonMb))}, V8 heap ${Math.round(m((r) => r.heapMb))}; mapped files ${Math.round(m((r) => r.rssFileMb))})`,
          );
        }
      } finally {
        await target.drop();
      }
    }
  }
}

// Dispatch last, so every constant above is initialised.
if (args[0] === '--serve') await serve(JSON.parse(args[1]!) as Target, args[2] === 'seed');
else await main();
