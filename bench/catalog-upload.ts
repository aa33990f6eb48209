/**
 * Bulk upload of a disease photo set against the real server over loopback (issue budget:
 * saved within 30 s, every thumbnail within 90 s, server under 400 MB resident).
 *
 * Generates 2000 distinct ~300 KB JPEG photos once into a temp folder, starts the server as a
 * child process on a fresh data folder, signs in, uploads every photo as the browser does
 * (one multipart request per file, 4 at once), saves the disease naming all of them, then
 * waits until every thumbnail is ready. Prints: time until the record is saved with every
 * original stored, time until every thumbnail is ready, and the server's peak resident memory
 * (VmHWM of /proc/<pid>/status, plus the highest VmRSS sampled every 100 ms).
 *
 * With --s3 the photos go to an S3 protocol server (s3rver) started here, as with S3_BUCKET set;
 * that server runs in this process, so its CPU is the machine's too.
 *
 * Usage: npm run bench:catalog [-- <photos>] [-- --s3]   (env BENCH_PORT, default 3392)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cleanPhoto } from '../server/modules/content/photos/pixels/photo-privacy.js';
import { S3Storage } from '../server/platform/storage/s3-storage.js';
import { startS3, type TestS3 } from '../tests/fixtures/s3.js';
import { cpuSeconds } from './support.js';

const USE_S3 = process.argv.includes('--s3');
const COUNT = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 2000);
const CONCURRENCY = 4;
const PORT = Number(process.env.BENCH_PORT ?? 3392);
const BASE = `http://127.0.0.1:${PORT}`;
const PHOTO_DIR = path.join(os.tmpdir(), 'palayan-bench-photos-v2');
const ADMIN = { username: 'bench_superadmin', password: 'Bench#12345' };
const DISEASE = 'Bench blast';

/** A unique COM segment after SOI: a distinct file (and sha256) with the same pixels. */
function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), seg, body, jpeg.subarray(2)]);
}

async function ensurePhotos(): Promise<string[]> {
  fs.mkdirSync(PHOTO_DIR, { recursive: true });
  const files = Array.from({ length: COUNT }, (_, i) => path.join(PHOTO_DIR, `IMG_${String(i).padStart(4, '0')}.jpg`));
  if (files.every((f) => fs.existsSync(f))) return files;
  console.log(`generating ${COUNT} photos in ${PHOTO_DIR} (once)...`);
  const bases: Buffer[] = [];
  for (let i = 0; i < 40; i += 1) {
    bases.push(
      await sharp({
        create: { width: 1600, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 100 + i, sigma: 10 } },
      })
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }
  files.forEach((file, i) => fs.writeFileSync(file, withComment(bases[i % bases.length]!, `bench photo ${i}`)));
  return files;
}

function readStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
}

async function waitForHealth(): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function main() {
  const files = await ensurePhotos();
  const totalBytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  // What the server stores: each photo without its location and identifying metadata.
  const storedBytesExpected = files.reduce((sum, f) => sum + cleanPhoto(fs.readFileSync(f), 'image/jpeg').body.length, 0);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-catalog-'));
  const s3: TestS3 | null = USE_S3 ? await startS3('palayan-bench') : null;
  const s3Env = s3
    ? {
        S3_BUCKET: s3.settings.bucket,
        S3_ENDPOINT: s3.settings.endpoint!,
        S3_REGION: s3.settings.region,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: s3.settings.accessKeyId!,
        S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey!,
        NODE_NO_WARNINGS: '1',
      }
    : {};
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      ...s3Env,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INITIAL_ADMIN_USERNAME: ADMIN.username,
      INITIAL_ADMIN_PASSWORD: ADMIN.password,
      INITIAL_ADMIN_FULLNAME: 'Bench Admin',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = child.pid!;
  let peakRssKb = 0;
  const sampler = setInterval(() => {
    peakRssKb = Math.max(peakRssKb, readStatusKb(pid, 'VmRSS'));
  }, 100);
  try {
    await waitForHealth();
    const idleRssKb = readStatusKb(pid, 'VmRSS');
    const login = await fetch(`${BASE}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: ADMIN.username, password: ADMIN.password }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status}`);
    const cookie = /palayan_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];

    const loadBefore = loadAverage();
    const cpuStart = cpuSeconds(pid);
    const started = performance.now();
    const ids: string[] = new Array(files.length);
    let next = 0;
    async function worker() {
      for (;;) {
        const i = next++;
        if (i >= files.length) return;
        const form = new FormData();
        form.append('file', new Blob([fs.readFileSync(files[i]!)], { type: 'image/jpeg' }), path.basename(files[i]!));
        const res = await fetch(`${BASE}/api/rice_diseases/images`, { method: 'POST', headers: { cookie }, body: form });
        if (res.status !== 201) throw new Error(`upload ${i} failed: ${res.status} ${await res.text()}`);
        ids[i] = ((await res.json()) as { id: string }).id;
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const uploadedAt = performance.now();

    const save = await fetch(`${BASE}/api/rice_diseases`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: DISEASE,
        scientificName: 'Magnaporthe oryzae',
        description: 'Benchmark set.',
        cause: '',
        symptoms: '',
        treatments: '',
        imageIds: ids,
      }),
    });
    if (save.status !== 201) throw new Error(`save failed: ${save.status} ${(await save.text()).slice(0, 300)}`);
    const savedAt = performance.now();
    const cpuSaved = cpuSeconds(pid);
    const entry = (await save.json()) as { id: string; images: Array<{ url: string }> };

    // Every original is in its final place, byte for byte the size that was sent.
    const stored: number[] = [];
    if (s3) {
      const bucket = new S3Storage(s3.settings);
      for (const image of entry.images) {
        const key = decodeURIComponent(image.url.replace(/^\/api\/files\//, ''));
        stored.push((await bucket.stat(key))?.size ?? 0);
      }
      bucket.close();
    } else {
      const folder = path.join(dataDir, 'files', 'rice_disease', DISEASE);
      for (const f of fs.readdirSync(folder)) stored.push(fs.statSync(path.join(folder, f)).size);
    }
    const storedBytes = stored.reduce((sum, size) => sum + size, 0);
    if (stored.length !== files.length || storedBytes !== storedBytesExpected || entry.images.length !== files.length) {
      throw new Error(`originals: ${stored.length} files / ${storedBytes} bytes, expected ${files.length} / ${storedBytesExpected}`);
    }

    let pending = Infinity;
    while (pending > 0) {
      await new Promise((r) => setTimeout(r, 250));
      const list = (await (
        await fetch(`${BASE}/api/rice_diseases?search=${encodeURIComponent(DISEASE)}`, { headers: { cookie } })
      ).json()) as { items: Array<{ pendingImageCount: number }> };
      pending = list.items[0]?.pendingImageCount ?? Infinity;
    }
    const thumbsAt = performance.now();
    const cpuThumbs = cpuSeconds(pid);
    const hwmKb = readStatusKb(pid, 'VmHWM');
    clearInterval(sampler);

    const secs = (ms: number) => (ms / 1000).toFixed(1);
    const mb = (kb: number) => (kb / 1024).toFixed(0);
    const results = {
      storage: s3 ? 's3' : 'local',
      photos: files.length,
      averagePhotoKb: Math.round(totalBytes / files.length / 1024),
      totalMb: Number((totalBytes / 1024 / 1024).toFixed(0)),
      uploadSeconds: Number(secs(uploadedAt - started)),
      saveRequestSeconds: Number(secs(savedAt - uploadedAt)),
      savedSeconds: Number(secs(savedAt - started)),
      thumbnailsSeconds: Number(secs(thumbsAt - started)),
      idleRssMb: Number(mb(idleRssKb)),
      peakRssSampledMb: Number(mb(peakRssKb)),
      peakRssVmHwmMb: Number(mb(hwmKb)),
      serverCpuSecondsUntilSaved: Number((cpuSaved - cpuStart).toFixed(1)),
      serverCpuSecondsUntilThumbnails: Number((cpuThumbs - cpuStart).toFixed(1)),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAverage(),
    };
    console.log(JSON.stringify(results));
    console.log(`storage ${results.storage}`);
    console.log(`photos ${results.photos} x ${results.averagePhotoKb} KB (${results.totalMb} MB), ${CONCURRENCY} uploads at once`);
    console.log(`upload phase                 ${secs(uploadedAt - started)} s`);
    console.log(`save request                 ${secs(savedAt - uploadedAt)} s`);
    console.log(`saved, all originals stored  ${secs(savedAt - started)} s   budget 30 s  ${savedAt - started <= 30_000 ? 'OK' : 'OVER'}`);
    console.log(
      `every thumbnail ready        ${secs(thumbsAt - started)} s   budget 90 s  ${thumbsAt - started <= 90_000 ? 'OK' : 'OVER'}`,
    );
    console.log(
      `server CPU time              ${results.serverCpuSecondsUntilSaved} s until saved, ${results.serverCpuSecondsUntilThumbnails} s until every thumbnail (all cores)`,
    );
    console.log(`machine load average         ${loadBefore} before, ${results.loadAverageAfter} after (${os.cpus().length} cores)`);
    console.log(
      `server peak resident (VmHWM) ${mb(hwmKb)} MB (sampled max ${mb(peakRssKb)} MB, idle ${mb(idleRssKb)} MB)   budget 400 MB  ${hwmKb / 1024 <= 400 ? 'OK' : 'OVER'}`,
    );
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await s3?.close();
  }
}

await main();
