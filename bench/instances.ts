/**
 * npm run bench:instances — one server instance against two on one PostgreSQL database.
 *
 * Seeds 10,000 realistic varieties into a fresh schema, then for each scenario starts 1 or 2
 * real server processes (as `npm start` runs them, from build/) and drives the variety list
 * and search with autocannon: 16 connections in all, split evenly over the instances (as a
 * load balancer would), after a warm-up, while one variety is saved every 500 ms through the
 * first instance (its live event crosses to the other over LISTEN/NOTIFY and drops its cache).
 * Prints req/s (sum), p50/p99 latency (worst instance), and each server's resident memory.
 *
 * Options: --pg URL (default postgres://postgres@127.0.0.1:5432/test), --runs N (default 3),
 * --seconds N (default 10), --rows N (default 10000), --connections N (default 16),
 * --counts 1,2 (instance counts to compare), --no-writes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { pathFor, realisticVariety } from './variety-data.js';
import { cpuSeconds, freePort, machineCpu, median, option, rssMb } from './support.js';

const args = process.argv.slice(2);
const PG = option('pg', 'postgres://postgres@127.0.0.1:5432/test');
const RUNS = Number(option('runs', '3'));
const SECONDS = Number(option('seconds', '10'));
const ROWS = Number(option('rows', '10000'));
const CONNECTIONS = Number(option('connections', '16'));
const WRITES = !args.includes('--no-writes');
const COUNTS = option('counts', '1,2').split(',').map(Number);
const USER = { username: 'bench_admin', password: 'Bench#Pass1' };
const root = path.resolve(import.meta.dirname, '..');

async function seed(databaseUrl: string): Promise<void> {
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/identity/accounts/create-account.js');
  const { varietiesRepository } = await import('../server/modules/content/varieties/repository.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-instances-seed-'));
  const { app, ctx } = await buildApp(loadConfig({}, { dataDir, databaseUrl, logLevel: 'silent' }), { logger: false });
  await createAccount(ctx.db, { ...USER, fullname: 'Bench Admin', role: 'ADMIN' }, null);
  const base = Date.parse('2024-01-01T00:00:00Z');
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < ROWS; i += 1) await varietiesRepository.insert(trx, realisticVariety(i, new Date(base + i * 60_000).toISOString()));
  });
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

interface Running {
  url: string;
  child: ChildProcess;
  dataDir: string;
}

async function startInstance(databaseUrl: string, channel: string, name: string): Promise<Running> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `palayan-bench-${name}-`));
  const child = spawn(process.execPath, ['build/server/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      EVENT_CHANNEL: channel,
      INSTANCE_ID: name,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child, dataDir };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not start`);
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: USER.username, password: USER.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('palayan_session='))!
    .split(';')[0]!;
}

function drive(url: string, cookie: string, connections: number, duration: number): Promise<autocannon.Result> {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        headers: { cookie },
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathFor(n++) }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function scenario(databaseUrl: string, channel: string, count: number) {
  const instances: Running[] = [];
  try {
    for (let i = 0; i < count; i += 1) instances.push(await startInstance(databaseUrl, channel, `bench-${i}`));
    // One session is valid on every instance (sessions live in the database).
    const cookie = await login(instances[0]!.url);
    const per = Math.max(1, Math.floor(CONNECTIONS / count));
    await Promise.all(instances.map((i) => drive(i.url, cookie, per, 3)));
    let saving = WRITES;
    let saves = 0;
    const writer = (async () => {
      while (saving) {
        const body = {
          varietyName: `Bench Save ${Date.now()}`,
          releaseName: 'Tubigan 1',
          yearRelease: '2019',
          breedingCode: 'PR1-B',
          breederOrigin: 'PhilRice',
          maturityDays: 110,
          averageYield: 5,
          maxYield: 8,
          plantHeight: 100,
          tillers: 14,
          location: 'Tarlac City',
          season: ['Dry'],
          plantingMethod: 'Transplanting',
          environment: ['Low Irrigated Land'],
          recommendedInTarlac: true,
        };
        const res = await fetch(`${instances[0]!.url}/api/varieties`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status === 201) saves += 1;
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const cpuBefore = instances.map((i) => cpuSeconds(i.child.pid!));
    const machineBefore = machineCpu();
    const results = await Promise.all(instances.map((i) => drive(i.url, cookie, per, SECONDS)));
    const serverCpu = instances.reduce((sum, i, n) => sum + cpuSeconds(i.child.pid!) - cpuBefore[n]!, 0);
    const machineAfter = machineCpu();
    saving = false;
    await writer;
    const rss = instances.map((i) => rssMb(i.child.pid!));
    return {
      instances: count,
      reqPerSec: results.reduce((sum, r) => sum + r.requests.average, 0),
      p50: Math.max(...results.map((r) => r.latency.p50)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      saves,
      rssMb: rss.map((m) => Math.round(m)),
      // Server CPU per request (all instances together) and how busy the whole machine was.
      serverCpuMsPerRequest: Number(((serverCpu * 1000) / results.reduce((sum, r) => sum + r.requests.total, 0)).toFixed(3)),
      machineBusyPercent: Math.round((100 * (machineAfter.busy - machineBefore.busy)) / (machineAfter.total - machineBefore.total)),
    };
  } finally {
    for (const i of instances) i.child.kill('SIGTERM');
    await Promise.all(instances.map((i) => new Promise((r) => (i.child.exitCode !== null ? r(null) : i.child.once('exit', r)))));
    for (const i of instances) fs.rmSync(i.dataDir, { recursive: true, force: true });
  }
}

async function main() {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  const schema = `bench_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const databaseUrl = `${PG}${PG.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  try {
    await seed(databaseUrl);
    const all: Record<number, Awaited<ReturnType<typeof scenario>>[]> = Object.fromEntries(COUNTS.map((c) => [c, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const count of COUNTS) {
        const r = await scenario(databaseUrl, `events_${schema}`, count);
        all[count]!.push(r);
        console.log(JSON.stringify({ run: run + 1, ...r, load: os.loadavg()[0]!.toFixed(1) }));
      }
    }
    console.log(
      `\n${ROWS} varieties on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s per run, medians of ${RUNS} runs (${os.cpus().length} cores)`,
    );
    for (const count of COUNTS) {
      const rs = all[count]!;
      console.log(
        `${count} instance${count > 1 ? 's' : ' '}  ${median(rs.map((r) => r.reqPerSec)).toFixed(0)} req/s   p50 ${median(rs.map((r) => r.p50))} ms   p99 ${median(rs.map((r) => r.p99))} ms   server CPU ${median(rs.map((r) => r.serverCpuMsPerRequest))} ms/request   machine busy ${median(rs.map((r) => r.machineBusyPercent))}%   RSS ${rs.at(-1)!.rssMb.join(' + ')} MB   errors ${rs.reduce((s, r) => s + r.errors, 0)}`,
      );
    }
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}

await main();
