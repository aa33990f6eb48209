import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionList } from '../../common/schemas/sessions.js';
import { describeUserAgent, SESSIONS } from '../../common/sessions.js';
import { ACCOUNT_COLUMNS, findSessionByToken } from '../../server/platform/identity/sessions.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { recordEvents } from '../fixtures/accounts.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

async function signIn(t: TestApp, account: TestAccount, userAgent: string, ip = '10.0.0.7'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    headers: { 'user-agent': userAgent },
    payload: { identifier: account.username, password: account.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return `palayan_session=${res.cookies.find((c) => c.name === 'palayan_session')!.value}`;
}

const call = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string) =>
  t.app.inject({ method, url, headers: { cookie } });
const alive = async (t: TestApp, cookie: string) => (await call(t, 'GET', '/api/profile', cookie)).statusCode === 200;

describe('user agents', () => {
  it('names the browser and the system', () => {
    expect(describeUserAgent(CHROME_WINDOWS)).toBe('Chrome on Windows');
    expect(describeUserAgent(EDGE_WINDOWS)).toBe('Edge on Windows');
    expect(describeUserAgent(FIREFOX_ANDROID)).toBe('Firefox on Android');
    expect(describeUserAgent(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(describeUserAgent(null)).toBe('Unknown device');
    expect(describeUserAgent('<script>alert(1)</script>')).toBe('Unknown device');
  });
});

describe('the session lookup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads every column the accounts table has, by name, and the account as stored', async () => {
    const me = await makeAccount(t.ctx);
    const cookie = await signIn(t, me, CHROME_WINDOWS);
    const stored = await t.ctx.db.selectFrom('accounts').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();
    expect([...ACCOUNT_COLUMNS].sort()).toEqual(Object.keys(stored).sort());
    const session = await findSessionByToken(t.ctx.db, cookie.slice('palayan_session='.length));
    expect(session?.account).toEqual(stored);
    expect(await findSessionByToken(t.ctx.db, 'not-a-token')).toBeUndefined();
  });
});

describe('sessions, one per account (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("keeps docs/PRODUCT.md's rule: a new login ends the older session; the list shows the one open", async () => {
    const me = await makeAccount(t.ctx);
    const first = await signIn(t, me, CHROME_WINDOWS);
    const second = await signIn(t, me, FIREFOX_ANDROID, '10.0.0.9');
    expect(await alive(t, first)).toBe(false);
    const list: SessionList = (await call(t, 'GET', '/api/profile/sessions', second)).json();
    expect(list.items).toEqual([expect.objectContaining({ device: 'Firefox on Android', ip: '10.0.0.9', current: true })]);
  });

  it("refuses an ADMIN the Accounts screen's session routes", async () => {
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    const cookie = await loginAs(t.app, admin);
    const other = await makeAccount(t.ctx);
    expect((await call(t, 'GET', `/api/accounts/${other.id}/sessions`, cookie)).statusCode).toBe(403);
    expect((await call(t, 'POST', `/api/accounts/${other.id}/sessions/sign-out-all`, cookie)).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/profile/sessions', '')).statusCode).toBe(401);
  });
});

describe('sessions, several per account (MAX_SESSIONS_PER_ACCOUNT=3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ maxSessionsPerAccount: 3 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps up to three open; a fourth login ends the least recently active one', async () => {
    const me = await makeAccount(t.ctx);
    const a = await signIn(t, me, CHROME_WINDOWS);
    const b = await signIn(t, me, FIREFOX_ANDROID);
    const c = await signIn(t, me, SAFARI_IPHONE);
    expect([await alive(t, a), await alive(t, b), await alive(t, c)]).toEqual([true, true, true]);
    const list: SessionList = (await call(t, 'GET', '/api/profile/sessions', c)).json();
    expect(list.items.map((s) => s.device).sort()).toEqual(['Chrome on Windows', 'Firefox on Android', 'Safari on iOS']);
    expect(list.items.filter((s) => s.current).map((s) => s.device)).toEqual(['Safari on iOS']);
    // Make a the least recently active, then a fourth login ends it.
    await t.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: new Date(Date.now() - 60_000).toISOString() })
      .where('accountId', '=', me.id)
      .where('userAgent', '=', CHROME_WINDOWS)
      .execute();
    const d = await signIn(t, me, EDGE_WINDOWS);
    expect([await alive(t, a), await alive(t, b), await alive(t, c), await alive(t, d)]).toEqual([false, true, true, true]);
  });

  it('signs out one other session: audited, announced on the live stream, and that session is gone', async () => {
    const me = await makeAccount(t.ctx, { fullname: 'Jose Rizal' });
    const desk = await signIn(t, me, CHROME_WINDOWS);
    const phone = await signIn(t, me, FIREFOX_ANDROID, '10.1.1.1');
    const phoneId = (await call(t, 'GET', '/api/profile/sessions', desk)).json().items.find((s: { current: boolean }) => !s.current)
      .id as string;
    const events = recordEvents(t.ctx);
    const res = await call(t, 'DELETE', `/api/profile/sessions/${phoneId}`, desk);
    expect(res.statusCode, res.body).toBe(204);
    await events.waitFor((e) => e.topic === 'session' && e.id === phoneId && e.reason === 'signed_out');
    events.stop();
    expect(await alive(t, phone)).toBe(false);
    expect(await alive(t, desk)).toBe(true);
    // The phone's next request says why, so its tab tells the farmer even when the live event did not reach it.
    const told = await call(t, 'GET', '/api/profile', phone);
    expect([told.statusCode, told.json().error.reason]).toEqual([401, 'signed_out']);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'SIGN_OUT')
      .where('documentId', '=', me.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: me.id, collection: 'accounts', description: 'Signed out a session (Firefox on Android)' });
    // Again: not open any more. Its own session: that is Logout.
    expect((await call(t, 'DELETE', `/api/profile/sessions/${phoneId}`, desk)).statusCode).toBe(404);
    const ownId = (await call(t, 'GET', '/api/profile/sessions', desk)).json().items[0].id as string;
    const own = await call(t, 'DELETE', `/api/profile/sessions/${ownId}`, desk);
    expect(own.statusCode).toBe(400);
    expect(own.json().error.message).toBe(SESSIONS.useLogout);
  });

  it("cannot end another account's session through Account Settings", async () => {
    const me = await makeAccount(t.ctx);
    const other = await makeAccount(t.ctx);
    const mine = await signIn(t, me, CHROME_WINDOWS);
    const theirs = await signIn(t, other, CHROME_WINDOWS);
    const theirId = (await call(t, 'GET', '/api/profile/sessions', theirs)).json().items[0].id as string;
    expect((await call(t, 'DELETE', `/api/profile/sessions/${theirId}`, mine)).statusCode).toBe(404);
    expect(await alive(t, theirs)).toBe(true);
  });

  it('signs out everywhere else, keeping this session', async () => {
    const me = await makeAccount(t.ctx);
    const a = await signIn(t, me, CHROME_WINDOWS);
    const b = await signIn(t, me, FIREFOX_ANDROID);
    const c = await signIn(t, me, SAFARI_IPHONE);
    const res = await call(t, 'POST', '/api/profile/sessions/sign-out-others', c);
    expect(res.json()).toEqual({ ended: 2 });
    expect([await alive(t, a), await alive(t, b), await alive(t, c)]).toEqual([false, false, true]);
    expect((await call(t, 'POST', '/api/profile/sessions/sign-out-others', c)).json()).toEqual({ ended: 0 });
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('action', '=', 'SIGN_OUT')
      .where('documentId', '=', me.id)
      .execute();
    expect(audit.map((r) => r.description)).toEqual(['Signed out 2 other sessions']);
  });

  it("lets a super admin see and end any account's sessions, audited under the super admin", async () => {
    const boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN', fullname: 'Gabriela Silang' });
    const bossCookie = await loginAs(t.app, boss);
    const staff = await makeAccount(t.ctx);
    const s1 = await signIn(t, staff, CHROME_WINDOWS);
    const s2 = await signIn(t, staff, SAFARI_IPHONE);
    const list: SessionList = (await call(t, 'GET', `/api/accounts/${staff.id}/sessions`, bossCookie)).json();
    expect(list.items).toHaveLength(2);
    expect(list.items.every((s) => !s.current)).toBe(true);
    const iphone = list.items.find((s) => s.device === 'Safari on iOS')!;
    expect((await call(t, 'DELETE', `/api/accounts/${staff.id}/sessions/${iphone.id}`, bossCookie)).statusCode).toBe(204);
    expect([await alive(t, s1), await alive(t, s2)]).toEqual([true, false]);
    expect((await call(t, 'POST', `/api/accounts/${staff.id}/sessions/sign-out-all`, bossCookie)).json()).toEqual({ ended: 1 });
    expect(await alive(t, s1)).toBe(false);
    expect(await alive(t, bossCookie)).toBe(true);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['userId', 'description'])
      .where('action', '=', 'SIGN_OUT')
      .where('documentId', '=', staff.id)
      .orderBy('seq')
      .execute();
    expect(audit).toEqual([
      { userId: boss.id, description: `Signed out a session of ${staff.username} (Safari on iOS)` },
      { userId: boss.id, description: `Signed out all 1 session of ${staff.username}` },
    ]);
    // A session id of another account under this account's path is not found.
    const other = await makeAccount(t.ctx);
    const otherCookie = await signIn(t, other, CHROME_WINDOWS);
    const otherId = (await call(t, 'GET', `/api/accounts/${other.id}/sessions`, bossCookie)).json().items[0].id as string;
    expect((await call(t, 'DELETE', `/api/accounts/${staff.id}/sessions/${otherId}`, bossCookie)).statusCode).toBe(404);
    expect(await alive(t, otherCookie)).toBe(true);
    expect((await call(t, 'GET', '/api/accounts/nope/sessions', bossCookie)).statusCode).toBe(404);
  });

  it("ends only the idle session after the idle timeout, not the account's others", async () => {
    const me = await makeAccount(t.ctx);
    const idle = await signIn(t, me, CHROME_WINDOWS);
    const busy = await signIn(t, me, FIREFOX_ANDROID);
    await t.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: new Date(Date.now() - t.ctx.config.sessionIdleTimeoutMs - 1000).toISOString() })
      .where('accountId', '=', me.id)
      .where('userAgent', '=', CHROME_WINDOWS)
      .execute();
    expect((await call(t, 'GET', '/api/profile/sessions', busy)).json().items).toHaveLength(1);
    const res = await call(t, 'GET', '/api/profile', idle);
    expect(res.statusCode).toBe(401);
    expect(await alive(t, busy)).toBe(true);
  });
});
