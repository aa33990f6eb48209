/**
 * npm run bench:varieties — the rice variety search under load (issue 3's budget: p99 under
 * 15 ms at 16 concurrent connections on 10,000 varieties, SQLite).
 *
 * The real server (buildApp + listen on 127.0.0.1, port 0) runs in a child process on a fresh
 * temp data folder with 10,000 realistic varieties; this process signs in and drives
 * GET /api/varieties with autocannon (several search terms and pages, 16 connections) after
 * a warm-up, while a writer saves one variety every 500 ms through the API (each save
 * invalidates the result cache, as real use would).
 *
 * Scenarios: "cached" is the server as shipped; "no cache" sets VARIETY_SEARCH_CACHE_SIZE=0 to
 * show the bare query. Options: --seconds N (default 10), --warmup N (default 3),
 * --connections N (default 16), --rows N (default 10000), --only cached|nocache, --no-writes,
 * --profile DIR (a CPU profile of the server process).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { pathFor, realisticVariety } from './variety-data.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const USER = { username: 'bench_admin', password: 'Bench#Pass1', fullname: 'Bench Admin' };

/** Child process: a real server on a fresh database with N varieties. */
async function serve(rows: number): Promise<void> {
  const { loadConfig } = await import('../server/config.js');
  const { buildApp } = await import('../server/app.js');
  const { createAccount } = await import('../server/modules/accounts/create-account.js');
  const { varietiesRepository } = await import('../server/modules/varieties/repository.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-varieties-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', loginRateLimitPerMinute: 1000 });
  const { app, ctx } = await buildApp(config, { logger: false });
  await createAccount(ctx.db, { ...USER, role: 'ADMIN' }, null);

  const started = performance.now();
  const base = Date.parse('2024-01-01T00:00:00Z');
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows; i += 1) await varietiesRepository.insert(trx, realisticVariety(i, new Date(base + i * 60_000).toISOString()));
  });
  const seedMs = performance.now() - started;

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ port, seedMs, dataDir });
  process.on('message', async (msg) => {
    if (msg === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (msg === 'stop') {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
}

interface Server { port: number; seedMs: number; cpu(): Promise<NodeJS.CpuUsage>; stop(): Promise<void> }

async function startServer(env: Record<string, string>): Promise<Server> {
  const profile = opt('profile', '');
  const execArgv = profile ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profile}`] : process.execArgv;
  const child = fork(import.meta.filename, ['--serve', '--rows', opt('rows', '10000')], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const info = await new Promise<{ port: number; seedMs: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; seedMs: number }));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    ...info,
    cpu: () => new Promise((resolve) => {
      const onMessage = (m: unknown) => {
        if (m && typeof m === 'object' && 'cpu' in m) { child.off('message', onMessage); resolve((m as { cpu: NodeJS.CpuUsage }).cpu); }
      };
      child.on('message', onMessage);
      child.send('cpu');
    }),
    stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.send('stop'); }),
  };
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: USER.username, password: USER.password }) });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('palayan_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

/** Saves one variety every 500 ms through the API (a real write: audit entry, cache invalidation). */
function startWriter(base: string, cookie: string): { stop(): Promise<number> } {
  let running = true;
  let saves = 0;
  const loop = (async () => {
    let i = 0;
    while (running) {
      const id = `bench-${String((i * 7919) % 9000).padStart(6, '0')}`;
      i += 1;
      const current = await fetch(`${base}/api/varieties/${id}`, { headers: { cookie } });
      if (current.ok) {
        const v = (await current.json()) as Record<string, unknown>;
        const body = { ...v, maturityDays: 100 + (i % 30), averageYield: v.averageYield ?? 5, maxYield: v.maxYield ?? 8, breedingCode: v.breedingCode ?? 'PR1', season: (v.season as string[]).length ? v.season : ['Dry'], environment: (v.environment as string[]).length ? v.environment : ['Upperland'] };
        const res = await fetch(`${base}/api/varieties/${id}`, { method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (res.ok) saves += 1;
        else if (res.status !== 409 && res.status !== 404) console.error(`write failed: ${res.status} ${await res.text()}`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return { async stop() { running = false; await loop; return saves; } };
}

async function drive(base: string, cookie: string, seconds: number, connections: number): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { cookie },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathFor(n++) }) }],
  });
}

async function scenario(label: string, env: Record<string, string>): Promise<void> {
  const seconds = Number(opt('seconds', '10'));
  const warmup = Number(opt('warmup', '3'));
  const connections = Number(opt('connections', '16'));
  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const cookie = await login(base);
    const probe = await fetch(`${base}/api/varieties?search=tubigan&page=2`, { headers: { cookie } });
    const body = (await probe.json()) as { total: number; items: unknown[] };
    if (!probe.ok || body.items.length !== 20) throw new Error(`unexpected probe answer: ${probe.status}`);
    await drive(base, cookie, warmup, connections);
    const writer = args.includes('--no-writes') ? null : startWriter(base, cookie);
    const cpuBefore = await server.cpu();
    const result = await drive(base, cookie, seconds, connections);
    const cpuAfter = await server.cpu();
    const saves = writer ? await writer.stop() : 0;
    // The server's own CPU per request: what the machine's other load cannot inflate.
    const cpuMs = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000;
    const cpuPerRequest = result.requests.total > 0 ? cpuMs / result.requests.total : 0;
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log([
      `${label.padEnd(9)} rows=${opt('rows', '10000')} seed=${Math.round(server.seedMs)}ms connections=${connections} duration=${seconds}s`,
      `latency p50=${result.latency.p50}ms p90=${result.latency.p90}ms p99=${result.latency.p99}ms max=${result.latency.max}ms`,
      `requests/s mean=${Math.round(result.requests.average)} total=${result.requests.total} errors=${errors} saves-during-run=${saves}`,
      `server cpu/request=${cpuPerRequest.toFixed(3)}ms (${Math.round(cpuMs / (seconds * 10))}% of one core)`,
      `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
      `budget p99<15ms: ${result.latency.p99 < 15 ? 'met' : 'MISSED'}`,
    ].join(' | '));
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const only = opt('only', 'all');
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  if (only === 'all' || only === 'cached') await scenario('cached', {});
  if (only === 'all' || only === 'nocache') await scenario('no cache', { VARIETY_SEARCH_CACHE_SIZE: '0' });
}

// Dispatch last, so every constant above is initialised.
if (args[0] === '--serve') await serve(Number(opt('rows', '10000')));
else await main();
