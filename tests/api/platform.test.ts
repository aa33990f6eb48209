import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/texts.js';
import { DEFAULT_AFFECTED_PARTS, DEFAULT_SECURITY_QUESTIONS, defaultYearReleases } from '../../common/schemas/maintenance.js';
import { passwordMeetsRules } from '../../common/password.js';
import { ensureInitialAdmin } from '../../server/bootstrap.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('errors', () => {
  it('answers malformed JSON with a 400 and a clear message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"identifier": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'MALFORMED_JSON', message: ERRORS.malformedJson });
  });

  it('answers wrong types with a 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: 42, password: ['a'] } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields)).toEqual(['identifier', 'password']);
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: 'a', password: 'x'.repeat(2_000_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('first start', () => {
  it('creates the option lists with the SPEC defaults', async () => {
    const res = await t.app.inject({
      url: '/api/maintenance/options',
      headers: { cookie: await loginAs(t.app, await makeAccount(t.ctx)) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      riceVarieties: {
        seasons: ['Dry', 'Wet'],
        plantingMethods: ['Direct Seed', 'Transplanting'],
        environments: ['Low Irrigated Land', 'Rainfed Lowland', 'Upperland'],
        yearReleases: defaultYearReleases(),
      },
      accounts: { securityQuestions: DEFAULT_SECURITY_QUESTIONS },
      diseases: { affectedParts: DEFAULT_AFFECTED_PARTS },
    });
  });

  it('creates the first super admin with a generated strong password, printed once', async () => {
    const fresh = await createTestApp();
    try {
      const lines: string[] = [];
      await ensureInitialAdmin(fresh.ctx, (l) => lines.push(l));
      const password = lines
        .find((l) => l.includes('password:'))!
        .split('password:')[1]!
        .trim();
      expect(passwordMeetsRules(password)).toBe(true);
      const res = await fresh.app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: 'superadmin', password } });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.role).toBe('SYSTEM_ADMIN');
      await ensureInitialAdmin(fresh.ctx, (l) => lines.push(`again ${l}`));
      expect(lines.some((l) => l.startsWith('again'))).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('takes the first super admin from INITIAL_ADMIN_* when set', async () => {
    const fresh = await createTestApp({
      initialAdmin: { username: 'departmenthead', password: 'Palay#2025', email: 'head@da.example', fullname: 'Maria Santos' },
    });
    try {
      await ensureInitialAdmin(fresh.ctx, () => undefined);
      const res = await fresh.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { identifier: 'head@da.example', password: 'Palay#2025' },
      });
      expect(res.json().user).toMatchObject({ fullname: 'Maria Santos', role: 'SYSTEM_ADMIN' });
    } finally {
      await fresh.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents the routes', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/auth/session', '/api/dashboard/counts', '/api/events']),
    );
  });
});

describe('live events', () => {
  // Each test opens real streams over HTTP; the server listens for them whichever test runs first.
  async function listeningPort(): Promise<number> {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as { port: number }).port;
  }

  it('tells an open stream at once when its session is replaced by a new login', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const port = await listeningPort();
    const received: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie } }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream');
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received.push(chunk);
          if (chunk.includes(': connected')) void loginAs(t.app, acc);
        });
        res.on('end', () => resolve());
      });
      req.on('error', reject);
    });
    await ended;
    const text = received.join('');
    expect(text).toContain('event: session');
    expect(text).toContain('"reason":"session_ended"');
  });

  it('publishes data changes to open streams', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const port = await listeningPort();
    const text = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          if (chunk.includes(': connected')) t.ctx.events.publish({ topic: 'rice_seed_varieties', id: 'v1', op: 'create' });
          if (buffer.includes('event: change')) {
            req.destroy();
            resolve(buffer);
          }
        });
      });
      req.on('error', reject);
    });
    expect(text).toContain('data: {"topic":"rice_seed_varieties","id":"v1","op":"create"}');
  });
});
