import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSafeKey, safeSegment } from '../../server/platform/storage.js';
import { fileUrl } from '../../server/platform/storage.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('storage and file serving', () => {
  it('makes any name one safe path segment', () => {
    const segment = safeSegment('../../etc/passwd');
    expect(segment).not.toContain('/');
    expect(() => assertSafeKey(`rice_pests/${segment}/x.jpg`)).not.toThrow();
    expect(safeSegment('..')).toBe('file');
    expect(safeSegment('Rice bug / Leptocorisa')).toBe('Rice bug _ Leptocorisa');
    expect(() => assertSafeKey('a/../b')).toThrow();
    expect(() => assertSafeKey('/etc/passwd')).toThrow();
    expect(() => assertSafeKey('a\\b')).toThrow();
  });

  it('serves a stored image to signed-in staff only, with a long cache lifetime', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await t.ctx.storage.put('rice_pests/Rice bug/1_0_a.png', png);
    const url = fileUrl('rice_pests/Rice bug/1_0_a.png');
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const cookie = await loginAs(t.app, await makeAccount(t.ctx));
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it('never serves a path outside the storage folder', async () => {
    const cookie = await loginAs(t.app, await makeAccount(t.ctx));
    for (const url of ['/api/files/..%2F..%2Fpalayan.sqlite', '/api/files/%2Fetc%2Fpasswd', '/api/files/a/%2E%2E/%2E%2E/x.png', '/api/files/%E0%A4%A']) {
      const res = await t.app.inject({ url, headers: { cookie } });
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});
