/**
 * npm run bench:audit — what the tamper-evident audit chain costs, and how fast it verifies.
 *
 * 1. Audited saves: the built server of this checkout and of the last commit before the chain
 *    (a git worktree of --base, built from its own sources) take turns on fresh databases;
 *    autocannon adds varieties (each a validated insert plus its audit entry in one
 *    transaction) for --seconds at --connections. Prints saves/s and p99 per run, the medians
 *    and the ratio (target: the chain at most 10% slower).
 * 2. Verification: --entries chained audit entries (default 1,000,000) are seeded into a fresh
 *    SQLite file, then the chain is verified --runs times; prints entries/s (target >= 200,000).
 *
 * Options: --engine sqlite|postgres (saves; default sqlite), --pg URL, --runs N (3),
 * --seconds N (10), --connections N (8), --entries N, --base REF, --only saves|verify.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuSeconds, freePort, median, option } from './support.js';

const ENGINE = option('engine', 'sqlite');
const PG = option('pg', 'postgres://postgres@127.0.0.1:5432/test');
const RUNS = Number(option('runs', '3'));
const SECONDS = Number(option('seconds', '10'));
const CONNECTIONS = Number(option('connections', '8'));
const ENTRIES = Number(option('entries', '1000000'));
const ONLY = option('only', '');
const root = path.resolve(import.meta.dirname, '..');
const USER = { username: 'bench_admin', password: 'Bench#Pass1', fullname: 'Bench Admin', email: 'bench@da.example' };

function baseRef(): string {
  const given = option('base', '');
  if (given) return given;
  const added = execFileSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'server/db/migrations/140_audit_chain.ts'], {
    cwd: root,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  if (!added) throw new Error('cannot find the commit that added the chain; pass --base REF');
  return `${added}^`;
}

/** The commit before the chain, checked out beside this one and built with this checkout's packages. */
function prepareBase(ref: string): string {
  const dir = path.join(root, '.tmp', 'bench-audit-base');
  if (fs.existsSync(dir)) execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' });
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: root, stdio: 'ignore' });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--force'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

interface Running {
  url: string;
  child: ChildProcess;
  cleanup(): Promise<void>;
}

async function startServer(dir: string, name: string): Promise<Running> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `palayan-bench-audit-${name}-`));
  let databaseUrl = '';
  let schema = '';
  if (ENGINE === 'postgres') {
    schema = `bench_audit_${name}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    databaseUrl = `${PG}${PG.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const child = spawn(process.execPath, ['build/server/main.js'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      INITIAL_ADMIN_USERNAME: USER.username,
      INITIAL_ADMIN_PASSWORD: USER.password,
      INITIAL_ADMIN_FULLNAME: USER.fullname,
      INITIAL_ADMIN_EMAIL: USER.email,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      EVENT_CHANNEL: `bench_audit_${name}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) {
        return {
          url,
          child,
          async cleanup() {
            child.kill('SIGTERM');
            await new Promise((r) => child.once('exit', r));
            fs.rmSync(dataDir, { recursive: true, force: true });
            if (schema) {
              const admin = new pg.Client({ connectionString: PG });
              await admin.connect();
              await admin.query(`drop schema ${schema} cascade`);
              await admin.end();
            }
          },
        };
      }
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server ${name} did not start`);
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ identifier: USER.username, password: USER.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('palayan_session='))!
    .split(';')[0]!;
}

function body(n: number, tag: string): string {
  return JSON.stringify({
    varietyName: `NSIC Rc ${tag}-${n}`,
    releaseName: `Tubigan ${n}`,
    yearRelease: '2019',
    breedingCode: `PR${n}-B-1`,
    breederOrigin: 'PhilRice',
    maturityDays: 112,
    averageYield: 5.4,
    maxYield: 9.1,
    plantHeight: 101,
    tillers: 16,
    location: 'Province-wide',
    season: ['Dry', 'Wet'],
    plantingMethod: 'Transplanting',
    environment: ['Low Irrigated Land'],
    recommendedInTarlac: true,
  });
}

async function saves(dir: string, name: string): Promise<{ rps: number; p99: number; errors: number; cpuMs: number }> {
  const server = await startServer(dir, name);
  try {
    const cookie = await login(server.url);
    const cpu0 = cpuSeconds(server.child.pid!);
    let n = 0;
    const tag = Date.now().toString(36);
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        {
          url: server.url,
          connections: CONNECTIONS,
          duration: SECONDS,
          headers: { cookie, origin: server.url, 'content-type': 'application/json' },
          requests: [{ method: 'POST', path: '/api/varieties', setupRequest: (req) => ({ ...req, body: body(n++, tag) }) }],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
    });
    const ok = result['2xx'];
    // Sealing runs after the requests: wait for the chain to catch up so its CPU is counted.
    await new Promise((r) => setTimeout(r, 1500));
    const cpuMs = ((cpuSeconds(server.child.pid!) - cpu0) * 1000) / Math.max(ok, 1);
    return { rps: ok / SECONDS, p99: result.latency.p99, errors: result.non2xx + result.errors, cpuMs };
  } finally {
    await server.cleanup();
  }
}

async function benchSaves(): Promise<void> {
  const ref = baseRef();
  const baseDir = prepareBase(ref);
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'ignore' });
  console.log(
    `Audited saves (POST /api/varieties), ${ENGINE}, ${CONNECTIONS} connections, ${SECONDS} s a run; without the chain = ${ref} (${execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim()})`,
  );
  const results: Record<'without' | 'with', Array<{ rps: number; p99: number; errors: number; cpuMs: number }>> = { without: [], with: [] };
  for (let run = 1; run <= RUNS; run += 1) {
    for (const which of (run % 2 ? ['without', 'with'] : ['with', 'without']) as Array<'without' | 'with'>) {
      const r = await saves(which === 'with' ? root : baseDir, which);
      results[which].push(r);
      console.log(
        `  run ${run} ${which.padEnd(7)} chain: ${r.rps.toFixed(0).padStart(5)} saves/s, p99 ${String(r.p99).padStart(4)} ms, server CPU ${r.cpuMs.toFixed(2)} ms/save${r.errors ? `, ${r.errors} errors` : ''}`,
      );
    }
  }
  const w = median(results.with.map((r) => r.rps));
  const wo = median(results.without.map((r) => r.rps));
  const cw = median(results.with.map((r) => r.cpuMs));
  const cwo = median(results.without.map((r) => r.cpuMs));
  console.log(
    `  median: without ${wo.toFixed(0)} saves/s (p99 ${median(results.without.map((r) => r.p99))} ms, ${cwo.toFixed(2)} ms CPU/save), with ${w.toFixed(0)} saves/s (p99 ${median(results.with.map((r) => r.p99))} ms, ${cw.toFixed(2)} ms CPU/save): the chain costs ${(((wo - w) / wo) * 100).toFixed(1)}% of throughput, ${(((cw - cwo) / cwo) * 100).toFixed(1)}% more server CPU (target <= 10%)`,
  );
  execFileSync('git', ['worktree', 'remove', '--force', baseDir], { cwd: root, stdio: 'ignore' });
}

async function benchVerify(): Promise<void> {
  const { loadConfig } = await import('../server/config.js');
  const { createDb } = await import('../server/db/connection.js');
  const { migrateToLatest } = await import('../server/db/migrate.js');
  const { seedAudit } = await import('../server/cli/seed-audit.js');
  const { verifyAuditTrail } = await import('../server/modules/operations/audit-trail/check.js');
  const dataDir = path.join(root, '.tmp', `bench-audit-verify-${ENTRIES}`);
  const config = loadConfig({}, { dataDir, databaseUrl: undefined, logLevel: 'silent' });
  const fresh = !fs.existsSync(path.join(dataDir, 'palayan.sqlite'));
  const db = createDb(config);
  try {
    await migrateToLatest(db);
    if (fresh) {
      const t0 = performance.now();
      await seedAudit(db, { total: ENTRIES });
      console.log(
        `Seeded ${ENTRIES.toLocaleString('en-US')} chained entries in ${((performance.now() - t0) / 1000).toFixed(1)} s (kept in ${path.relative(root, dataDir)} for later runs)`,
      );
    }
    const rates: number[] = [];
    const cpuRates: number[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const result = await verifyAuditTrail(db);
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      if (!result.ok) throw new Error(`verification failed: ${result.problem?.message}`);
      rates.push(result.checked / seconds);
      cpuRates.push(result.checked / cpuSeconds);
      console.log(
        `  verify run ${run}: ${result.checked.toLocaleString('en-US')} entries in ${seconds.toFixed(2)} s = ${Math.round(result.checked / seconds).toLocaleString('en-US')} entries/s (${cpuSeconds.toFixed(2)} s of CPU: ${Math.round(result.checked / cpuSeconds).toLocaleString('en-US')} entries per CPU second)`,
      );
    }
    console.log(
      `  median: ${Math.round(median(rates)).toLocaleString('en-US')} entries/s on SQLite (target >= 200,000); ${Math.round(median(cpuRates)).toLocaleString('en-US')} entries per CPU second (what one free core gives)`,
    );
  } finally {
    await db.destroy();
  }
}

if (ONLY !== 'verify') await benchSaves();
if (ONLY !== 'saves') await benchVerify();
console.log(
  `(load average while measuring: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})`,
);
