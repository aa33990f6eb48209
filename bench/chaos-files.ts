/**
 * The storage faults of bench/chaos.ts: the S3 bucket's server stopped and started again while
 * photos are uploaded, and the data folder's disk filled up while varieties are created.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { freePort } from './support.js';
import {
  Tally,
  call,
  createVariety,
  exited,
  login,
  msUntil,
  png,
  root,
  sleep,
  startServer,
  stopServer,
  track,
  uploadPhoto,
  varietyBody,
  type Server,
} from './chaos-kit.js';
import type { Row } from './chaos-db.js';

const BUCKET = 'palayan-chaos';

// A real S3 protocol server (s3rver) in a process of its own, so stopping it is abrupt, as an outage is.
const S3_SERVER = `
const { default: S3rver } = await import('s3rver');
const [port, directory, bucket] = process.argv.slice(1);
const server = new S3rver({ port: Number(port), address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
console.log((await server.run()).port);
`;

async function startS3(port: number, directory: string): Promise<{ port: number; child: ChildProcess }> {
  const child = track(
    spawn(process.execPath, ['--input-type=module', '-e', S3_SERVER, String(port), directory, BUCKET], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const listening = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start')), 20_000);
    child.stdout!.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(Number(chunk.toString().trim()));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited ${code}`));
    });
  });
  return { port: listening, child };
}

/** Uploads from 4 clients while the bucket's server is stopped for ~3 s and started again on the same port and folder. */
export async function s3Outage(): Promise<Row> {
  const row: Row = {
    fault: 'S3 stopped and restarted',
    engine: 'sqlite + S3',
    answers: '',
    process: '',
    servedAgain: '',
    checks: [],
    failures: [],
  };
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-chaos-s3-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-chaos-s3-data-'));
  let s3: ChildProcess | null = null;
  const stopS3 = async () => {
    s3!.kill('SIGKILL');
    await exited(s3!);
    s3 = null;
  };
  let server: Server | undefined;
  try {
    const first = await startS3(0, s3Dir);
    const s3Port = first.port;
    s3 = first.child;
    server = await startServer({
      port: await freePort(),
      dataDir,
      log: 's3',
      env: {
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    const { url } = server;
    const cookie = await login(url);
    const tally = new Tally();
    let uploading = true;
    const started = Date.now();
    const client = async () => {
      while (uploading && Date.now() - started < 60_000) tally.add(await uploadPhoto(url, cookie, await png()));
    };
    const clients = Array.from({ length: 4 }, client);
    await msUntil(async () => tally.ok() >= 20, 20_000, 50);
    const before = tally.ok();
    await stopS3();
    await sleep(1500);
    const readyDown = await call(url, '/api/ready');
    await sleep(1500);
    s3 = (await startS3(s3Port, s3Dir)).child;
    const restartedAt = performance.now();
    const readyBack = await msUntil(async () => (await call(url, '/api/ready')).status === 200, 30_000, 50);
    const uploadBack = await msUntil(async () => tally.add(await uploadPhoto(url, cookie, await png())).status === 201, 30_000, 50);
    const sinceRestart = Math.round(performance.now() - restartedAt);
    await sleep(1000);
    uploading = false;
    await Promise.all(clients);
    const retry = await uploadPhoto(url, cookie, await png());
    row.answers = tally.summary();
    row.process = server.alive() ? 'alive' : 'DIED';
    row.servedAgain = uploadBack === null ? 'no upload within 30 s' : `upload 201 ${sinceRestart} ms after S3 restarted`;
    row.checks.push(
      `${before} × 201 before the stop`,
      `/api/ready while down: ${readyDown.status}`,
      `/api/ready after: ${readyBack === null ? 'not 200 within 30 s' : `200 in ${readyBack} ms`}`,
      `retry after restart: ${retry.status}`,
    );
    if (!server.alive()) row.failures.push('process died');
    if (readyDown.status !== 503) row.failures.push(`/api/ready while down was ${readyDown.status}`);
    if (readyBack === null) row.failures.push('/api/ready did not come back');
    if (retry.status !== 201) row.failures.push(`retry after restart: ${retry.status}`);
    if (tally.count((s) => s === 503) === 0) row.failures.push('no 503 while S3 was down');
    const odd = tally.unexpected(['2xx', '503 STORAGE_UNAVAILABLE']);
    if (odd.length) row.failures.push(`unexpected answers: ${odd.join(', ')}`);
    return row;
  } finally {
    await stopServer(server);
    if (s3) await stopS3();
    fs.rmSync(s3Dir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const system = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe' });
const freeBytes = (dir: string) => {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
};

/** SQLite on a 40 MB tmpfs: filled to ~1 MB free, creates go on, the filler goes, creates work again. */
export async function fullDisk(): Promise<Row> {
  const row: Row = { fault: 'full disk', engine: 'sqlite', answers: '', process: '', servedAgain: '', checks: [], failures: [] };
  if (process.getuid?.() !== 0) return { ...row, answers: 'skipped: not running as root (tmpfs mount needs it)' };
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-chaos-disk-'));
  try {
    system('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', mount]);
  } catch (err) {
    fs.rmdirSync(mount);
    return { ...row, answers: `skipped: ${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim()}` };
  }
  const dataDir = path.join(mount, 'data');
  const filler = path.join(mount, 'filler');
  let server: Server | undefined;
  try {
    server = await startServer({ port: await freePort(), dataDir, log: 'disk', env: { DISK_FREE_FLOOR_MB: '2' } });
    const { url } = server;
    const cookie = await login(url);
    const tally = new Tally();
    const acknowledged = new Set<string>();
    const create = async () => {
      const answer = tally.add(await createVariety(url, cookie, varietyBody(undefined, true)));
      if (answer.status === 201) acknowledged.add(String(answer.body.id));
      return answer;
    };
    for (let i = 0; i < 10; i += 1) await create();
    const readyBefore = await call(url, '/api/ready');
    const fd = fs.openSync(filler, 'w');
    const chunk = Buffer.alloc(1 << 20, 7);
    try {
      while (freeBytes(mount) > 2 * chunk.length) fs.writeSync(fd, chunk);
      fs.writeSync(fd, chunk.subarray(0, Math.max(0, freeBytes(mount) - chunk.length)));
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOSPC') throw err;
    } finally {
      fs.closeSync(fd);
    }
    row.checks.push(`filled to ${Math.round(freeBytes(mount) / 1024)} KB free`);
    const started = Date.now();
    let tries = 0;
    const client = async () => {
      while (tally.count((s) => s === 507) < 20 && tries < 1500 && Date.now() - started < 40_000) {
        tries += 1;
        await create();
      }
    };
    await Promise.all(Array.from({ length: 4 }, client));
    const readyFull = await call(url, '/api/ready');
    const aliveWhileFull = server.alive();
    fs.rmSync(filler);
    const back = await msUntil(async () => (await create()).status === 201, 15_000, 50);
    const readyAfter = await call(url, '/api/ready');
    row.answers = tally.summary();
    row.process = aliveWhileFull && server.alive() ? 'alive' : 'DIED';
    row.servedAgain = back === null ? 'no create within 15 s of freeing space' : `create 201 ${back} ms after the filler was removed`;
    row.checks.push(
      `${tries} creates on the full disk`,
      `/api/ready: ${readyBefore.status} before, ${readyFull.status} full, ${readyAfter.status} after`,
    );
    await stopServer(server);
    const db = new SQLite(path.join(dataDir, 'palayan.sqlite'), { readonly: true });
    try {
      const integrity = db.pragma('integrity_check', { simple: true });
      const ids = new Set((db.prepare('select id from rice_seed_varieties').all() as Array<{ id: string }>).map((r) => r.id));
      const lost = [...acknowledged].filter((id) => !ids.has(id)).length;
      row.checks.push(`integrity_check: ${String(integrity)}`, `${acknowledged.size} × 201, ${lost} missing`);
      if (integrity !== 'ok') row.failures.push('integrity_check failed');
      if (lost) row.failures.push(`${lost} acknowledged creates missing`);
    } finally {
      db.close();
    }
    if (row.process === 'DIED') row.failures.push('process died');
    if (tally.count((s) => s === 507) === 0) row.failures.push('no 507 DISK_FULL seen (the disk never filled)');
    const odd = tally.unexpected(['2xx', '507 DISK_FULL']);
    if (odd.length) row.failures.push(`unexpected answers: ${odd.join(', ')}`);
    if (back === null) row.failures.push('no successful create after freeing space');
    if (readyFull.status !== 503) row.failures.push(`/api/ready on the full disk was ${readyFull.status}`);
    return row;
  } finally {
    await stopServer(server);
    try {
      system('umount', [mount]);
    } catch {
      system('umount', ['-l', mount]);
    }
    fs.rmdirSync(mount);
  }
}
