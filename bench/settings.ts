/**
 * Account Settings and recovery on the server, through the real routes (app.inject) on a fresh
 * SQLite file: the avatar upload (sharp check + re-encode of a 1600x1000 photo and of a
 * browser-sized 512x512 crop), the profile save, and the recovery answer check (bcrypt cost 10).
 * Prints p50/p99 per operation, sequential and with N requests in flight.
 * Usage: npx tsx bench/settings.ts [rounds] [concurrency]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createAccount } from '../server/modules/identity/accounts/create-account.js';
import { accountsRepository } from '../server/modules/identity/accounts/repository.js';
import { hashAnswer } from '../server/modules/identity/recovery/answers.js';
import { DEFAULT_SECURITY_QUESTIONS } from '../common/schemas/maintenance.js';

const rounds = Number(process.argv[2] ?? 40);
const concurrency = Number(process.argv[3] ?? 4);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms  (n=${xs.length})`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-settings-'));
const { app, ctx } = await buildApp(loadConfig({}, { dataDir, logLevel: 'silent', loginRateLimitPerMinute: 100_000 }), { logger: false });
const question = DEFAULT_SECURITY_QUESTIONS[1]!;

async function user(i: number) {
  const username = `bench_user_${i}`;
  const id = await createAccount(
    ctx.db,
    { username, password: 'Bench#1234', email: `${username}@bench.test`, fullname: `Bench User ${i}`, role: 'ADMIN' },
    null,
  );
  await accountsRepository.update(ctx.db, id, { securityQuestion: question, securityAnswer: await hashAnswer('Bantay') });
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: username, password: 'Bench#1234' } });
  const cookie = `palayan_session=${res.cookies.find((c) => c.name === 'palayan_session')!.value}`;
  return { username, cookie };
}

async function timed(fn: () => Promise<{ statusCode: number; body: string }>): Promise<number> {
  const t0 = performance.now();
  const res = await fn();
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return performance.now() - t0;
}

async function run(label: string, op: (i: number) => Promise<number>, inFlight: number) {
  const times: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < rounds) times.push(await op(next++));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label.padEnd(46)} ${fmt(times)}  ${(times.length / seconds).toFixed(1)}/s`);
}

const big = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: { r: 90, g: 160, b: 70 } } })
  .composite([
    {
      input: await sharp({
        create: {
          width: 800,
          height: 500,
          channels: 3,
          background: { r: 0, g: 0, b: 0 },
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .png()
        .toBuffer(),
      top: 250,
      left: 400,
    },
  ])
  .jpeg({ quality: 90 })
  .toBuffer();
const crop = await sharp(big).resize(512, 512).jpeg({ quality: 85 }).toBuffer();
console.log(
  `inputs: photo 1600x1000 ${big.length} bytes, browser crop 512x512 ${crop.length} bytes; rounds ${rounds}, ${concurrency} in flight; ${os.cpus().length} cores`,
);

const users = await Promise.all(Array.from({ length: concurrency }, (_, i) => user(i)));
const upload = (bytes: Buffer) => (i: number) =>
  timed(() =>
    app.inject({
      method: 'POST',
      url: '/api/profile/avatar',
      headers: { cookie: users[i % users.length]!.cookie, 'content-type': 'image/jpeg' },
      payload: bytes,
      // The route allows 30 uploads a minute per address; spread the bench over addresses.
      remoteAddress: `10.98.${Math.floor(i / 20)}.${(i % 20) + 1}`,
    }),
  );
const save = (i: number) =>
  timed(() =>
    app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { cookie: users[i % users.length]!.cookie },
      payload: {
        fullname: `Bench User ${i}`,
        email: `${users[i % users.length]!.username}@bench.test`,
        contactNo: `0917${String(i).padStart(7, '0')}`,
        securityQuestion: question,
        securityAnswer: '',
        keepAnswer: true,
      },
    }),
  );
const verify = async (i: number) => {
  const ip = `10.99.${Math.floor(i / 200)}.${(i % 200) + 1}`;
  const id = await app.inject({
    method: 'POST',
    url: '/api/recovery/identify',
    payload: { identifier: users[i % users.length]!.username },
    remoteAddress: ip,
  });
  const recoveryId = id.json().recoveryId as string;
  return timed(() =>
    app.inject({ method: 'POST', url: '/api/recovery/verify', payload: { recoveryId, question, answer: 'bantay' }, remoteAddress: ip }),
  );
};

for (const inFlight of [1, concurrency]) {
  await run(`avatar upload, 512x512 browser crop, x${inFlight}`, upload(crop), inFlight);
  await run(`avatar upload, 1600x1000 photo, x${inFlight}`, upload(big), inFlight);
  await run(`profile save (no picture), x${inFlight}`, save, inFlight);
  await run(`recovery step 2 (bcrypt answer check), x${inFlight}`, verify, inFlight);
}
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
