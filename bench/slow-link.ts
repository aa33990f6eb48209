/**
 * npm run bench:slow-link — photos through the real disease form on a municipal office's link.
 *
 * Starts the built server on a fresh data folder and drives Chromium with DevTools network
 * emulation (5 Mbit/s up, 20 Mbit/s down, 100 ms latency) through Rice Disease → Add: --photos
 * phone-like 4000×3000 JPEGs (a leaf with sensor noise, about 3 MB each, cached in
 * .tmp/bench-phone-photos) are chosen at once and uploaded as a user would. Twice:
 *   - resized: as every account sends them (made PHOTO_MAX_EDGE in the browser's workers);
 *   - originals: a super admin's "Keep originals" (--original-photos of them: at 5 Mbit/s each
 *     takes ~5 s, the rate is what counts).
 * Prints photos per minute, bytes sent per photo, peak memory of the browser's processes, and
 * the time a 2000-photo disease takes at the measured rate. Targets: at least 6× fewer bytes
 * than the originals; 2000 photos in at most 30 minutes.
 *
 * Options: --photos 200  --original-photos 20  --up-mbit 5  --down-mbit 20  --latency 100
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import { CATALOG_KINDS } from '../common/catalog.js';
import { UPLOAD_TEXTS } from '../common/catalog-texts.js';
import { phonePhoto } from '../tests/fixtures/leaf-photos.js';
import { freePort, option } from './support.js';

const PHOTOS = Number(option('photos', '200'));
const ORIGINALS = Number(option('original-photos', '20'));
const UP = (Number(option('up-mbit', '5')) * 1e6) / 8;
const DOWN = (Number(option('down-mbit', '20')) * 1e6) / 8;
const LATENCY = Number(option('latency', '100'));
const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const admin = { username: 'bench_link', password: 'Bench#Link12345', fullname: 'Bench Link' };
const MB = (n: number) => `${(n / 1048576).toFixed(2)} MB`;

async function photoFolder(count: number): Promise<string[]> {
  const folder = path.resolve('.tmp/bench-phone-photos');
  fs.mkdirSync(folder, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = path.join(folder, `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
    if (!fs.existsSync(file)) {
      fs.writeFileSync(file, await phonePhoto(1000 + i));
      process.stdout.write(`\rmaking phone photos: ${i + 1} of ${count}`);
    }
    files.push(file);
  }
  process.stdout.write('\n');
  return files;
}

/** Memory of every Chromium process now, shared pages counted once (PSS; the bench's browser is the only one running). */
function chromiumMemory(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (pss) total += Number(pss[1]) * 1024;
    } catch {
      /* gone */
    }
  }
  return total;
}

/** Bytes of the photos the server received since `since` (what each upload carried, its metadata aside). */
function receivedBytes(since: string): { bytes: number; count: number } {
  const db = new Database(path.join(dataDir, 'palayan.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare('select coalesce(sum("sizeBytes"), 0) as bytes, count(*) as count from catalog_images where "createdAt" >= ?')
      .get(since) as { bytes: number; count: number };
    return row;
  } finally {
    db.close();
  }
}

execFileSync(process.execPath, ['scripts/build-client.mjs'], { stdio: 'inherit' });
execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
const files = await photoFolder(Math.max(PHOTOS, ORIGINALS));
const originalBytes = files.slice(0, PHOTOS).reduce((n, f) => n + fs.statSync(f).size, 0) / PHOTOS;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-slow-link-'));
const server = spawn(process.execPath, ['build/server/main.js'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INITIAL_ADMIN_USERNAME: admin.username,
    INITIAL_ADMIN_PASSWORD: admin.password,
    INITIAL_ADMIN_FULLNAME: admin.fullname,
    INITIAL_ADMIN_EMAIL: 'bench.link@da.example',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.on('exit', () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});
for (;;) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 100));
}

async function run(mode: 'resized' | 'originals', chosen: string[]) {
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ baseURL: base, viewport: { width: 1366, height: 860 } });
    await page.goto('/login');
    await page.getByLabel('Username or email').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(/\/dashboard/);
    await page.goto('/dashboard/rice_diseases');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LATENCY,
      downloadThroughput: DOWN,
      uploadThroughput: UP,
    });
    await page.getByRole('button', { name: CATALOG_KINDS.disease.texts.addButton }).click();
    const dialog = page.getByRole('dialog', { name: CATALOG_KINDS.disease.texts.addTitle });
    await dialog.getByLabel('Name', { exact: true }).fill(`Bench ${mode}`);
    if (mode === 'originals') await dialog.getByTestId('keep-originals').check();
    const since = new Date().toISOString();
    let peak = chromiumMemory();
    const sampler = setInterval(() => {
      peak = Math.max(peak, chromiumMemory());
    }, 500);
    const started = performance.now();
    await dialog.getByTestId('upload-input').setInputFiles(chosen);
    await dialog
      .getByTestId('upload-total')
      .filter({ hasText: UPLOAD_TEXTS.total(chosen.length, chosen.length) })
      .waitFor({ timeout: 3_600_000 });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const received = receivedBytes(since);
    if (received.count !== chosen.length) throw new Error(`the server has ${received.count} photos, not ${chosen.length}`);
    return {
      mode,
      photos: chosen.length,
      seconds,
      perMinute: chosen.length / (seconds / 60),
      sentPerPhoto: received.bytes / chosen.length,
      peakRss: peak,
    };
  } finally {
    await browser.close();
  }
}

const resized = await run('resized', files.slice(0, PHOTOS));
const originals = await run('originals', files.slice(0, ORIGINALS));
console.log(
  `\nLink: ${((UP * 8) / 1e6).toFixed(1)} Mbit/s up, ${((DOWN * 8) / 1e6).toFixed(0)} down, ${LATENCY} ms latency; phone photos of ${MB(originalBytes)} on average (4000×3000)`,
);
for (const r of [resized, originals]) {
  const for2000 = 2000 / r.perMinute;
  console.log(
    `  ${r.mode.padEnd(9)} ${String(r.photos).padStart(4)} photos in ${r.seconds.toFixed(0)} s: ${r.perMinute.toFixed(1)} photos/min, ${MB(r.sentPerPhoto)} sent per photo, browser peak ${MB(r.peakRss)}; 2000 photos in ${for2000.toFixed(0)} min`,
  );
}
const ratio = originals.sentPerPhoto / resized.sentPerPhoto;
console.log(
  `  bytes per photo: ${ratio.toFixed(1)}× fewer resized (target ≥ 6×); 2000 photos resized: ${(2000 / resized.perMinute).toFixed(0)} min (target ≤ 30 min)`,
);
process.exit(0);
