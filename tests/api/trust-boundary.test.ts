import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, type Access } from '../../common/permissions.js';
import { ERRORS } from '../../common/texts.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { superAdminSession } from '../fixtures/accounts.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

/**
 * Generated from the OpenAPI document: every route there is covered, including routes added
 * after this file was written. Each operation carries its declared access level (x-access).
 */
interface Operation {
  method: string;
  path: string;
  access: Access;
}

let t: TestApp;
let operations: Operation[];
let adminCookie: string;
let superCookie: string;

/**
 * The app page (index.html) is public and holds no data: a non-API spelling such as
 * '/%20/api/accounts' or '/api/public/v1/..%2F..%2F..%2Faccounts' (which normalises to the
 * screen path '/accounts') may get it, never the route's data. The test app always has a
 * client folder, so the result does not depend on whether `npm run build` ran before.
 */
const APP_PAGE = '<!doctype html><title>PalaYan Admin</title><div id="root"></div>';
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-client-'));
fs.writeFileSync(path.join(clientDir, 'index.html'), APP_PAGE);
const isAppPage = (res: { statusCode: number; body: string }) => res.statusCode === 200 && res.body === APP_PAGE;

beforeAll(async () => {
  t = await createTestApp({ clientDir });
  const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, { 'x-access'?: Access }>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, access: op['x-access']! })),
  );
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  superCookie = (await superAdminSession(t.app, t.ctx)).cookie;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

/** The document's path with sample values for its parameters ('{id}', the files wildcard '{*}'). */
function concrete(path: string): string {
  return path.replace(/\{\*\}/g, 'rice_pests/x/1_0_a.jpg').replace(/\{[^}]+\}/g, 'sample-1');
}

const encodeChar = (ch: string) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * Spellings of one URL. `routed` ones decode to exactly the route (percent-encoded letters):
 * the router runs the route for them, so they must meet the access check itself. The others may
 * also be refused as unknown paths (404) or malformed (400), never served.
 */
function spellings(url: string): { url: string; routed: boolean }[] {
  const segments = url.split('/').slice(1);
  const out: { url: string; routed: boolean }[] = [];
  const add = (u: string, routed = false) => out.push({ url: u, routed });
  // One letter percent-encoded in each static segment, lower- and upper-case hex.
  segments.forEach((segment, i) => {
    const at = [...segment].findIndex((ch) => /[a-z]/i.test(ch));
    if (at < 0) return;
    const encoded = (upper: boolean) => {
      const hex = encodeChar(segment[at]!);
      return segment.slice(0, at) + (upper ? hex.toUpperCase() : hex) + segment.slice(at + 1);
    };
    for (const upper of [false, true]) add(`/${segments.map((s, j) => (j === i ? encoded(upper) : s)).join('/')}`, true);
  });
  add(`/${segments.map((s) => [...s].map((ch) => (/[a-z]/i.test(ch) ? encodeChar(ch) : ch)).join('')).join('/')}`, true);
  const rest = segments.slice(1).join('/');
  for (const variant of [
    url.replace(/\//g, '%2F'),
    url.replace(/\//g, '%2f'),
    `/api%2F${rest}`,
    `/api%5C${rest}`,
    `/api\\${rest}`,
    `/${url}`,
    url.replace('/api/', '/api//'),
    `${url}//`,
    `/api/./${rest}`,
    `/./api/${rest}`,
    `/x/../api/${rest}`,
    `/api/x/../${rest}`,
    `/%2e/api/${rest}`,
    `/api/%2e%2e/api/${rest}`,
    `/api/public/../${rest}`,
    `/api/public/v1/..%2F..%2F..%2F${rest}`,
    `/api/public/v1/%2e%2e/%2e%2e/${rest}`,
    url.toUpperCase(),
    `/API/${rest}`,
    `/Api/${rest}`,
    `/api/${rest.charAt(0).toUpperCase()}${rest.slice(1)}`,
    `${url}/`,
    `${url};`,
    `${url};x=1`,
    `/api;/${rest}`,
    `/api/${rest};jsessionid=1`,
    `${url}%00`,
    `/api%00/${rest}`,
    `${url}%20`,
    `/%20/api/${rest}`,
    `/api/${rest}%09`,
    `${url}%23`,
    `${url}?/api/public`,
    `${url}#/api/public`,
    `${url}.json`,
  ])
    add(variant);
  return out;
}

const inject = (method: string, url: string, cookie?: string) =>
  t.app.inject({ method: method as 'GET', url, headers: cookie ? { cookie } : {} });

describe('access is declared on every route and decided from the matched route', () => {
  it('every API operation in the document declares exactly one access level', () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const op of operations) expect([op.method, op.path, typeof op.access]).toEqual([op.method, op.path, 'string']);
    expect(operations.filter((o) => o.access === 'public').map((o) => o.path)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/public/v1/varieties', '/api/recovery/identify']),
    );
  });

  it('refuses to start when a route declares no access level', async () => {
    const own = await createTestApp();
    try {
      own.app.get('/api/forgotten', async () => ({ secret: true }));
      await expect(own.app.ready()).rejects.toThrow(/config\.access.*GET \/api\/forgotten/);
    } finally {
      await own.close().catch(() => undefined);
    }
  });

  it('no spelling of a private route reaches it without a session (401), or as an ADMIN on a super-admin route (403)', async () => {
    const failures: string[] = [];
    let routedChecks = 0;
    for (const op of operations.filter((o) => o.access !== 'public')) {
      const adminMayUse = op.access === 'signedIn' || can('ADMIN', op.access as Exclude<Access, 'public' | 'signedIn'>);
      for (const { url, routed } of spellings(concrete(op.path))) {
        const anonymous = await inject(op.method, url);
        const appPage = !routed && isAppPage(anonymous);
        const expected = routed ? [401] : [400, 401, 404];
        if (!appPage && !expected.includes(anonymous.statusCode))
          failures.push(`${op.method} ${url} without a session: ${anonymous.statusCode}`);
        if (!appPage && (anonymous.statusCode < 400 || !anonymous.body.includes('"error"')))
          failures.push(`${op.method} ${url} served a body without a session`);
        if (!adminMayUse) {
          const asAdmin = await inject(op.method, url, adminCookie);
          const allowed = routed ? [403] : [400, 403, 404];
          if (!(!routed && isAppPage(asAdmin)) && !allowed.includes(asAdmin.statusCode))
            failures.push(`${op.method} ${url} as ADMIN: ${asAdmin.statusCode}`);
        }
        if (routed) routedChecks += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(routedChecks).toBeGreaterThan(100);
  });

  it('the spelling from the report is refused for each kind of data it leaked', async () => {
    for (const url of ['/%61pi/accounts', '/%61pi/training-sets/diseases', '/%61pi/files/rice_pests/x/1_0_a.jpg', '/a%70i/history']) {
      expect((await inject('GET', url)).statusCode, url).toBe(401);
    }
    expect((await inject('GET', '/%61pi/accounts', adminCookie)).statusCode).toBe(403);
    // A super admin still gets it: the router did match the route.
    expect((await inject('GET', '/%61pi/accounts', superCookie)).statusCode).toBe(200);
  });

  it('unmatched paths are 404 without running a handler, and API-looking paths never get the app page', async () => {
    for (const url of ['/api/nothing-here', '/%61pi/nothing-here', '/API/accounts', '/api/accounts/x/y/z']) {
      const res = await inject('GET', url, superCookie);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});

describe('cross-site requests change nothing', () => {
  async function snapshot(): Promise<Record<string, number>> {
    const tables = [
      'accounts',
      'sessions',
      'rice_seed_varieties',
      'rice_local_pests',
      'rice_local_diseases',
      'catalog_images',
      'audit_logs',
      'maintenance',
      'password_reset_tokens',
      'recovery_flows',
    ] as const;
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const row = await t.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    const versions = await t.ctx.db.selectFrom('maintenance').select(['id', 'version']).execute();
    for (const v of versions) counts[`maintenance:${v.id}`] = v.version;
    return counts;
  }

  it('refuses every POST/PUT/PATCH/DELETE route from another site (Origin or Sec-Fetch-Site) with 403', async () => {
    const unsafe = operations.filter((o) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(o.method));
    expect(unsafe.length).toBeGreaterThan(20);
    const before = await snapshot();
    const failures: string[] = [];
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost.evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site', origin: 'http://localhost' },
    ];
    for (const op of unsafe) {
      for (const headers of foreign) {
        for (const contentType of [
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ]) {
          const res = await t.app.inject({
            method: op.method as 'POST',
            url: concrete(op.path),
            headers: { ...headers, cookie: superCookie, 'content-type': contentType },
            payload: contentType === 'application/json' ? '{}' : 'a=1',
          });
          if (res.statusCode !== 403 || res.json().error.message !== ERRORS.crossSite) {
            failures.push(`${op.method} ${op.path} ${JSON.stringify(headers)} ${contentType}: ${res.statusCode}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("lets the console's own pages and non-browser clients through", async () => {
    const own = { origin: 'http://localhost' };
    const login = await makeAccount(t.ctx);
    for (const headers of [own, { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' }, {}]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: { identifier: login.username, password: login.password },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
    const withPublicUrl = await createTestApp({ publicUrl: 'https://palayan.example.gov.ph' });
    try {
      const acc = await makeAccount(withPublicUrl.ctx);
      const res = await withPublicUrl.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: 'https://palayan.example.gov.ph' },
        payload: { identifier: acc.username, password: acc.password },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await withPublicUrl.close();
    }
  });
});

describe('private responses are not cached', () => {
  it('marks private JSON no-store and leaves the public content API cacheable', async () => {
    for (const url of ['/api/accounts', '/api/auth/session', '/api/varieties', '/api/maintenance/options', '/api/history']) {
      const res = await inject('GET', url, superCookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await inject('GET', '/api/accounts');
    expect(refused.headers['cache-control']).toBe('no-store');
    const open = await inject('GET', '/api/public/v1/varieties');
    expect(open.headers['cache-control']).toBe('no-cache');
  });
});
