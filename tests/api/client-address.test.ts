import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../fixtures/app.js';

const INSTALLS = '/api/public/v1/installs';
const PROXY = '127.0.0.1';

// One proxy in front (TRUST_PROXY=1), as README and docs/DEPLOY.md say to set it.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1, publicRateLimitPerMinute: 3, scanReportsPerIpPerMinute: 2 });
});
afterAll(async () => {
  await t.close();
});

/** A request as the proxy passes it on: from the proxy's socket, `forwarded` as X-Forwarded-For. */
const viaProxy = (url: string, forwarded: string, method: 'GET' | 'POST' = 'GET', payload?: unknown) =>
  t.app.inject({ method, url, remoteAddress: PROXY, headers: { 'x-forwarded-for': forwarded }, ...(payload ? { payload } : {}) });

const register = (forwarded: string) => viaProxy(INSTALLS, forwarded, 'POST', {});

describe('per-address limits behind one proxy (TRUST_PROXY=1)', () => {
  it('counts a client by the address the proxy saw, not what it wrote in X-Forwarded-For', async () => {
    const max = t.ctx.config.installRegistrationsPerIpPerHour;
    expect(max).toBe(60);
    // The client writes a new address each time; the proxy appends the one it saw.
    const answers = await Promise.all(Array.from({ length: 80 }, (_, i) => register(`1.2.${i}.4, 198.51.100.7`)));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(60);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(20);
    expect((await register('198.51.100.8')).statusCode).toBe(201);
  });

  it('gives IPv6 addresses of one /64 one budget, however they are spelled, and other /64s their own', async () => {
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        register(i % 2 ? `2001:db8:aa:1::${(i + 1).toString(16)}` : `2001:0db8:00aa:0001:${i.toString(16)}:0:0:1`),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(60);
    expect((await register('2001:db8:aa:1:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await register('2001:db8:aa:2::1')).statusCode).toBe(201);
    expect((await register('2001:db8:ab:1::1')).statusCode).toBe(201);
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    for (let i = 0; i < 60; i += 1) expect((await register(i % 2 ? '203.0.113.50' : '::ffff:203.0.113.50')).statusCode).toBe(201);
    expect((await register('::ffff:cb00:7132')).statusCode).toBe(429);
    expect((await register('203.0.113.50')).statusCode).toBe(429);
  });

  it("limits the content API per client key (@fastify/rate-limit's key)", async () => {
    const codes: number[] = [];
    for (const address of ['2001:db8:bb:1::1', '2001:db8:bb:1::2', '2001:db8:bb:1:0:0:0:3', '2001:db8:bb:1::4']) {
      codes.push((await viaProxy('/api/public/v1/options', `6.6.6.6, ${address}`)).statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
    expect((await viaProxy('/api/public/v1/options', '2001:db8:bb:2::1')).statusCode).toBe(200);
  });

  it('limits scan reports per /64', async () => {
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({
        id: 'blast',
        name: 'Rice blast',
        isTrainingClass: 0,
        scientificName: null,
        isDeleted: 0,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const token = (await register('198.51.100.9')).json().installToken as string;
    const report = (address: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/v1/scan-reports',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': address, authorization: `Bearer ${token}` },
        payload: {
          reportId: crypto.randomUUID(),
          label: 'rice-blast',
          confidence: 0.9,
          modelVersion: 'm1',
          scannedAt: new Date().toISOString(),
        },
      });
    const codes = [];
    for (const address of ['2001:db8:cc:1::1', '2001:db8:cc:1::2', '2001:db8:cc:1::3', '2001:db8:cc:2::1'])
      codes.push((await report(address)).statusCode);
    expect(codes).toEqual([201, 201, 429, 201]);
  });
});

describe('TRUST_PROXY=true', () => {
  it('is warned about at start; a hop count is not', async () => {
    for (const trustProxy of [true, 1] as const) {
      const lines: string[] = [];
      const stream = new PassThrough();
      stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
      const app = await createTestApp({ logLevel: 'warn', trustProxy }, { logStream: stream });
      await app.close();
      const warned = lines.some((l) => JSON.parse(l).level === 40 && /TRUST_PROXY=true/.test(JSON.parse(l).msg));
      expect(warned, String(trustProxy)).toBe(trustProxy === true);
    }
  });
});

describe('sign-in and recovery count an IPv6 client by its /64', () => {
  it('login attempts from two addresses of one /64 share one per-address limit; another /64 has its own', async () => {
    const app = await createTestApp({ trustProxy: 1, loginRateLimitPerMinute: 3 });
    try {
      const attempt = (forwarded: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: PROXY,
          headers: { 'x-forwarded-for': forwarded },
          payload: { identifier: `nobody_${crypto.randomUUID()}`, password: 'Wrong#Pass1' },
        });
      const same = ['2001:db8:7:9::a', '2001:0db8:0007:0009:0000:0000:0000:000b', '2001:db8:7:9:ffff::1', '2001:db8:7:9::c'];
      const answers = [];
      for (const address of same) answers.push((await attempt(address)).statusCode);
      expect(answers).toEqual([401, 401, 401, 429]);
      expect((await attempt('2001:db8:7:a::1')).statusCode).toBe(401);
      const recovery = (forwarded: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/recovery/identify',
          remoteAddress: PROXY,
          headers: { 'x-forwarded-for': forwarded },
          payload: { identifier: `nobody_${crypto.randomUUID()}` },
        });
      const failures = [];
      for (let i = 0; i < 24; i += 1) failures.push((await recovery(`2001:db8:8:1::${(i + 1).toString(16)}`)).statusCode);
      expect(failures).toContain(429);
      expect((await recovery('2001:db8:8:2::1')).statusCode).not.toBe(429);
    } finally {
      await app.close();
    }
  });
});
