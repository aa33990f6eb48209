import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS } from '../../common/accounts.js';
import { PASSWORD_IS_HASH_MESSAGE, PASSWORD_RULES_MESSAGE, PASSWORD_TOO_LONG_MESSAGE } from '../../common/password.js';
import { LOGIN } from '../../common/texts.js';
import { accountsRepository } from '../../server/modules/identity/accounts/repository.js';
import { createAccountsService } from '../../server/modules/identity/accounts/service.js';
import { newChallenge } from '../../server/modules/identity/credentials/second-factor/challenges.js';
import { writeAudit } from '../../server/platform/writes/audit.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { daysAgo, newAdminBody, recordEvents, superAdminSession } from '../fixtures/accounts.js';
import { login, loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';

const M = ACCOUNTS.messages;

let t: TestApp;
let su: { account: TestAccount; cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  su = await superAdminSession(t.app, t.ctx);
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });

const row = async (id: string) => (await accountsRepository.findById(t.ctx.db, id))!;
const auditFor = (id: string) => t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', id).orderBy('seq', 'asc').execute();
const sessionOk = async (cookie: string) => (await call('GET', '/api/auth/session', cookie)).statusCode === 200;

/** Secrets that must never leave the server, looked for in every response body. */
function assertNoSecrets(body: string, ...extra: string[]) {
  expect(body).not.toMatch(/\$2[abxy]\$/);
  expect(body).not.toMatch(/"password"|"securityAnswer"|"currentSession"|"tokenHash"/);
  for (const value of extra) if (value) expect(body).not.toContain(value);
}

describe('access: SYSTEM_ADMIN only, on every route', () => {
  it('answers 401 without a session and 403 for an ADMIN, changing nothing', async () => {
    const target = await makeAccount(t.ctx);
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    const adminCookie = await loginAs(t.app, admin);
    const before = await row(target.id);
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', '/api/accounts'],
      ['GET', '/api/accounts?q=maria&page=1'],
      ['GET', `/api/accounts/availability?field=username&value=${target.username}`],
      ['GET', `/api/accounts/${target.id}`],
      ['POST', '/api/accounts', newAdminBody()],
      [
        'PUT',
        `/api/accounts/${target.id}`,
        { fullname: 'Changed Name', email: target.email, username: target.username, version: before.version },
      ],
      ['POST', `/api/accounts/${target.id}/restrict`, { confirmName: target.fullname }],
      ['POST', `/api/accounts/${target.id}/unrestrict`],
      ['DELETE', `/api/accounts/${target.id}`, { confirmName: target.fullname }],
    ];
    for (const [method, url, payload] of routes) {
      const anonymous = await call(method, url, undefined, payload);
      expect(anonymous.statusCode, `${method} ${url} without session`).toBe(401);
      const forbidden = await call(method, url, adminCookie, payload);
      expect(forbidden.statusCode, `${method} ${url} as ADMIN`).toBe(403);
      expect(forbidden.json().error.code).toBe('FORBIDDEN');
    }
    expect(await row(target.id)).toEqual(before);
    expect(await sessionOk(adminCookie)).toBe(true);
  });
});

describe('list', () => {
  it('shows the table fields, never a secret, and the three statuses', async () => {
    const restricted = await makeAccount(t.ctx, {
      fullname: 'Zeta Restricted',
      state: { status: 'restricted', isRestricted: 1, restrictedAt: new Date().toISOString() },
    });
    const inactive = await makeAccount(t.ctx, {
      fullname: 'Zeta Inactive',
      state: { status: 'inactive', autoInactive: 1, autoInactiveAt: new Date().toISOString() },
    });
    const active = await makeAccount(t.ctx, { fullname: 'Zeta Active', role: 'SYSTEM_ADMIN' });
    await accountsRepository.update(t.ctx.db, active.id, { securityAnswer: 'secret-answer-xyz' });
    const activeCookie = await loginAs(t.app, active);
    const res = await call('GET', '/api/accounts?q=zeta', su.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const byId = new Map(body.items.map((i: { id: string }) => [i.id, i]));
    expect(byId.get(restricted.id)).toMatchObject({ displayStatus: 'restricted', isRestricted: true, role: 'ADMIN' });
    expect(byId.get(inactive.id)).toMatchObject({ displayStatus: 'inactive', autoInactive: true, status: 'inactive' });
    expect(byId.get(active.id)).toMatchObject({
      displayStatus: 'active',
      role: 'SYSTEM_ADMIN',
      fullname: 'Zeta Active',
      username: active.username,
      email: active.email,
    });
    expect((byId.get(active.id) as { lastLogin: string }).lastLogin).not.toBeNull();
    const stored = await row(active.id);
    assertNoSecrets(res.body, stored.currentSession!, 'secret-answer-xyz', activeCookie.split('=')[1]!);
    expect(Object.keys(body.items[0]).sort()).toEqual([
      'autoInactive',
      'autoInactiveAt',
      'contactNo',
      'createdAt',
      'displayStatus',
      'email',
      'fullname',
      'hasActivities',
      'hasSecondFactor',
      'id',
      'isRestricted',
      'lastLogin',
      'lastLogoutAt',
      'needsPassword',
      'photoURL',
      'restrictedAt',
      'role',
      'signInLockedUntil',
      'status',
      'updatedAt',
      'username',
      'version',
    ]);
  });

  it('searches name, email and username on the server, case-insensitively, and hides deleted accounts', async () => {
    const tag = `srch${Date.now().toString(36)}`;
    const byName = await makeAccount(t.ctx, { fullname: `Andres ${tag.toUpperCase()} Bonifacio` });
    const byEmail = await makeAccount(t.ctx);
    await accountsRepository.update(t.ctx.db, byEmail.id, { email: `${tag}@da.example`, normalizedEmail: `${tag}@da.example` });
    const byUsername = await makeAccount(t.ctx);
    await accountsRepository.update(t.ctx.db, byUsername.id, { username: `x_${tag}_y`, normalizedUsername: `x_${tag}_y` });
    const deleted = await makeAccount(t.ctx, { fullname: `Deleted ${tag}`, state: { isDeleted: 1 } });
    const res = await call('GET', `/api/accounts?q=${encodeURIComponent(`  ${tag.toUpperCase()} `)}`, su.cookie);
    const ids = res
      .json()
      .items.map((i: { id: string }) => i.id)
      .sort();
    expect(ids).toEqual([byName.id, byEmail.id, byUsername.id].sort());
    expect(ids).not.toContain(deleted.id);
    // LIKE wildcards are matched literally.
    expect((await call('GET', '/api/accounts?q=%25%25%25', su.cookie)).json().items).toEqual([]);
  });

  it('pages by 20, newest first, with the page count, and clamps a page past the end', async () => {
    const own = await createTestApp();
    try {
      const me = await superAdminSession(own.app, own.ctx);
      for (let i = 0; i < 44; i += 1) await makeAccount(own.ctx, { fullname: `Page Person ${i}` });
      const get = (url: string) => own.app.inject({ url, headers: { cookie: me.cookie } });
      const first = (await get('/api/accounts')).json();
      expect(first).toMatchObject({ page: 1, pageSize: 20, pageCount: 3, total: 45 });
      expect(first.items).toHaveLength(20);
      const created = first.items.map((i: { createdAt: string }) => i.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
      const third = (await get('/api/accounts?page=3')).json();
      expect(third.items).toHaveLength(5);
      const past = (await get('/api/accounts?page=99')).json();
      expect(past.page).toBe(3);
      const all = new Set(
        [...first.items, ...(await get('/api/accounts?page=2')).json().items, ...third.items].map((i: { id: string }) => i.id),
      );
      expect(all.size).toBe(45);
      const none = (await get('/api/accounts?q=nobody-matches-this')).json();
      expect(none).toMatchObject({ items: [], page: 1, pageCount: 1, total: 0 });
    } finally {
      await own.close();
    }
  });

  it('refuses bad query values with a 400', async () => {
    expect((await call('GET', '/api/accounts?page=0', su.cookie)).statusCode).toBe(400);
    expect((await call('GET', '/api/accounts?page=abc', su.cookie)).statusCode).toBe(400);
    expect((await call('GET', `/api/accounts?q=${'a'.repeat(400)}`, su.cookie)).statusCode).toBe(400);
  });
});

describe('availability check', () => {
  it('tells taken from free, ignoring case and spaces, and ignores the account being edited', async () => {
    const acc = await makeAccount(t.ctx);
    const check = async (field: string, value: string, excludeId?: string) => {
      const res = await call(
        'GET',
        `/api/accounts/availability?field=${field}&value=${encodeURIComponent(value)}${excludeId ? `&excludeId=${excludeId}` : ''}`,
        su.cookie,
      );
      expect(res.statusCode).toBe(200);
      return res.json().available as boolean;
    };
    expect(await check('username', ` ${acc.username.toUpperCase()} `)).toBe(false);
    expect(await check('email', acc.email.toUpperCase())).toBe(false);
    expect(await check('username', `${acc.username}_free`)).toBe(true);
    expect(await check('email', `free_${acc.email}`)).toBe(true);
    expect(await check('username', acc.username, acc.id)).toBe(true);
    expect(await check('email', acc.email, acc.id)).toBe(true);
    expect(await check('username', acc.username, su.account.id)).toBe(false);
  });

  it('keeps the username and email of a deleted account reserved', async () => {
    const gone = await makeAccount(t.ctx, { state: { isDeleted: 1 } });
    const res = await call('GET', `/api/accounts/availability?field=username&value=${gone.username}`, su.cookie);
    expect(res.json().available).toBe(false);
  });

  it('refuses an unknown field with a 400', async () => {
    expect((await call('GET', '/api/accounts/availability?field=password&value=x', su.cookie)).statusCode).toBe(400);
  });
});

describe('create', () => {
  it('creates an active, unrestricted account with a bcrypt hash, its audit entry and a live event', async () => {
    const events = recordEvents(t.ctx);
    const body = newAdminBody({ fullname: '  Juan dela Cruz  ', username: `  ${newAdminBody().username}  ` });
    const res = await call('POST', '/api/accounts', su.cookie, body);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    assertNoSecrets(res.body);
    expect(created).toMatchObject({
      fullname: 'Juan dela Cruz',
      username: body.username.trim(),
      email: body.email,
      role: 'ADMIN',
      status: 'active',
      displayStatus: 'active',
      isRestricted: false,
      lastLogin: null,
      hasActivities: false,
      version: 1,
    });
    const stored = await row(created.id);
    expect(stored.password.startsWith('$2')).toBe(true);
    expect(await bcrypt.compare(body.password, stored.password)).toBe(true);
    expect(stored.normalizedUsername).toBe(body.username.trim().toLowerCase());
    const [entry] = await auditFor(created.id);
    expect(entry).toMatchObject({
      action: 'CREATE',
      collection: 'accounts',
      userId: su.account.id,
      userName: su.account.fullname,
      documentName: 'Juan dela Cruz',
    });
    expect(entry!.changes).not.toContain(body.password);
    await events.waitFor((e) => e.topic === 'accounts' && e.id === created.id && e.op === 'create');
    events.stop();
    // The new admin can sign in with the password given.
    await login(t.app, body.username.trim(), body.password);
  });

  it('creates a super admin when asked', async () => {
    const res = await call('POST', '/api/accounts', su.cookie, {
      ...newAdminBody({ role: 'SYSTEM_ADMIN' }),
      currentPassword: su.account.password,
    });
    expect(res.json().role).toBe('SYSTEM_ADMIN');
  });

  it('checks every field with the form messages and stores nothing when one fails', async () => {
    const before = await accountsRepository.countAll(t.ctx.db);
    const res = await call('POST', '/api/accounts', su.cookie, {
      fullname: '  ',
      email: 'not-an-email',
      username: 'short',
      password: 'weakpass',
      role: 'ADMIN',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      fullname: M.fullnameRequired,
      email: M.emailInvalid,
      username: M.usernameMin,
      password: PASSWORD_RULES_MESSAGE,
    });
    for (const password of ['Short#1', 'nouppercase#1', 'NoNumber#', 'NoSpecial1']) {
      const r = await call('POST', '/api/accounts', su.cookie, newAdminBody({ password }));
      expect(r.statusCode, password).toBe(400);
      expect(r.json().error.fields).toEqual({ password: PASSWORD_RULES_MESSAGE });
    }
    for (const email of ['a@b', 'a b@c.d', '@c.d']) {
      expect((await call('POST', '/api/accounts', su.cookie, newAdminBody({ email }))).json().error.fields).toEqual({
        email: M.emailInvalid,
      });
    }
    expect((await call('POST', '/api/accounts', su.cookie, newAdminBody({ username: 'has space in it' }))).json().error.fields).toEqual({
      username: M.usernameChars,
    });
    expect((await call('POST', '/api/accounts', su.cookie, { ...newAdminBody(), role: 'OWNER' })).statusCode).toBe(400);
    expect((await call('POST', '/api/accounts', su.cookie, { ...newAdminBody(), fullname: 42 })).statusCode).toBe(400);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers: { cookie: su.cookie, 'content-type': 'application/json' },
      payload: '{"fullname":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await accountsRepository.countAll(t.ctx.db)).toBe(before);
  });

  it('answers a taken username or email with the form messages (case-insensitive)', async () => {
    const acc = await makeAccount(t.ctx);
    const dupUser = await call('POST', '/api/accounts', su.cookie, newAdminBody({ username: acc.username.toUpperCase() }));
    expect(dupUser.statusCode).toBe(409);
    expect(dupUser.json().error).toMatchObject({ message: M.usernameTaken, fields: { username: M.usernameTaken } });
    const dupEmail = await call('POST', '/api/accounts', su.cookie, newAdminBody({ email: ` ${acc.email.toUpperCase()}` }));
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().error.fields).toEqual({ email: M.emailTaken });
    const both = await call('POST', '/api/accounts', su.cookie, newAdminBody({ username: acc.username, email: acc.email }));
    expect(both.json().error.fields).toEqual({ username: M.usernameTaken, email: M.emailTaken });
  });

  it('lets only one of two simultaneous creates of one username win', async () => {
    const username = newAdminBody().username;
    const [a, b] = await Promise.all([
      call('POST', '/api/accounts', su.cookie, newAdminBody({ username })),
      call('POST', '/api/accounts', su.cookie, newAdminBody({ username: username.toUpperCase() })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().error.fields).toEqual({ username: M.usernameTaken });
    const rows = await t.ctx.db.selectFrom('accounts').select('id').where('normalizedUsername', '=', username.toLowerCase()).execute();
    expect(rows).toHaveLength(1);
    // Either spelling may win; LIKE is case-sensitive on PostgreSQL, so compare in lower case here.
    const audits = (await t.ctx.db.selectFrom('audit_logs').select('description').where('action', '=', 'CREATE').execute()).filter((r) =>
      (r.description ?? '').toLowerCase().includes(username.toLowerCase()),
    );
    expect(audits).toHaveLength(1);
  });

  it('lets only one of two simultaneous creates of one email win', async () => {
    const email = newAdminBody().email;
    const results = await Promise.all([1, 2, 3].map(() => call('POST', '/api/accounts', su.cookie, newAdminBody({ email }))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().error.fields).toEqual({ email: M.emailTaken });
  });

  it('refuses a ready-made bcrypt hash and a password over 72 bytes, storing nothing', async () => {
    const hash = await bcrypt.hash('Imported#1', 4);
    const asHash = newAdminBody({ password: hash });
    const refused = await call('POST', '/api/accounts', su.cookie, asHash);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.password).toBe(PASSWORD_IS_HASH_MESSAGE);
    const tooLong = newAdminBody({ password: `Aa1!${'ñ'.repeat(40)}` });
    const long = await call('POST', '/api/accounts', su.cookie, tooLong);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.password).toBe(PASSWORD_TOO_LONG_MESSAGE);
    for (const body of [asHash, tooLong]) expect(await accountsRepository.findByIdentifier(t.ctx.db, body.username)).toBeUndefined();
    // The same on edit: the stored hash stays.
    const made = (await call('POST', '/api/accounts', su.cookie, newAdminBody())).json();
    const before = (await row(made.id)).password;
    const edit = await call('PUT', `/api/accounts/${made.id}`, su.cookie, { ...newAdminBody(), password: hash, version: made.version });
    expect(edit.statusCode).toBe(400);
    expect((await row(made.id)).password).toBe(before);
  });
});

describe('update', () => {
  /** An edit confirmed with the editor's password (asked for password, email and role changes). */
  const edit = (id: string, payload: object, cookie = su.cookie, currentPassword = su.account.password) =>
    call('PUT', `/api/accounts/${id}`, cookie, { currentPassword, ...payload });

  it("a new password ends the account's sessions and voids its reset links, recovery flows and sign-in challenges", async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 600_000).toISOString();
    await t.ctx.db
      .insertInto('password_reset_tokens')
      .values({ tokenHash: `pw-${acc.id}`, accountId: acc.id, purpose: 'email_link', createdAt: now, expiresAt: later, usedAt: null })
      .execute();
    await t.ctx.db
      .insertInto('recovery_flows')
      .values({ id: `flow-${acc.id}`, accountId: acc.id, ip: null, createdAt: now, expiresAt: later })
      .execute();
    const challenge = await newChallenge(t.ctx.db, acc.id, 'verify', null, 300_000);
    const before = await row(acc.id);
    const res = await edit(acc.id, {
      fullname: acc.fullname,
      username: acc.username,
      email: acc.email,
      password: 'Brand#New2026',
      version: before.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sessionOk(cookie)).toBe(false);
    const token = await t.ctx.db
      .selectFrom('password_reset_tokens')
      .select('usedAt')
      .where('tokenHash', '=', `pw-${acc.id}`)
      .executeTakeFirstOrThrow();
    expect(token.usedAt).not.toBeNull();
    expect(await t.ctx.db.selectFrom('recovery_flows').selectAll().where('accountId', '=', acc.id).execute()).toEqual([]);
    const step = await call('POST', '/api/auth/login/second-factor', undefined, { challenge, code: '123456' });
    expect(step.json().error.code).toBe('SIGN_IN_EXPIRED');
  });

  it('changes name, username and email; an empty or missing password keeps the stored hash', async () => {
    const acc = await makeAccount(t.ctx);
    const before = await row(acc.id);
    const cookie = await loginAs(t.app, acc);
    const events = recordEvents(t.ctx);
    const next = newAdminBody();
    const res = await edit(acc.id, {
      fullname: 'Gabriela Silang',
      username: next.username,
      email: next.email,
      password: '',
      version: before.version,
    });
    expect(res.statusCode).toBe(200);
    assertNoSecrets(res.body);
    expect(res.json()).toMatchObject({
      fullname: 'Gabriela Silang',
      username: next.username,
      email: next.email,
      version: before.version + 1,
    });
    const after = await row(acc.id);
    expect(after.password).toBe(before.password);
    expect(after.normalizedEmail).toBe(next.email.toLowerCase());
    expect(after.updatedAt).not.toBeNull();
    // No password or role change: the account's session goes on.
    expect(await sessionOk(cookie)).toBe(true);
    const entries = await auditFor(acc.id);
    const update = entries.find((e) => e.action === 'UPDATE')!;
    expect(update.userId).toBe(su.account.id);
    expect(JSON.parse(update.changes!)).toEqual({
      before: { fullname: acc.fullname, username: acc.username, email: acc.email },
      after: { fullname: 'Gabriela Silang', username: next.username, email: next.email },
    });
    await events.waitFor((e) => e.topic === 'accounts' && e.id === acc.id && e.op === 'update');
    events.stop();
    const again = await edit(acc.id, { fullname: 'Gabriela Silang', username: next.username, email: next.email, version: after.version });
    expect(again.statusCode).toBe(200);
    expect((await row(acc.id)).password).toBe(before.password);
  });

  it("hashes a new password, enforces the checklist, and ends the account's session at once", async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const sessionId = (await row(acc.id)).currentSession!;
    const v = (await row(acc.id)).version;
    const weak = await edit(acc.id, { fullname: acc.fullname, username: acc.username, email: acc.email, password: 'weak', version: v });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toEqual({ password: PASSWORD_RULES_MESSAGE });
    const events = recordEvents(t.ctx);
    const res = await edit(acc.id, {
      fullname: acc.fullname,
      username: acc.username,
      email: acc.email,
      password: 'Changed#2025',
      version: v,
    });
    expect(res.statusCode).toBe(200);
    const stored = await row(acc.id);
    expect(await bcrypt.compare('Changed#2025', stored.password)).toBe(true);
    expect(stored.currentSession).toBeNull();
    await events.waitFor((e) => e.topic === 'session' && e.id === sessionId && e.reason === 'password_changed');
    events.stop();
    expect(await sessionOk(cookie)).toBe(false);
    const entry = (await auditFor(acc.id)).find((e) => e.action === 'UPDATE')!;
    expect(entry.changes).not.toContain('Changed#2025');
    expect(entry.changes).not.toContain('$2');
    await login(t.app, acc.username, 'Changed#2025');
  });

  it("keeps the editor's own session when a super admin changes their own password", async () => {
    const me = await superAdminSession(t.app, t.ctx);
    const v = (await row(me.account.id)).version;
    const res = await edit(
      me.account.id,
      { fullname: me.account.fullname, username: me.account.username, email: me.account.email, password: 'MyOwn#2025', version: v },
      me.cookie,
      me.account.password,
    );
    expect(res.statusCode).toBe(200);
    expect(await sessionOk(me.cookie)).toBe(true);
  });

  it("changes the role through the API, ending the account's session; one's own role stays", async () => {
    const acc = await makeAccount(t.ctx, { role: 'ADMIN' });
    const cookie = await loginAs(t.app, acc);
    const v = (await row(acc.id)).version;
    const res = await edit(acc.id, { fullname: acc.fullname, username: acc.username, email: acc.email, role: 'SYSTEM_ADMIN', version: v });
    expect(res.statusCode).toBe(200);
    expect(res.json().role).toBe('SYSTEM_ADMIN');
    expect(await sessionOk(cookie)).toBe(false);
    const entry = (await auditFor(acc.id)).find((e) => e.action === 'UPDATE')!;
    expect(JSON.parse(entry.changes!).after).toMatchObject({ role: 'SYSTEM_ADMIN' });
    // The same role in the body is no change and ends nothing.
    const cookie2 = await loginAs(t.app, acc);
    const same = await edit(acc.id, {
      fullname: acc.fullname,
      username: acc.username,
      email: acc.email,
      role: 'SYSTEM_ADMIN',
      version: v + 1,
    });
    expect(same.statusCode).toBe(200);
    expect(await sessionOk(cookie2)).toBe(true);

    const me = await superAdminSession(t.app, t.ctx);
    const own = await edit(
      me.account.id,
      {
        fullname: me.account.fullname,
        username: me.account.username,
        email: me.account.email,
        role: 'ADMIN',
        version: (await row(me.account.id)).version,
      },
      me.cookie,
      me.account.password,
    );
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(M.cannotChangeOwnRole);
    expect((await row(me.account.id)).role).toBe('SYSTEM_ADMIN');
  });

  it('answers a stale version with 409 and the current record', async () => {
    const acc = await makeAccount(t.ctx);
    const v = (await row(acc.id)).version;
    expect((await edit(acc.id, { fullname: 'First Editor', username: acc.username, email: acc.email, version: v })).statusCode).toBe(200);
    const stale = await edit(acc.id, { fullname: 'Second Editor', username: acc.username, email: acc.email, version: v });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({
      code: 'VERSION_CONFLICT',
      currentVersion: v + 1,
      current: { fullname: 'First Editor', id: acc.id },
    });
    assertNoSecrets(stale.body);
    expect((await row(acc.id)).fullname).toBe('First Editor');
  });

  it("refuses a username or email held by another account, but not the account's own", async () => {
    const a = await makeAccount(t.ctx);
    const b = await makeAccount(t.ctx);
    const v = (await row(a.id)).version;
    const clash = await edit(a.id, { fullname: a.fullname, username: b.username.toUpperCase(), email: b.email, version: v });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.fields).toEqual({ username: M.usernameTaken, email: M.emailTaken });
    const own = await edit(a.id, { fullname: a.fullname, username: a.username.toUpperCase(), email: a.email, version: v });
    expect(own.statusCode).toBe(200);
    expect((await row(a.id)).username).toBe(a.username.toUpperCase());
  });

  it('answers 404 for an unknown or deleted account', async () => {
    const gone = await makeAccount(t.ctx, { state: { isDeleted: 1 } });
    for (const id of ['no-such-id', gone.id]) {
      expect((await edit(id, { fullname: 'X Person', username: 'someone_new', email: 'x@y.zz', version: 1 })).statusCode).toBe(404);
      expect((await call('GET', `/api/accounts/${id}`, su.cookie)).statusCode).toBe(404);
    }
  });
});

describe('restrict and unrestrict', () => {
  it('restricts after the full name is typed, ends the open session at once, and blocks login', async () => {
    const acc = await makeAccount(t.ctx, { fullname: 'Melchora Aquino' });
    const cookie = await loginAs(t.app, acc);
    const sessionId = (await row(acc.id)).currentSession!;
    const mismatch = await call('POST', `/api/accounts/${acc.id}/restrict`, su.cookie, { confirmName: 'Melchora' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields).toEqual({ confirmName: M.nameMismatch });
    expect((await row(acc.id)).isRestricted).toBe(0);

    const events = recordEvents(t.ctx);
    const res = await call('POST', `/api/accounts/${acc.id}/restrict`, su.cookie, { confirmName: '  Melchora Aquino ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'restricted', displayStatus: 'restricted', isRestricted: true });
    const stored = await row(acc.id);
    expect(stored).toMatchObject({ status: 'restricted', isRestricted: 1, currentSession: null });
    expect(stored.restrictedAt).not.toBeNull();
    await events.waitFor((e) => e.topic === 'session' && e.id === sessionId && e.reason === 'restricted');
    await events.waitFor((e) => e.topic === 'accounts' && e.id === acc.id && e.op === 'restrict');
    events.stop();
    expect(await sessionOk(cookie)).toBe(false);
    const entry = (await auditFor(acc.id)).find((e) => e.action === 'RESTRICT')!;
    expect(entry).toMatchObject({ collection: 'accounts', userId: su.account.id, documentName: 'Melchora Aquino' });
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: acc.username, password: acc.password },
    });
    expect(blocked.json().error.message).toBe(LOGIN.restrictedAccount);

    const again = await call('POST', `/api/accounts/${acc.id}/restrict`, su.cookie, { confirmName: 'Melchora Aquino' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(M.alreadyRestricted);
  });

  it('unrestricts without confirmation: status active, flag false, restrictedAt null; login works again', async () => {
    const acc = await makeAccount(t.ctx, {
      state: { status: 'restricted', isRestricted: 1, restrictedAt: new Date().toISOString(), autoInactive: 1 },
    });
    const events = recordEvents(t.ctx);
    const res = await call('POST', `/api/accounts/${acc.id}/unrestrict`, su.cookie);
    expect(res.statusCode).toBe(200);
    expect(await row(acc.id)).toMatchObject({ status: 'active', isRestricted: 0, restrictedAt: null, autoInactive: 0 });
    const entry = (await auditFor(acc.id)).find((e) => e.action === 'UNRESTRICT')!;
    expect(entry.userId).toBe(su.account.id);
    await events.waitFor((e) => e.topic === 'accounts' && e.id === acc.id && e.op === 'unrestrict');
    events.stop();
    await loginAs(t.app, acc);
    const twice = await call('POST', `/api/accounts/${acc.id}/unrestrict`, su.cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(M.notRestricted);
  });

  it("refuses to restrict one's own account", async () => {
    const res = await call('POST', `/api/accounts/${su.account.id}/restrict`, su.cookie, { confirmName: su.account.fullname });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(M.cannotRestrictSelf);
    expect((await row(su.account.id)).isRestricted).toBe(0);
    expect(await sessionOk(su.cookie)).toBe(true);
  });
});

describe('delete', () => {
  const del = (id: string, confirmName: string, cookie = su.cookie) => call('DELETE', `/api/accounts/${id}`, cookie, { confirmName });

  it('soft-deletes after the full name is typed, ends its session, and hides it', async () => {
    const acc = await makeAccount(t.ctx, { fullname: 'Apolinario Mabini' });
    const cookie = await loginAs(t.app, acc);
    expect((await del(acc.id, 'apolinario mabini')).statusCode).toBe(400);
    const events = recordEvents(t.ctx);
    const res = await del(acc.id, ' Apolinario Mabini ');
    expect(res.statusCode).toBe(204);
    const stored = await row(acc.id);
    expect(stored).toMatchObject({ isDeleted: 1, deletedBy: su.account.id, currentSession: null });
    expect(stored.deletedAt).not.toBeNull();
    expect(await sessionOk(cookie)).toBe(false);
    await events.waitFor((e) => e.topic === 'accounts' && e.id === acc.id && e.op === 'delete');
    events.stop();
    const entry = (await auditFor(acc.id)).find((e) => e.action === 'DELETE')!;
    expect(entry).toMatchObject({ collection: 'accounts', userId: su.account.id, documentName: 'Apolinario Mabini' });
    expect((await call('GET', `/api/accounts/${acc.id}`, su.cookie)).statusCode).toBe(404);
    const list = (await call('GET', `/api/accounts?q=${encodeURIComponent('Apolinario Mabini')}`, su.cookie)).json();
    expect(list.items).toEqual([]);
    expect((await del(acc.id, 'Apolinario Mabini')).statusCode).toBe(404);
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: acc.username, password: acc.password },
    });
    expect(blocked.json().error.message).toBe(LOGIN.deletedAccount);
  });

  it('refuses to delete an account that has activities (as userId, actorId or performedBy)', async () => {
    const viaUserId = await makeAccount(t.ctx, { fullname: 'Has Activity One' });
    await writeAudit(
      t.ctx.db,
      { id: viaUserId.id, fullname: viaUserId.fullname, email: viaUserId.email },
      {
        action: 'CREATE',
        collection: 'rice_local_pests',
        documentId: 'p-1',
        documentName: 'Rice bug',
        description: 'Added a pest',
      },
    );
    const viaActor = await makeAccount(t.ctx, { fullname: 'Has Activity Two' });
    const viaPerformer = await makeAccount(t.ctx, { fullname: 'Has Activity Three' });
    const legacy = (id: string, field: 'actorId' | 'performedBy') =>
      t.ctx.db
        .insertInto('audit_logs')
        .values({
          id: `legacy-${id}`,
          userId: null,
          actorId: field === 'actorId' ? id : null,
          performedBy: field === 'performedBy' ? id : null,
          timestamp: new Date().toISOString(),
          action: 'UPDATE',
          collection: 'rice_seed_varieties',
          documentId: 'v',
          documentName: 'NSIC Rc 222',
          userName: null,
          userEmail: null,
          description: null,
          changes: null,
          details: null,
          name: null,
        })
        .execute();
    await legacy(viaActor.id, 'actorId');
    await legacy(viaPerformer.id, 'performedBy');
    for (const acc of [viaUserId, viaActor, viaPerformer]) {
      const detail = (await call('GET', `/api/accounts/${acc.id}`, su.cookie)).json();
      expect(detail.hasActivities).toBe(true);
      const listed = (await call('GET', `/api/accounts?q=${encodeURIComponent(acc.username)}`, su.cookie)).json();
      expect(listed.items.map((i: { id: string; hasActivities: boolean }) => [i.id, i.hasActivities])).toEqual([[acc.id, true]]);
      const res = await del(acc.id, acc.fullname);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ message: M.cannotDeleteHasActivities, reason: 'has_activities' });
      expect((await row(acc.id)).isDeleted).toBe(0);
      expect((await auditFor(acc.id)).some((e) => e.action === 'DELETE')).toBe(false);
    }
    // Restrict is still offered for such an account.
    expect((await call('POST', `/api/accounts/${viaUserId.id}/restrict`, su.cookie, { confirmName: viaUserId.fullname })).statusCode).toBe(
      200,
    );
  });

  it('does not count entries about the account (its creation, restriction, blocked logins) as its activities', async () => {
    const acc = await makeAccount(t.ctx, { fullname: 'Only Acted Upon' });
    await call('POST', `/api/accounts/${acc.id}/restrict`, su.cookie, { confirmName: acc.fullname });
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: acc.username, password: acc.password },
    });
    expect(blocked.statusCode).toBe(403);
    expect((await auditFor(acc.id)).map((e) => e.action)).toEqual(['CREATE', 'RESTRICT', 'LOGIN']);
    expect((await call('GET', `/api/accounts/${acc.id}`, su.cookie)).json().hasActivities).toBe(false);
    expect((await call('GET', `/api/accounts?q=${encodeURIComponent(acc.username)}`, su.cookie)).json().items[0].hasActivities).toBe(false);
    expect((await del(acc.id, acc.fullname)).statusCode).toBe(204);
  });

  it("refuses to delete one's own account", async () => {
    const res = await del(su.account.id, su.account.fullname);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(M.cannotDeleteSelf);
    expect((await row(su.account.id)).isDeleted).toBe(0);
  });

  it('asks for the typed name in the body', async () => {
    const acc = await makeAccount(t.ctx);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/accounts/${acc.id}`, headers: { cookie: su.cookie } });
    expect(res.statusCode).toBe(400);
    expect((await row(acc.id)).isDeleted).toBe(0);
  });
});

describe('auto-inactivation', () => {
  it('turns accounts whose last login is 8 or more days old inactive, once, with an audit entry and a live event', async () => {
    const stale = await makeAccount(t.ctx, { fullname: 'Stale Login', state: { lastLogin: daysAgo(8, 1000) } });
    const fresh = await makeAccount(t.ctx, { state: { lastLogin: daysAgo(7, -3_600_000) } });
    const never = await makeAccount(t.ctx, { state: { lastLogin: null } });
    const restricted = await makeAccount(t.ctx, { state: { lastLogin: daysAgo(30), status: 'restricted', isRestricted: 1 } });
    const deleted = await makeAccount(t.ctx, { state: { lastLogin: daysAgo(30), isDeleted: 1 } });
    const events = recordEvents(t.ctx);
    const res = await call('GET', '/api/accounts', su.cookie);
    expect(res.statusCode).toBe(200);
    const s = await row(stale.id);
    expect(s).toMatchObject({ status: 'inactive', autoInactive: 1 });
    expect(s.autoInactiveAt).not.toBeNull();
    for (const untouched of [fresh, never, deleted]) expect((await row(untouched.id)).autoInactive).toBe(0);
    expect((await row(restricted.id)).status).toBe('restricted');
    const entries = (await auditFor(stale.id)).filter((e) => e.action === 'UPDATE');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      userName: 'System User',
      collection: 'accounts',
      documentName: 'Stale Login',
      description: ACCOUNTS.audit.autoInactive(8),
    });
    await events.waitFor((e) => e.topic === 'accounts' && e.id === stale.id && e.op === 'update');
    events.stop();

    // Later loads (even several at once) write nothing more.
    const version = s.version;
    await Promise.all([1, 2, 3].map(() => call('GET', '/api/accounts', su.cookie)));
    expect((await row(stale.id)).version).toBe(version);
    expect((await auditFor(stale.id)).filter((e) => e.action === 'UPDATE')).toHaveLength(1);

    // The list shows it as Inactive; logging in makes it active again.
    const shown = (await call('GET', `/api/accounts/${stale.id}`, su.cookie)).json();
    expect(shown.displayStatus).toBe('inactive');
    await loginAs(t.app, stale);
    expect((await row(stale.id)).status).toBe('active');
  });

  it('writes each account once when two server instances sweep at the same time', async () => {
    const acc = await makeAccount(t.ctx, { state: { lastLogin: daysAgo(9) } });
    const a = createAccountsService(t.ctx);
    const b = createAccountsService(t.ctx);
    const [ra, rb] = await Promise.all([a.sweepInactive(), b.sweepInactive()]);
    expect([...ra, ...rb].filter((id) => id === acc.id)).toHaveLength(1);
    expect((await auditFor(acc.id)).filter((e) => e.action === 'UPDATE')).toHaveLength(1);
  });

  it('runs by itself when the server starts, without anyone opening the list', async () => {
    const own = await createTestApp();
    try {
      const acc = await makeAccount(own.ctx, { state: { lastLogin: daysAgo(10) } });
      await own.app.ready();
      expect((await accountsRepository.findById(own.ctx.db, acc.id))!).toMatchObject({ status: 'inactive', autoInactive: 1 });
    } finally {
      await own.close();
    }
  });
});
