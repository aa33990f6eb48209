import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstVisitPage } from '../../common/first-visit.js';
import { SIGNED_IN_HINT_COOKIE } from '../../common/sessions.js';
import { precompress } from '../../scripts/precompress.mjs';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { superAdminSession } from '../fixtures/accounts.js';
import { makeAccount } from '../fixtures/factories.js';

/**
 * Static files go out as the build precompressed them (brotli, then gzip, by Accept-Encoding),
 * never compressed per request; JSON above 1 KB is compressed on the fly; streamed downloads
 * are left alone. The .br beside the script here holds *different* text from the script, so a
 * response that decodes to it can only have come from the precompressed file.
 */
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-client-'));
const PAGE = `<!doctype html><title>PalaYan Admin</title><div id="root"></div>${'<!-- padding -->'.repeat(40)}`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(3000))});`;
fs.mkdirSync(path.join(clientDir, 'assets'));
fs.writeFileSync(path.join(clientDir, 'index.html'), PAGE);
// The build's signed-in copies of the page (scripts/first-visit-pages.ts), told apart by text.
const DASHBOARD_PAGE = PAGE.replace('<title>', '<link rel="preload" as="fetch" href="/api/dashboard/counts"><title>');
const SHELL_PAGE = PAGE.replace('<title>', '<link rel="preload" as="fetch" href="/api/auth/session"><title>');
fs.writeFileSync(path.join(clientDir, firstVisitPage('/dashboard')!.file), DASHBOARD_PAGE);
fs.writeFileSync(path.join(clientDir, firstVisitPage('/dashboard/accounts')!.file), SHELL_PAGE);
fs.writeFileSync(path.join(clientDir, 'assets', 'app-Ab12Cd34.js'), SCRIPT);

let t: TestApp;
let superCookie: string;
beforeAll(async () => {
  await precompress(clientDir);
  fs.writeFileSync(path.join(clientDir, 'assets', 'app-Ab12Cd34.js.br'), zlib.brotliCompressSync('/* from the .br file */'));
  fs.writeFileSync(path.join(clientDir, 'assets', 'app-Ab12Cd34.js.gz'), zlib.gzipSync('/* from the .gz file */'));
  t = await createTestApp({ clientDir });
  superCookie = (await superAdminSession(t.app, t.ctx)).cookie;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('precompress (build time)', () => {
  it('writes .br and .gz beside each text file that decode to the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-pre-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.css'), 'body{color:red}'.repeat(100));
      fs.writeFileSync(path.join(dir, 'tiny.js'), 'x');
      fs.writeFileSync(path.join(dir, 'photo.jpg'), Buffer.alloc(4096, 7));
      await precompress(dir);
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'a.css.br'))).toString()).toBe('body{color:red}'.repeat(100));
      expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'a.css.gz'))).toString()).toBe('body{color:red}'.repeat(100));
      expect(fs.existsSync(path.join(dir, 'tiny.js.br'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'photo.jpg.br'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('static files', () => {
  it('sends the precompressed brotli file when brotli is accepted, cached for good', async () => {
    const res = await t.app.inject({ url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe('/* from the .br file */');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('sends a hashed script with nosniff but without the page-only policies and validators', async () => {
    const res = await t.app.inject({ url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'etag', 'last-modified']) {
      expect(res.headers[name], name).toBeUndefined();
    }
    const page = await t.app.inject({ url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers.etag).toBeTruthy();
  });

  it('sends the .gz file to a browser that accepts gzip only, and the plain file to one that accepts neither', async () => {
    const gz = await t.app.inject({ url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe('/* from the .gz file */');
    const plain = await t.app.inject({ url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends the app page (any screen path) compressed and never cached without revalidation', async () => {
    for (const url of ['/login', '/dashboard/rice_varieties']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(PAGE);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });
});

describe('first-visit pages', () => {
  const hint = `${SIGNED_IN_HINT_COOKIE}=1`;
  const page = async (url: string, cookie?: string) => {
    const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/cookie/i);
    return zlib.brotliDecompressSync(res.rawPayload).toString();
  };

  it('sends a browser with the signed-in hint the copy that preloads its screen, by address', async () => {
    expect(await page('/dashboard', hint)).toBe(DASHBOARD_PAGE);
    expect(await page('/dashboard/', hint)).toBe(DASHBOARD_PAGE);
    expect(await page('/%64ashboard?x=1', hint)).toBe(DASHBOARD_PAGE);
    expect(await page('/dashboard/rice_varieties', hint)).toBe(SHELL_PAGE);
    expect(await page('/dashboard/history_logs?page=2', `other=1; ${hint}`)).toBe(SHELL_PAGE);
    // Outside the signed-in screens the page is index.html, hint or not.
    expect(await page('/login', hint)).toBe(PAGE);
    expect(await page('/reset-password', hint)).toBe(PAGE);
    expect(await page('/dashboardx', hint)).toBe(PAGE);
  });

  it('sends index.html without the hint, so a signed-out visit fetches nothing it cannot use', async () => {
    expect(await page('/dashboard')).toBe(PAGE);
    expect(await page('/dashboard/accounts', 'palayan_session=abc')).toBe(PAGE);
  });
});

describe('API responses', () => {
  it('compresses JSON above 1 KB (brotli first, then gzip) and leaves small JSON as it is', async () => {
    const br = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toHaveProperty('paths');
    const gz = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toHaveProperty('paths');
    const small = await t.app.inject({ url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });

  it('compresses a signed-in JSON list and keeps it private (no-store)', async () => {
    for (let i = 0; i < 6; i += 1) await makeAccount(t.ctx, { role: 'ADMIN' });
    const res = await t.app.inject({ url: '/api/accounts', headers: { cookie: superCookie, 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const body = zlib.brotliDecompressSync(res.rawPayload);
    expect(body.length).toBeGreaterThan(1024);
    expect(JSON.parse(body.toString())).toBeTypeOf('object');
    expect(res.headers['cache-control']).toMatch(/no-store/);
  });

  it('leaves streamed CSV downloads uncompressed (streamed as written)', async () => {
    const res = await t.app.inject({ url: '/api/history/export.csv', headers: { cookie: superCookie, 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
