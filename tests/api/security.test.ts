import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_TEXTS } from '../../common/text-controls.js';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { PASSWORD_TOO_LONG_MESSAGE } from '../../common/password.js';
import { ERRORS, LOGIN } from '../../common/texts.js';
import { buildApp } from '../../server/app.js';
import { linkOrigin } from '../../server/config.js';
import { sqlitePath } from '../../server/db/connection.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { tinyPng, uploadPhoto } from '../fixtures/catalog.js';
import { login, loginAs, makeAccount } from '../fixtures/factories.js';
import { endLock, outboxMailsTo } from '../fixtures/settings.js';

const pest = CATALOG_KINDS.pest;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginFailuresPerAccount: 3 });
});
afterAll(async () => {
  await t.close();
});

const attempt = (app: TestApp['app'], identifier: string, password: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { identifier, password } });

describe('login throttles live in the database, keyed by the account', () => {
  it('counts username and email in one budget, and tells the owner the lock and its length even with the right password', async () => {
    const acc = await makeAccount(t.ctx);
    expect((await attempt(t.app, acc.username, 'Wrong#111')).json().error.code).toBe('INVALID_CREDENTIALS');
    expect((await attempt(t.app, acc.email.toUpperCase(), 'Wrong#222')).json().error.code).toBe('INVALID_CREDENTIALS');
    // The third wrong password (by email) locks the account for the window: said at once.
    const third = await attempt(t.app, acc.email, 'Wrong#333');
    expect(third.statusCode).toBe(429);
    expect(third.json().error.message).toBe(LOGIN.locked(15));
    const right = await attempt(t.app, ` ${acc.username.toUpperCase()} `, acc.password);
    expect(right.statusCode).toBe(429);
    expect(right.json().error.message).toMatch(/^Too many attempts\. This account is locked for 1[45] minutes/);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(800);
    // Another account is not affected.
    const other = await makeAccount(t.ctx);
    await loginAs(t.app, other);
  });

  it("50 wrong passwords at once from 50 addresses get the budget's 3 checks; each lockout is longer, audited and mailed to the owner", async () => {
    const acc = await makeAccount(t.ctx);
    const burst = async () =>
      (
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            t.app.inject({
              method: 'POST',
              url: '/api/auth/login',
              remoteAddress: `10.88.${Math.floor(i / 200)}.${(i % 200) + 1}`,
              payload: { identifier: acc.username, password: `Wrong#${i}` },
            }),
          ),
        )
      ).map((r) => r.statusCode);
    // Three checks: two wrong (401) and the third, which locks (429 like the 47 refused unchecked).
    const first = await burst();
    expect(first.filter((s) => s === 401)).toHaveLength(2);
    expect(first.filter((s) => s === 429)).toHaveLength(48);
    const locked = await attempt(t.app, acc.username, acc.password);
    expect(locked.json().error.message).toBe(LOGIN.locked(15));
    // The lock ends; the next lockout in a row lasts twice as long.
    await endLock(t.ctx, `login-failures:account:${acc.id}`);
    const second = await burst();
    expect(second.filter((s) => s === 401)).toHaveLength(2);
    expect((await attempt(t.app, acc.username, acc.password)).json().error.message).toBe(LOGIN.locked(30));
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['description', 'details'])
      .where('documentId', '=', acc.id)
      .where('action', '=', 'LOGIN')
      .execute();
    expect(entries.map((e) => JSON.parse(e.details!).lockMinutes).filter(Boolean)).toEqual([15, 30]);
    await expect.poll(() => outboxMailsTo(t.ctx, acc.email).length).toBe(2);
    expect(outboxMailsTo(t.ctx, acc.email).join('\n')).toContain('locked for 30 minutes');
  });

  it('a correct password before the limit clears the failures', async () => {
    const acc = await makeAccount(t.ctx);
    await attempt(t.app, acc.username, 'Wrong#111');
    await attempt(t.app, acc.username, 'Wrong#222');
    await loginAs(t.app, acc);
    expect((await attempt(t.app, acc.username, 'Wrong#333')).json().error.code).toBe('INVALID_CREDENTIALS');
  });

  it('holds across two server instances on one database', async () => {
    const second = await buildApp({ ...t.ctx.config }, { logger: false });
    try {
      const acc = await makeAccount(t.ctx);
      await attempt(t.app, acc.username, 'Wrong#111');
      await attempt(second.app, acc.email, 'Wrong#222');
      expect((await attempt(t.app, acc.username, 'Wrong#333')).statusCode).toBe(429);
      expect((await attempt(second.app, acc.username, acc.password)).statusCode).toBe(429);
    } finally {
      await second.app.close();
    }
  });

  it('limits attempts per client address, which TRUST_PROXY takes from X-Forwarded-For', async () => {
    for (const trustProxy of [false, true]) {
      const app = await createTestApp({ loginRateLimitPerMinute: 2, trustProxy });
      try {
        const acc = await makeAccount(app.ctx);
        const from = (ip: string) => attempt(app.app, acc.username, 'Wrong#1', { 'x-forwarded-for': ip });
        const spread = [await from('203.0.113.1'), await from('203.0.113.2'), await from('203.0.113.3')];
        // Without a trusted proxy the header is ignored: all three come from one address.
        expect(spread.map((r) => r.statusCode)).toEqual(trustProxy ? [401, 401, 401] : [401, 401, 429]);
        if (trustProxy) {
          expect((await from('203.0.113.1')).statusCode).toBe(401);
          expect((await from('203.0.113.1')).statusCode).toBe(429);
        }
      } finally {
        await app.close();
      }
    }
  });
});

describe('secrets stay out of logs, and emailed links do not follow the Host header', () => {
  it('logs only that a message was written and to whom; the link uses PUBLIC_URL or HOST:PORT', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const app = await createTestApp({ logLevel: 'info', publicUrl: undefined, host: '127.0.0.1', port: 4321 }, { logStream: stream });
    try {
      const acc = await makeAccount(app.ctx);
      const cookie = await loginAs(app.app, acc);
      const res = await app.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie, host: 'evil.example' } });
      expect(res.statusCode, res.body).toBe(200);
      const outbox = path.join(app.ctx.config.dataDir, 'outbox');
      const [file] = fs.readdirSync(outbox);
      const mail = fs
        .readFileSync(path.join(outbox, file!), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      const link = mail.match(/http:\/\/[^\s"<]+reset-password#token=[\w%-]+/)?.[0];
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:4321\/reset-password#token=/);
      expect(mail).not.toContain('evil.example');
      const token = new URL(link!).hash.slice('#token='.length);
      const log = lines.join('');
      expect(log).toContain('email written to the outbox');
      expect(log).toContain(acc.email);
      expect(log).not.toContain(token);
      expect(log).not.toContain('reset-password');
      expect(fs.statSync(path.join(outbox, file!)).mode & 0o777).toBe(0o600);
    } finally {
      await app.close();
    }
  });

  it('builds link origins from PUBLIC_URL, else the configured host and port', () => {
    expect(linkOrigin({ publicUrl: 'https://palayan.example.gov.ph/', host: '0.0.0.0', port: 3000 })).toBe(
      'https://palayan.example.gov.ph',
    );
    expect(linkOrigin({ publicUrl: undefined, host: '0.0.0.0', port: 3000 })).toBe('http://localhost:3000');
    expect(linkOrigin({ publicUrl: undefined, host: '::1', port: 8080 })).toBe('http://[::1]:8080');
  });
});

describe('uploads', () => {
  it('answers a broken multipart body with 400, never 500, and stores nothing', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const png = await tinyPng(16);
    const boundary = '----palayanbroken';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leaf.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const bodies = {
      'missing closing boundary': Buffer.concat([head, png]),
      'truncated file': Buffer.concat([head, png.subarray(0, 10)]),
      'headers cut off': Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`),
      'no parts at all': Buffer.from(`--${boundary}--\r\n`),
      garbage: Buffer.from('this is not multipart'),
    };
    const before = await t.ctx.db.selectFrom('catalog_images').select('id').execute();
    for (const [name, payload] of Object.entries(bodies)) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/${pest.route}/images`,
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
      expect(res.json().error.message, name).toBeTruthy();
    }
    expect(await t.ctx.db.selectFrom('catalog_images').select('id').execute()).toEqual(before);
  });

  it("keeps the database file and stored originals readable by the server's user only", async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const res = await uploadPhoto(t.app, cookie, pest, 'leaf.png', await tinyPng(16));
    expect(res.statusCode, res.body).toBe(201);
    const row = await t.ctx.db.selectFrom('catalog_images').select('originalKey').where('id', '=', res.json().id).executeTakeFirstOrThrow();
    const original = path.join(t.ctx.config.dataDir, 'files', row.originalKey!);
    expect(fs.statSync(original).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(original)).mode & 0o777).toBe(0o700);
    if (t.engine === 'sqlite') {
      expect(fs.statSync(sqlitePath(t.ctx.config.dataDir)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(t.ctx.config.dataDir).mode & 0o777).toBe(0o700);
    }
  });
});

describe('responses', () => {
  it("hides a 5xx's details and sends a Content Security Policy without inline scripts", async () => {
    const own = await createTestApp();
    try {
      own.app.get('/api/boom', { config: { access: 'public' } }, async () => {
        throw new Error('connection string postgres://secret@db');
      });
      const res = await own.app.inject({ url: '/api/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong. Please try again later.' } });
      expect(res.body).not.toContain('secret');
      const csp = String((await own.app.inject({ url: '/api/health' })).headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
    } finally {
      await own.close();
    }
  });
});

describe('text with NUL characters', () => {
  it('is a 400 in the path, the query and the body, and stores nothing (PostgreSQL cannot store it)', async () => {
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, acc);
    const before = await t.ctx.db.selectFrom('rice_seed_varieties').select('id').execute();
    const requests = [
      { method: 'GET', url: '/api/history/users%00' },
      { method: 'GET', url: '/api/accounts/x%00y' },
      { method: 'GET', url: '/api/varieties?search=rice%00' },
      { method: 'POST', url: '/api/varieties', payload: { varietyName: 'NSIC\u0000 Rc 1' } },
      { method: 'PUT', url: '/api/profile', payload: { fullname: 'Juan\u0000' } },
      { method: 'POST', url: '/api/auth/login', payload: { identifier: 'a\u0000', password: 'b' } },
    ] as const;
    for (const r of requests) {
      const res = await t.app.inject({
        method: r.method,
        url: r.url,
        headers: { cookie, 'content-type': 'application/json' },
        ...('payload' in r ? { payload: JSON.stringify(r.payload) } : {}),
      });
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(400);
      expect(res.json().error.message).toBe(ERRORS.nulCharacter);
    }
    expect(await t.ctx.db.selectFrom('rice_seed_varieties').select('id').execute()).toEqual(before);
  });
});

describe('control and direction-changing characters', () => {
  it('are a 400 naming the field in any JSON body (they would reach the farmer app), and store nothing; a password keeps what was typed', async () => {
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, acc);
    const before = await t.ctx.db.selectFrom('rice_local_pests').select('id').execute();
    const cases = [
      { url: '/api/varieties', payload: { varietyName: 'NSIC Rc 1', location: 'Tarlac \u202Eyxob' }, field: 'location', codes: 'U+202E' },
      {
        url: '/api/rice_pests',
        payload: { name: 'Stem borer', treatments: ['Spray \u2066 20 ml\u0007'] },
        field: 'treatments.0',
        codes: 'U+2066, U+0007',
      },
      { url: '/api/varieties?search=a%E2%80%AE', field: 'search', codes: 'U+202E' },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.payload ? 'POST' : 'GET',
        url: c.url,
        headers: { cookie, 'content-type': 'application/json' },
        ...(c.payload ? { payload: JSON.stringify(c.payload) } : {}),
      });
      expect(res.statusCode, `${c.url}: ${res.body}`).toBe(400);
      expect(res.json().error.fields).toEqual({ [c.field]: CONTROL_TEXTS.refused(c.codes) });
    }
    expect(await t.ctx.db.selectFrom('rice_local_pests').select('id').execute()).toEqual(before);
    // Tab and line breaks are text; a secret is compared, never shown, and keeps what was typed.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: acc.username, password: 'wrong\u202E' },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('passwords', () => {
  it('refuses a new password over 72 bytes in the recovery flow and keeps the old one', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    const outbox = path.join(t.ctx.config.dataDir, 'outbox');
    const newest = fs.readdirSync(outbox).sort().at(-1)!;
    const mail = fs
      .readFileSync(path.join(outbox, newest), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const token = decodeURIComponent(mail.match(/reset-password#token=([\w%-]+)/)![1]!);
    const long = `Aa1!${'ñ'.repeat(40)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/recovery/email-link',
      payload: { token, newPassword: long, confirmPassword: long },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.newPassword).toBe(PASSWORD_TOO_LONG_MESSAGE);
    await login(t.app, acc.username, acc.password);
  });
});
