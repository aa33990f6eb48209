import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '../../common/sessions.js';
import { LOGIN } from '../../common/texts.js';
import { accountsRepository } from '../../server/modules/identity/accounts/repository.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { login, loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object });

describe('login', () => {
  it('signs in by username, sets an httpOnly SameSite=Strict cookie and records the session', async () => {
    const acc = await makeAccount(t.ctx, { state: { status: 'inactive', autoInactive: 1 } });
    const res = await post({ identifier: `  ${acc.username}  `, password: acc.password });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'palayan_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    const body = res.json();
    expect(body.user).toMatchObject({ id: acc.id, username: acc.username, role: 'ADMIN' });
    expect(JSON.stringify(body)).not.toMatch(/\$2[aby]\$|password|securityAnswer/);
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.status).toBe('active');
    expect(row.lastLogin).not.toBeNull();
    expect(row.currentSession).toBe(body.sessionId);
    const stored = await t.ctx.db.selectFrom('sessions').selectAll().where('id', '=', body.sessionId).executeTakeFirstOrThrow();
    expect(stored.tokenHash).not.toBe(cookie.value);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sets a readable hint beside the session cookie, holding nothing secret, and logout clears both', async () => {
    const acc = await makeAccount(t.ctx);
    const res = await post({ identifier: acc.username, password: acc.password });
    const hint = res.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE)!;
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Strict' });
    expect(hint.httpOnly).toBeFalsy();
    const session = res.cookies.find((c) => c.name === 'palayan_session')!;
    const cookie = `palayan_session=${session.value}`;
    // A session opened before the hint existed gets it at its next check; one that has it is left alone.
    const check = await t.app.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(check.statusCode).toBe(200);
    expect(check.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE)?.value).toBe('1');
    const again = await t.app.inject({ url: '/api/auth/session', headers: { cookie: `${cookie}; ${SIGNED_IN_HINT_COOKIE}=1` } });
    expect(again.cookies).toEqual([]);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    for (const name of ['palayan_session', SIGNED_IN_HINT_COOKIE]) {
      expect(out.cookies.find((c) => c.name === name)?.value, name).toBe('');
    }
  });

  it('signs in by email, ignoring case', async () => {
    const acc = await makeAccount(t.ctx);
    const res = await post({ identifier: acc.email.toUpperCase(), password: acc.password });
    expect(res.statusCode).toBe(200);
  });

  it('rejects empty fields with the SPEC texts', async () => {
    const res = await post({ identifier: '   ', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ identifier: LOGIN.usernameRequired, password: LOGIN.passwordRequired });
  });

  it('gives the same message for an unknown user and a wrong password', async () => {
    const acc = await makeAccount(t.ctx);
    const unknown = await post({ identifier: 'nobody_at_all', password: 'whatever' });
    const wrong = await post({ identifier: acc.username, password: 'wrong-password' });
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe(LOGIN.invalidCredentials);
    }
  });

  it('accepts a legacy plain-text password once and replaces it by a bcrypt hash', async () => {
    const acc = await makeAccount(t.ctx, { state: { password: 'plainLegacy1!' } });
    const res = await post({ identifier: acc.username, password: 'plainLegacy1!' });
    expect(res.statusCode).toBe(200);
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.password.startsWith('$2')).toBe(true);
    expect((await post({ identifier: acc.username, password: 'plainLegacy1!' })).statusCode).toBe(200);
  });

  it('blocks a deleted account with its message and a LOGIN audit entry', async () => {
    const acc = await makeAccount(t.ctx, { state: { isDeleted: 1, deletedAt: new Date().toISOString() } });
    const res = await post({ identifier: acc.username, password: acc.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'ACCOUNT_DELETED', message: LOGIN.deletedAccount });
    const entry = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', acc.id)
      .where('action', '=', 'LOGIN')
      .executeTakeFirstOrThrow();
    expect(entry.collection).toBe('accounts');
    expect(JSON.parse(entry.details!)).toEqual({ status: 'active', isRestricted: false, isDeleted: true });
  });

  it('blocks a restricted account (by status or by flag) with its message', async () => {
    const byStatus = await makeAccount(t.ctx, { state: { status: 'restricted' } });
    const byFlag = await makeAccount(t.ctx, { state: { isRestricted: 1 } });
    for (const acc of [byStatus, byFlag]) {
      const res = await post({ identifier: acc.username, password: acc.password });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(LOGIN.restrictedAccount);
    }
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select('details')
      .where('documentId', '=', byFlag.id)
      .where('action', '=', 'LOGIN')
      .execute();
    expect(JSON.parse(entries[0]!.details!)).toMatchObject({ isRestricted: true });
  });

  it('reveals nothing about a blocked account to a wrong password', async () => {
    const acc = await makeAccount(t.ctx, { state: { status: 'restricted' } });
    const res = await post({ identifier: acc.username, password: 'not-the-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(LOGIN.invalidCredentials);
  });

  it('ends the previous session when the account signs in again', async () => {
    const acc = await makeAccount(t.ctx);
    const first = await loginAs(t.app, acc);
    expect((await t.app.inject({ url: '/api/auth/session', headers: { cookie: first } })).statusCode).toBe(200);
    const second = await loginAs(t.app, acc);
    const old = await t.app.inject({ url: '/api/auth/session', headers: { cookie: first } });
    expect(old.statusCode).toBe(401);
    expect(old.json().error.reason).toBe('session_ended');
    expect((await t.app.inject({ url: '/api/auth/session', headers: { cookie: second } })).statusCode).toBe(200);
  });

  it('logs out: clears currentSession, sets lastLogoutAt, and the cookie stops working', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(204);
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.currentSession).toBeNull();
    expect(row.lastLogoutAt).not.toBeNull();
    expect((await t.app.inject({ url: '/api/dashboard/counts', headers: { cookie } })).statusCode).toBe(401);
    // A stale cookie still logs out cleanly.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(204);
  });

  it('never exposes the session for requests without a cookie', async () => {
    const res = await t.app.inject({ url: '/api/auth/session' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });
});

describe('idle timeout and rate limits', () => {
  it('ends a session idle longer than the configured timeout, with reason inactivity', async () => {
    const short = await createTestApp({ sessionIdleTimeoutMs: 300 });
    try {
      const acc = await makeAccount(short.ctx);
      const cookie = await loginAs(short.app, acc);
      expect((await short.app.inject({ url: '/api/dashboard/counts', headers: { cookie } })).statusCode).toBe(200);
      // The session was last seen longer ago than the timeout (as if the user had walked away).
      await short.ctx.db
        .updateTable('sessions')
        .set({ lastSeenAt: new Date(Date.now() - 450).toISOString() })
        .where('accountId', '=', acc.id)
        .execute();
      const res = await short.app.inject({ url: '/api/dashboard/counts', headers: { cookie } });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.reason).toBe('inactivity');
      const row = (await accountsRepository.findById(short.ctx.db, acc.id))!;
      expect(row.currentSession).toBeNull();
    } finally {
      await short.close();
    }
  });

  it('ends a session older than SESSION_MAX_AGE_HOURS even while it is in use', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    expect((await t.app.inject({ url: '/api/dashboard/counts', headers: { cookie } })).statusCode).toBe(200);
    // Signed in 12 hours and a minute ago, active a moment ago.
    await t.ctx.db
      .updateTable('sessions')
      .set({ createdAt: new Date(Date.now() - 12 * 3_600_000 - 60_000).toISOString() })
      .where('accountId', '=', acc.id)
      .execute();
    const res = await t.app.inject({ url: '/api/dashboard/counts', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.reason).toBe('session_ended');
    const session = await t.ctx.db.selectFrom('sessions').select(['endedReason']).where('accountId', '=', acc.id).executeTakeFirstOrThrow();
    expect(session.endedReason).toBe('expired');
  });

  it('stops password guessing per account, even with the right password afterwards', async () => {
    const limited = await createTestApp({ loginFailuresPerAccount: 3 });
    try {
      const acc = await makeAccount(limited.ctx);
      const codes: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        codes.push(
          (await limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: acc.username, password: 'nope' } }))
            .statusCode,
        );
      }
      // The failure that reaches the limit already says so.
      expect(codes).toEqual([401, 401, 429]);
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { identifier: acc.username, password: acc.password },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.message).toMatch(/^Too many attempts\. This account is locked for 1[45] minutes/);
    } finally {
      await limited.close();
    }
  });

  it('limits login requests per IP', async () => {
    const limited = await createTestApp({ loginRateLimitPerMinute: 2 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        codes.push(
          (await limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: `x${i}`, password: 'y' } }))
            .statusCode,
        );
      }
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('keeps signing in after a session was replaced in another browser', async () => {
    const acc = await makeAccount(t.ctx);
    await login(t.app, acc.username, acc.password);
    await login(t.app, acc.email, acc.password);
  });
});
