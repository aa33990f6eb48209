import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { ERRORS } from '../../common/texts.js';
import { outageOf, StorageUnavailable } from '../../server/platform/http/outages.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { tinyPng, uploadPhoto } from '../fixtures/catalog.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { startS3, type TestS3 } from '../fixtures/s3.js';

/** Outages get an answer that names them, and the work staged before them is usable after. */
let s3: TestS3;
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  s3 = await startS3();
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  t = await createTestApp({ s3: s3.settings, logLevel: 'warn' }, { logStream: stream });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const ready = async (app = t.app) => {
  const res = await app.inject({ url: '/api/ready' });
  return { status: res.statusCode, body: res.json() as { ready: boolean; checks: Record<string, { ok: boolean; reason?: string }> } };
};

describe('photo storage not answering', () => {
  it('is a 503 naming photo storage, readiness says so, and the same upload works once it is back', async () => {
    const cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    expect((await ready()).status).toBe(200);
    await s3.pause();
    try {
      const photo = await tinyPng(16);
      const res = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, 'leaf.png', photo);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toMatchObject({ code: 'STORAGE_UNAVAILABLE', message: ERRORS.storageDown });
      expect(res.headers['retry-after']).toBe('60');
      const avatar = await t.app.inject({
        method: 'POST',
        url: '/api/profile/avatar',
        headers: { cookie, 'content-type': 'image/png' },
        payload: photo,
      });
      expect(avatar.json().error.code).toBe('STORAGE_UNAVAILABLE');
      const state = await ready();
      expect(state.status).toBe(503);
      expect(state.body.checks).toMatchObject({
        database: { ok: true },
        storage: { ok: false, reason: 'photo storage is not answering' },
        disk: { ok: true },
      });
      // The log names the real cause; the answer does not.
      expect(lines.join('')).toMatch(/photo storage is not answering/);
      expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    } finally {
      await s3.resume();
    }
    const again = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, 'leaf.png', await tinyPng(16));
    expect(again.statusCode, again.body).toBe(201);
    expect((await ready()).status).toBe(200);
  });
});

describe('readiness', () => {
  it('answers 503 while the data folder has less free space than DISK_FREE_FLOOR_MB', async () => {
    const tight = await createTestApp({ diskFreeFloorMb: 1024 * 1024 * 1024 });
    try {
      const state = await ready(tight.app);
      expect(state.status).toBe(503);
      expect(state.body.checks.disk).toMatchObject({ ok: false });
      expect(state.body.checks.database).toEqual({ ok: true });
      // Liveness stays what it is.
      expect((await tight.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await tight.close();
    }
  });
});

describe('outages told apart', () => {
  it('from their codes and causes, whatever wraps them', () => {
    const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });
    expect(outageOf(withCode('57P01', 'terminating connection due to administrator command'))).toBe('database');
    expect(outageOf(withCode('ECONNREFUSED'))).toBe('database');
    expect(outageOf(new Error('Connection terminated unexpectedly'))).toBe('database');
    expect(outageOf(new StorageUnavailable(withCode('ECONNREFUSED')))).toBe('storage');
    expect(outageOf(withCode('SQLITE_FULL', 'database or disk is full'))).toBe('disk');
    expect(outageOf(new Error('rollback failed', { cause: withCode('ENOSPC') }))).toBe('disk');
    expect(outageOf(withCode('53100', 'could not extend file'))).toBe('disk');
    expect(outageOf(new Error('something else'))).toBeNull();
    expect(outageOf(withCode('23505', 'duplicate key'))).toBeNull();
  });
});
