/**
 * What the browser app costs on a slow connection. Starts the built server (`npm start`'s
 * build/server/main.js) on a fresh data folder, then:
 *  1. Bytes on the wire (compressed, headers included) of JavaScript and CSS, measured in
 *     Chromium through the DevTools protocol: the login page loaded and idle, then what the
 *     first keystroke fetches (the login schema); then each screen's first visit after sign-in, reached by
 *     its sidebar link as a user would. Budgets: login <= 120 KiB, each screen <= 200 KiB more.
 *  2. Lighthouse (mobile, simulated slow 4G, 4x CPU slowdown: its default profile) on /login and
 *     on /dashboard signed in: performance, accessibility and best-practices scores and the
 *     transferred bytes; the median of the runs.
 * Usage: npm run bench:web [-- runs [--only bytes|/login|/dashboard]]   (CHROMIUM_PATH, default
 * /usr/bin/chromium; BENCH_WEB_REPORTS=dir keeps each Lighthouse report as JSON there, to open in
 * the Lighthouse viewer, and its trace as <page>-<run>.trace.json, to open in DevTools' Performance panel)
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const runs = Number(process.argv[2] ?? 3);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const port = Number(process.env.BENCH_WEB_PORT ?? 3590);
const base = `http://127.0.0.1:${port}`;
const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const admin = { username: 'bench_web', password: 'Bench#Web12345', fullname: 'Bench Web' };
const KiB = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

execFileSync(process.execPath, ['scripts/build-client.mjs'], { stdio: 'inherit' });
execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-web-'));
const server = spawn(process.execPath, ['build/server/main.js'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    INITIAL_ADMIN_USERNAME: admin.username,
    INITIAL_ADMIN_PASSWORD: admin.password,
    INITIAL_ADMIN_FULLNAME: admin.fullname,
    INITIAL_ADMIN_EMAIL: 'bench.web@da.example',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);
for (;;) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 100));
}

async function login(): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ identifier: admin.username, password: admin.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Bytes on the wire of scripts and style sheets, counted from the DevTools network events. */
async function meter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const kinds = new Map<string, string>();
  const encodings = new Set<string>();
  let bytes = 0;
  cdp.on('Network.responseReceived', (e) => {
    kinds.set(e.requestId, e.type);
    if (e.type === 'Script' || e.type === 'Stylesheet')
      encodings.add(e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'none');
  });
  cdp.on('Network.loadingFinished', (e) => {
    const type = kinds.get(e.requestId);
    if (type === 'Script' || type === 'Stylesheet') bytes += e.encodedDataLength;
  });
  return {
    take() {
      const b = bytes;
      bytes = 0;
      return b;
    },
    encodings,
  };
}

async function quiet(ms = 1500) {
  await new Promise((r) => setTimeout(r, ms));
}

if (!only || only === 'bytes') await measureBytes();
if (only !== 'bytes') await measureLighthouse(only ? [only] : ['/login', '/dashboard']);
process.exit(0);

async function measureBytes() {
  console.log(`\n== Bytes of JavaScript and CSS on the wire (Chromium, ${runs} runs, median)`);
  const screens = [
    { name: 'Rice Varieties', path: '/dashboard/rice_varieties' },
    { name: 'Rice Pests', path: '/dashboard/rice_pests' },
    { name: 'Rice Diseases', path: '/dashboard/rice_diseases' },
    { name: 'Accounts', path: '/dashboard/accounts' },
    { name: 'History Logs', path: '/dashboard/history_logs' },
    { name: 'File Maintenance', path: '/dashboard/file_maintenance' },
  ];
  const rows = new Map<string, number[]>();
  const add = (k: string, v: number) => rows.set(k, [...(rows.get(k) ?? []), v]);
  let seenEncodings = new Set<string>();
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  for (let i = 0; i < runs; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    const m = await meter(page);
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await quiet(3000);
    add('login, loaded and usable (nothing typed)', m.take());
    await page.getByLabel('Username or email').fill(admin.username);
    await quiet();
    add('login, first keystroke (fetches the schema)', m.take());
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await quiet();
    add('dashboard (shell + screen), first visit', m.take());
    for (const s of screens) {
      await page.locator(`nav a[href="${s.path}"]`).first().click();
      await page.waitForURL(new RegExp(`${s.path}$`));
      await quiet();
      add(`${s.name}, first visit`, m.take());
    }
    seenEncodings = m.encodings;
    await context.close();
  }
  await browser.close();
  for (const [k, v] of rows) {
    const budget = k.startsWith('login, loaded') ? 120 * 1024 : 200 * 1024;
    console.log(`${k.padEnd(42)} ${KiB(median(v)).padStart(10)}${median(v) > budget ? '  OVER BUDGET' : ''}`);
  }
  console.log(`content-encoding of those responses: ${[...seenEncodings].join(', ')}`);
}

async function measureLighthouse(targets: string[]) {
  console.log(
    `\n== Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}: mobile, simulated slow 4G (${runs} runs, median)`,
  );
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const lighthouseCdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    for (const target of targets) {
      const perf: number[] = [];
      const a11y: number[] = [];
      const bp: number[] = [];
      const total: number[] = [];
      const jsCss: number[] = [];
      const lcp: number[] = [];
      const tbt: number[] = [];
      const failures = new Set<string>();
      for (let i = 0; i < runs; i += 1) {
        // The browser itself holds the cookies (as after a real login), so the page's script sees
        // the readable signed-in hint too; an extra request header would hide it from the page.
        await lighthouseCdp.contexts()[0]!.clearCookies();
        if (target !== '/login') {
          const pairs = (await login()).split('; ').map((pair) => pair.split('='));
          await lighthouseCdp.contexts()[0]!.addCookies(
            pairs.map(([name, value]) => ({
              name: name!,
              value: value!,
              url: base,
              sameSite: 'Strict' as const,
              httpOnly: name === 'palayan_session',
            })),
          );
        }
        const result = await lighthouse(`${base}${target}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        });
        const lhr = result!.lhr;
        if (process.env.BENCH_WEB_REPORTS) {
          fs.mkdirSync(process.env.BENCH_WEB_REPORTS, { recursive: true });
          fs.writeFileSync(path.join(process.env.BENCH_WEB_REPORTS, `${target.slice(1)}-${i + 1}.json`), JSON.stringify(lhr));
          const trace = (result!.artifacts as { Trace?: unknown }).Trace;
          if (trace)
            fs.writeFileSync(path.join(process.env.BENCH_WEB_REPORTS, `${target.slice(1)}-${i + 1}.trace.json`), JSON.stringify(trace));
        }
        if (new URL(lhr.finalDisplayedUrl).pathname !== target)
          throw new Error(`Lighthouse measured ${lhr.finalDisplayedUrl}, not ${target}`);
        perf.push(Math.round((lhr.categories.performance!.score ?? 0) * 100));
        a11y.push(Math.round((lhr.categories.accessibility!.score ?? 0) * 100));
        bp.push(Math.round((lhr.categories['best-practices']!.score ?? 0) * 100));
        total.push(Number(lhr.audits['total-byte-weight']!.numericValue ?? 0));
        lcp.push(Number(lhr.audits['largest-contentful-paint']!.numericValue ?? 0));
        tbt.push(Number(lhr.audits['total-blocking-time']!.numericValue ?? 0));
        const items =
          (lhr.audits['network-requests']!.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)
            ?.items ?? [];
        jsCss.push(
          items
            .filter((r) => r.resourceType === 'Script' || r.resourceType === 'Stylesheet')
            .reduce((n, r) => n + (r.transferSize ?? 0), 0),
        );
        for (const cat of ['accessibility', 'best-practices'] as const) {
          for (const ref of lhr.categories[cat]!.auditRefs) {
            const audit = lhr.audits[ref.id]!;
            if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
              const items = ((audit.details as { items?: unknown[] } | undefined)?.items ?? [])
                .slice(0, 3)
                .map((it) => JSON.stringify(it).slice(0, 300));
              failures.add(`${cat}: ${ref.id} (${audit.title})${items.map((t) => `\n        ${t}`).join('')}`);
            }
          }
        }
      }
      console.log(
        `${target.padEnd(11)} performance ${median(perf)}  accessibility ${median(a11y)}  best practices ${median(bp)}  ` +
          `LCP ${(median(lcp) / 1000).toFixed(2)} s  TBT ${median(tbt).toFixed(0)} ms  JS+CSS ${KiB(median(jsCss))}  all bytes ${KiB(median(total))}  [performance runs: ${perf.join(', ')}]`,
      );
      for (const f of failures) console.log(`    failing ${f}`);
    }
  } finally {
    await lighthouseCdp.close();
    await chrome.kill();
  }
}
