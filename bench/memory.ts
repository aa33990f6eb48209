/**
 * npm run bench:memory — what the console's process holds, on the embedded database.
 *
 * Seeds --rows varieties (default 5,000) into a fresh SQLite data folder, then starts the
 * production bundle (build/server/main.js, as npm start does) through a small wrapper that
 * answers memory questions over IPC, and samples it every second through these phases:
 * - idle: 10 s after start;
 * - search: --seconds (default 60) of 16 clients searching a new text on every request, while
 *   a writer saves over one of the varieties every 500 ms (the data keeps its size);
 * - creates: --creates (default 5,000) varieties created through the API by 16 clients;
 * - soak: --soak-minutes (default 0) more of the search phase, for the RSS slope.
 * For each phase it prints RSS (median, max, last), what it is made of (the process's own
 * memory and mapped files), and V8's heap (used, total) and external memory; then the slope
 * of RSS over the soak in MB per 10 minutes.
 *
 * Options: --rows N --seconds N --creates N --soak-minutes N --env "NAME=value,NAME=value"
 * (settings of the server, e.g. SQLITE_READ_WORKERS=0) --node-options "..." (V8 flags; default those
 * npm start gives: --max-semi-space-size=2 --max-old-space-size=384).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { distinctSearches, realisticVariety } from './variety-data.js';
import { freePort, median, option, rssParts } from './support.js';

const ROWS = Number(option('rows', '5000'));
const SECONDS = Number(option('seconds', '60'));
const CREATES = Number(option('creates', '5000'));
const SOAK_MINUTES = Number(option('soak-minutes', '0'));
const EXTRA_ENV = Object.fromEntries(
  option('env', '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);
/** A memory cgroup (v1 or v2 folder) to run the server in, as a container would: --cgroup /sys/fs/cgroup/memory/x. */
const CGROUP = option('cgroup', '');
const NODE_OPTIONS = option('node-options', '--max-semi-space-size=2 --max-old-space-size=384');
const USER = { username: 'bench_memory', password: 'Bench#Memory1', fullname: 'Bench Memory', email: 'bench@memory.test' };
const root = path.resolve(import.meta.dirname, '..');

let saves = 0;

interface Sample {
  at: number;
  rss: number;
  anon: number;
  file: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

async function seed(dataDir: string): Promise<void> {
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { varietiesRepository } = await import('../server/modules/content/varieties/repository.js');
  const { tidyVarietySearch } = await import('../server/db/variety-search.js');
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir, logLevel: 'silent' }), { logger: false });
  const base = Date.parse('2024-01-01T00:00:00Z');
  const rows = Array.from({ length: ROWS }, (_, i) => realisticVariety(i, new Date(base + i * 60_000).toISOString()));
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await varietiesRepository.insertMany(trx, rows.slice(i, i + 500));
  });
  await tidyVarietySearch(ctx.db);
  await app.close();
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-memory-'));
  await seed(dataDir);
  const port = await freePort();
  const child = fork(path.join(root, 'bench/memory-server.mjs'), [], {
    cwd: root,
    env: {
      ...process.env,
      ...EXTRA_ENV,
      NODE_OPTIONS,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      INITIAL_ADMIN_USERNAME: USER.username,
      INITIAL_ADMIN_PASSWORD: USER.password,
      INITIAL_ADMIN_FULLNAME: USER.fullname,
      INITIAL_ADMIN_EMAIL: USER.email,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (CGROUP) fs.writeFileSync(path.join(CGROUP, 'cgroup.procs'), String(child.pid));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const heap = () =>
    new Promise<NodeJS.MemoryUsage>((resolve) => {
      child.once('message', (m) => resolve(m as NodeJS.MemoryUsage));
      child.send('memory');
    });
  const samples = new Map<string, Sample[]>();
  const started = Date.now();
  let phase = 'idle';
  const sampler = setInterval(() => {
    void heap().then((m) => {
      const parts = rssParts(child.pid!);
      const mb = (n: number) => n / 1048576;
      const list = samples.get(phase) ?? [];
      list.push({
        at: (Date.now() - started) / 1000,
        rss: parts.anon + parts.file,
        anon: parts.anon,
        file: parts.file,
        heapUsed: mb(m.heapUsed),
        heapTotal: mb(m.heapTotal),
        external: mb(m.external),
      });
      samples.set(phase, list);
    });
  }, 1000);

  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: USER.username, password: USER.password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('palayan_session='))!
    .split(';')[0]!;
  await new Promise((r) => setTimeout(r, 10_000));

  const searching = async (seconds: number) => {
    const next = distinctSearches(ROWS, seconds);
    let n = 0;
    let writing = true;
    // Saves over existing varieties, so the data stays the same size and a rise is the process's own.
    const writer = (async () => {
      for (let i = 0; writing; i += 1) {
        const id = `bench-${String((i * 7919) % ROWS).padStart(6, '0')}`;
        const current = await fetch(`${url}/api/varieties/${id}`, { headers: { cookie } });
        if (current.ok) {
          const v = (await current.json()) as Record<string, unknown>;
          const saved = await fetch(`${url}/api/varieties/${id}`, {
            method: 'PUT',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ ...realisticBody(`W${i}`), version: v.version }),
          });
          if (saved.ok) saves += 1;
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await autocannon({
      url,
      connections: 16,
      duration: seconds,
      headers: { cookie },
      requests: [{ setupRequest: (req) => ({ ...req, path: `/api/varieties?search=${encodeURIComponent(next(n++))}` }) }],
    });
    writing = false;
    await writer;
  };
  phase = 'search';
  await searching(SECONDS);
  phase = 'creates';
  let made = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (made < CREATES) {
        made += 1;
        await fetch(`${url}/api/varieties`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify(realisticBody(`C${made}`)),
        });
      }
    }),
  );
  if (SOAK_MINUTES > 0) {
    phase = 'soak';
    await searching(SOAK_MINUTES * 60);
  }
  phase = 'after';
  await new Promise((r) => setTimeout(r, 5000));
  if (process.argv.includes('--smaps')) {
    console.log(smapsSummary(child.pid!));
    await new Promise((r) => {
      child.once('message', r);
      child.send('gc');
    });
    await new Promise((r) => setTimeout(r, 1000));
    console.log(`after a full collection (needs --node-options --expose-gc):\n${smapsSummary(child.pid!)}`);
  }
  clearInterval(sampler);
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  report(samples);
  if (CGROUP) {
    const read = (name: string) =>
      fs.existsSync(path.join(CGROUP, name)) ? fs.readFileSync(path.join(CGROUP, name), 'utf8').trim() : 'n/a';
    const limit = read('memory.limit_in_bytes') !== 'n/a' ? read('memory.limit_in_bytes') : read('memory.max');
    const peak = read('memory.max_usage_in_bytes') !== 'n/a' ? read('memory.max_usage_in_bytes') : read('memory.peak');
    console.log(
      `cgroup ${CGROUP}: limit ${limit} bytes, peak ${peak} bytes (page cache included), limit hits ${read('memory.failcnt')}, OOM kills ${/oom_kill (\d+)/.exec(read('memory.oom_control'))?.[1] ?? read('memory.events')}; the server exited ${child.exitCode === 0 || child.signalCode === 'SIGTERM' ? 'normally' : `with ${child.exitCode ?? child.signalCode}`}`,
    );
  }
}

function realisticBody(tag: string): Record<string, unknown> {
  return {
    varietyName: `NSIC Rc M${tag}`,
    releaseName: `Memory ${tag}`,
    yearRelease: '2019',
    breedingCode: `PR-${tag}`,
    breederOrigin: 'PhilRice',
    maturityDays: 112,
    averageYield: 5.4,
    maxYield: 9.1,
    plantHeight: 101,
    tillers: 16,
    location: 'Province-wide',
    season: ['Dry'],
    plantingMethod: 'Transplanting',
    environment: ['Low Irrigated Land'],
    recommendedInTarlac: true,
  };
}

/** The process's largest resident anonymous mappings (where native memory sits: malloc arenas, V8 spaces). */
function smapsSummary(pid: number): string {
  const text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const regions: { name: string; rss: number }[] = [];
  let name = '';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) name = head[1] || '[anon]';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) regions.push({ name, rss: Number(rss[1]) / 1024 });
  }
  const byName = new Map<string, { n: number; rss: number }>();
  for (const r of regions) {
    const e = byName.get(r.name) ?? { n: 0, rss: 0 };
    e.n += 1;
    e.rss += r.rss;
    byName.set(r.name, e);
  }
  const big = regions
    .filter((r) => r.name === '[anon]')
    .sort((a, b) => b.rss - a.rss)
    .slice(0, 12)
    .map((r) => r.rss.toFixed(1));
  return (
    [...byName]
      .sort((a, b) => b[1].rss - a[1].rss)
      .slice(0, 10)
      .map(([k, v]) => `${v.rss.toFixed(1)} MB in ${v.n} × ${k}`)
      .join('\n') + `\nlargest anonymous regions (MB): ${big.join(', ')}`
  );
}

/** Least-squares slope of RSS (MB per 10 minutes) over the samples. */
function slopePer10Min(xs: Sample[]): number {
  if (xs.length < 3) return 0;
  const mx = xs.reduce((a, s) => a + s.at, 0) / xs.length;
  const my = xs.reduce((a, s) => a + s.rss, 0) / xs.length;
  const num = xs.reduce((a, s) => a + (s.at - mx) * (s.rss - my), 0);
  const den = xs.reduce((a, s) => a + (s.at - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 600;
}

function report(samples: Map<string, Sample[]>): void {
  const f = (n: number) => n.toFixed(0);
  console.log(
    `\nbench:memory  rows ${ROWS}  saves by the writer ${saves}  env ${JSON.stringify(EXTRA_ENV)}  node options "${NODE_OPTIONS}"`,
  );
  console.log(
    '| phase | samples | RSS median | RSS max | RSS last | own (anon) last | mapped files last | V8 heap used / total last | external last |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [phase, xs] of samples) {
    const last = xs.at(-1)!;
    console.log(
      `| ${phase} | ${xs.length} | ${f(median(xs.map((s) => s.rss)))} | ${f(Math.max(...xs.map((s) => s.rss)))} | ${f(last.rss)} | ${f(last.anon)} | ${f(last.file)} | ${f(last.heapUsed)} / ${f(last.heapTotal)} | ${f(last.external)} |`,
    );
  }
  const soak = samples.get('soak');
  if (soak) {
    const settled = soak.filter((s) => s.at - soak[0]!.at > 120);
    console.log(
      `slope over the soak (after its first 2 minutes), MB per 10 minutes: RSS ${slopePer10Min(settled).toFixed(2)}, own memory ${slopePer10Min(settled.map((s) => ({ ...s, rss: s.anon }))).toFixed(2)}`,
    );
  }
}

await main();
