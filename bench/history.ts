/**
 * npm run bench:history -- [--rows 1000000] [--pg postgres://user@host/db] [--data-dir DIR] [--iterations 60] [--port 3591]
 *                            [--runs 3] [--only pages,counts,export] [--server-flags "--trace-gc"]
 *
 * History logs at scale. Fills a database with --rows realistic audit entries (once; reused
 * on the next run), starts the real server as a child process and measures over HTTP:
 *  - the first page and each filter's first page (and a deep cursor page, the counts):
 *    request time p50/p99 over sequential requests, measured by the client, so it is an
 *    upper bound of the server's time;
 *  - the CSV export of every entry: rows per second, and the server's resident memory
 *    sampled from /proc/<pid>/status during the export (peak VmRSS, and VmHWM).
 * Each part is measured --runs times; with more than one run the medians over the runs are
 * printed at the end (p50 and p99 of each case, rows/s, peak RSS). The server is the built
 * one (node scripts/build-server.mjs, then node build/server/main.js), as npm start runs it.
 * Budgets (issue 6): first pages under 50 ms p99, export >= 200,000 rows/s, RSS < 200 MB.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PASSWORD, historySchemaUrl, seedHistory } from './history-data.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    pg: { type: 'string' },
    'data-dir': { type: 'string' },
    iterations: { type: 'string', default: '60' },
    port: { type: 'string', default: '3591' },
    runs: { type: 'string', default: '3' },
    only: { type: 'string', default: 'pages,counts,export' },
    'server-flags': { type: 'string', default: '' },
  },
});
const rows = Number(values.rows);
const iterations = Number(values.iterations);
const port = Number(values.port);
const runs = Math.max(1, Number(values.runs));
const parts = new Set(values.only.split(','));
const engine = values.pg ? 'postgres' : 'sqlite';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.resolve(values['data-dir'] ?? path.join(root, '.tmp', `bench-history-${engine}-${rows}`));
const databaseUrl = values.pg ? await historySchemaUrl(values.pg, rows) : undefined;

// 1. The data: accounts as actors, then the entries (skipped when already there).
await seedHistory({ dataDir, databaseUrl, rows, engine });

// 2. The real server as it runs in production (plain JavaScript from build/, see npm start),
// as a child process whose memory we can read.
execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
// Another server on the port would answer in place of ours (and its memory would be read).
await new Promise<void>((resolve, reject) => {
  const probe = net.createServer().once('error', () => reject(new Error(`port ${port} is in use: pass --port`)));
  probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
});
const server = spawn(process.execPath, [...values['server-flags'].split(' ').filter(Boolean), 'build/server/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
function stop(): void {
  if (server.exitCode === null) server.kill('SIGTERM');
}
process.on('exit', stop);

try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }

  async function login(username: string): Promise<string> {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: username, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }
  const superAdmin = await login('bench_user_0');
  const admin = await login('bench_user_1');
  const users = (await (await fetch(`${base}/api/history/users`, { headers: { cookie: superAdmin } })).json()) as {
    items: Array<{ id: string; name: string }>;
  };
  const maria = users.items.find((u) => u.name === 'Maria Santos')!.id;

  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  async function measure(
    label: string,
    url: string,
    cookie: string,
  ): Promise<{ label: string; p50: number; p99: number; max: number; note: string }> {
    let note = '';
    for (let i = 0; i < 3; i++) await (await fetch(`${base}${url}`, { headers: { cookie } })).text();
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}${url}`, { headers: { cookie } });
      const body = await res.text();
      times.push(performance.now() - t0);
      if (!res.ok) throw new Error(`${url}: ${res.status} ${body}`);
      if (i === 0) {
        const json = JSON.parse(body) as { items?: unknown[]; count?: number; exact?: boolean };
        note = json.items ? `${json.items.length} rows` : `count ${json.count} ${json.exact ? 'exact' : 'estimated'}`;
      }
    }
    times.sort((a, b) => a - b);
    return { label, p50: pct(times, 50), p99: pct(times, 99), max: times[times.length - 1]!, note };
  }

  const firstPage = (await (await fetch(`${base}/api/history?limit=50`, { headers: { cookie: superAdmin } })).json()) as {
    nextCursor: string;
  };
  let deepCursor = firstPage.nextCursor;
  for (let i = 0; i < 200; i++) {
    const page = (await (await fetch(`${base}/api/history?limit=50&cursor=${deepCursor}`, { headers: { cookie: superAdmin } })).json()) as {
      nextCursor: string;
    };
    deepCursor = page.nextCursor;
  }

  const pages: Array<{ label: string; query: string; cookie: string }> = [
    { label: 'first page (super admin)', query: '', cookie: superAdmin },
    { label: 'first page (ADMIN, own entries)', query: '', cookie: admin },
    { label: 'date: Today', query: 'range=today', cookie: superAdmin },
    { label: 'date: Last Week', query: 'range=week', cookie: superAdmin },
    { label: 'date: Last Month', query: 'range=month', cookie: superAdmin },
    { label: 'date: custom range', query: 'range=custom&from=2025-01-01&to=2025-01-31', cookie: superAdmin },
    { label: 'action: UPDATE', query: 'action=UPDATE', cookie: superAdmin },
    { label: 'action: LOGIN', query: 'action=LOGIN', cookie: superAdmin },
    { label: 'collection: User Accounts', query: 'collection=accounts', cookie: superAdmin },
    { label: 'user: Maria Santos', query: `user=${maria}`, cookie: superAdmin },
    { label: 'search: common word "rice"', query: 'q=rice', cookie: superAdmin },
    { label: 'search: partial word "bla"', query: 'q=bla', cookie: superAdmin },
    { label: 'search: rare words "nsic 222"', query: 'q=nsic%20222', cookie: superAdmin },
    { label: 'search: person "grace aquino"', query: 'q=grace%20aquino', cookie: superAdmin },
    { label: 'search: no match "zzzz"', query: 'q=zzzz', cookie: superAdmin },
    { label: 'combined: month+UPDATE+varieties', query: 'range=month&action=UPDATE&collection=rice_seed_varieties', cookie: superAdmin },
    { label: 'combined: user+DELETE+week', query: `user=${maria}&action=DELETE&range=week`, cookie: superAdmin },
    { label: 'combined: "blast"+diseases+month', query: 'q=blast&collection=rice_local_diseases&range=month', cookie: superAdmin },
    { label: 'combined: ADMIN + "rice" + UPDATE', query: 'q=rice&action=UPDATE', cookie: admin },
    { label: 'page 202 by cursor', query: `cursor=${deepCursor}`, cookie: superAdmin },
  ];
  const fmt = (n: number) => n.toFixed(1).padStart(7);
  const median = (list: number[]) => {
    const v = [...list].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  };
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  type Timing = Awaited<ReturnType<typeof measure>>;
  const pageRuns: Timing[][] = [];
  const countRuns: Timing[][] = [];
  const exportRuns: Array<{ rowsPerSecond: number; rowsPerCpuSecond: number; peakMb: number; hwmMb: number }> = [];

  // 3. The export of every entry, with the server's memory sampled meanwhile.
  const status = () => fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status())?.[1] ?? 0);
  const cpuTicks = () => {
    const f = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  async function exportAll(): Promise<void> {
    const ticksBefore = cpuTicks();
    const rssBefore = kb('VmRSS');
    let peak = rssBefore;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, kb('VmRSS'));
      } catch {
        /* exited */
      }
    }, 20);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/history/export.csv`, { headers: { cookie: superAdmin } });
    const reader = res.body!.getReader();
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines++;
    }
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, kb('VmRSS'));
    const exported = lines - 1;
    const cpuSeconds = (cpuTicks() - ticksBefore) / 100;
    const run = {
      rowsPerSecond: exported / seconds,
      rowsPerCpuSecond: exported / cpuSeconds,
      peakMb: peak / 1024,
      hwmMb: kb('VmHWM') / 1024,
    };
    exportRuns.push(run);
    console.log(`\nCSV export of all entries (${res.headers.get('content-disposition')})`);
    console.log(
      `rows: ${exported.toLocaleString('en-US')} (+ header), ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s = ${Math.round(run.rowsPerSecond).toLocaleString('en-US')} rows/s (budget >= 200,000: ${run.rowsPerSecond >= 200_000 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `server CPU time for the export: ${cpuSeconds.toFixed(2)} s = ${Math.round(run.rowsPerCpuSecond).toLocaleString('en-US')} rows per CPU-second (load average now ${load()}, ${os.cpus().length} cores)`,
    );
    console.log(
      `server RSS: before ${(rssBefore / 1024).toFixed(0)} MB, peak during export ${run.peakMb.toFixed(0)} MB (budget < 200 MB: ${run.peakMb < 200 ? 'met' : 'NOT met'}), VmHWM ${run.hwmMb.toFixed(0)} MB`,
    );
  }

  for (let run = 1; run <= runs; run++) {
    console.log(`\n=== run ${run} of ${runs} ===`);
    if (parts.has('pages')) {
      const results: Timing[] = [];
      for (const { label, query, cookie } of pages)
        results.push(await measure(label, `/api/history?limit=50${query ? `&${query}` : ''}`, cookie));
      pageRuns.push(results);
    }
    if (parts.has('counts')) {
      const counts: Timing[] = [];
      for (const { label, query, cookie } of pages.filter((p) => !p.query.startsWith('cursor')))
        counts.push(await measure(`count, ${label}`, `/api/history/count${query ? `?${query}` : ''}`, cookie));
      countRuns.push(counts);
    }
    const timings = [...(pageRuns[run - 1] ?? []), ...(countRuns[run - 1] ?? [])];
    if (timings.length > 0) {
      console.log(
        `\nHistory list, ${rows.toLocaleString('en-US')} entries, ${engine}, ${iterations} sequential requests each (ms, client-measured; load average ${load()} on ${os.cpus().length} cores)`,
      );
      console.log(`${'scenario'.padEnd(40)}     p50     p99     max  result`);
      for (const r of timings) console.log(`${r.label.padEnd(40)} ${fmt(r.p50)} ${fmt(r.p99)} ${fmt(r.max)}  ${r.note}`);
    }
    if (timings.length > 0)
      console.log(
        `server RSS after the list requests: ${(kb('VmRSS') / 1024).toFixed(0)} MB (VmHWM ${(kb('VmHWM') / 1024).toFixed(0)} MB)`,
      );
    const results = pageRuns[run - 1];
    if (results) {
      const worst = results.reduce((a, b) => (b.p99 > a.p99 ? b : a));
      console.log(`worst first-page p99: ${worst.p99.toFixed(1)} ms (${worst.label}); budget 50 ms: ${worst.p99 < 50 ? 'met' : 'NOT met'}`);
    }
    if (parts.has('export')) await exportAll();
  }

  if (runs > 1) {
    console.log(`\n=== medians over ${runs} runs (${engine}, ${rows.toLocaleString('en-US')} entries; load average now ${load()}) ===`);
    const all = [...pageRuns, ...countRuns];
    if (all.length > 0) {
      console.log(`${'scenario'.padEnd(40)}  med p50  med p99  worst p99`);
      const labels = [...(pageRuns[0] ?? []), ...(countRuns[0] ?? [])].map((r) => r.label);
      const series = (label: string) => [...pageRuns, ...countRuns].flat().filter((r) => r.label === label);
      for (const label of labels) {
        const s = series(label);
        console.log(
          `${label.padEnd(40)} ${fmt(median(s.map((r) => r.p50)))}  ${fmt(median(s.map((r) => r.p99)))}  ${fmt(Math.max(...s.map((r) => r.p99)))}`,
        );
      }
      if (pageRuns.length > 0) {
        const first = pageRuns[0]!.map((r) => median(series(r.label).map((x) => x.p99)));
        const worst = Math.max(...first);
        console.log(`worst first-page median p99: ${worst.toFixed(1)} ms; budget 50 ms: ${worst < 50 ? 'met' : 'NOT met'}`);
      }
    }
    if (exportRuns.length > 0) {
      const rps = median(exportRuns.map((r) => r.rowsPerSecond));
      const peak = median(exportRuns.map((r) => r.peakMb));
      console.log(
        `export: median ${Math.round(rps).toLocaleString('en-US')} rows/s (runs: ${exportRuns.map((r) => Math.round(r.rowsPerSecond).toLocaleString('en-US')).join(', ')}; budget >= 200,000: ${rps >= 200_000 ? 'met' : 'NOT met'}), median ${Math.round(median(exportRuns.map((r) => r.rowsPerCpuSecond))).toLocaleString('en-US')} rows per server CPU-second`,
      );
      console.log(
        `export: median peak RSS ${peak.toFixed(0)} MB, highest ${Math.max(...exportRuns.map((r) => r.peakMb)).toFixed(0)} MB, VmHWM ${Math.max(...exportRuns.map((r) => r.hwmMb)).toFixed(0)} MB (budget < 200 MB: ${Math.max(...exportRuns.map((r) => r.peakMb)) < 200 ? 'met' : 'NOT met'})`,
      );
    }
  }
} finally {
  stop();
}
