import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../common/profile.js';
import { SECOND_FACTOR } from '../../common/second-factor.js';
import { LOGIN } from '../../common/texts.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { superAdminSession } from '../fixtures/accounts.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { endLock } from '../fixtures/settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type App = TestApp['app'];
const call = (app: App, method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

/** A code of the step `steps` away from now (±1 is accepted), so tests need not wait for the next 30 s. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) => {
  const c = res.cookies.find((x) => x.name === 'palayan_session');
  return c ? `palayan_session=${c.value}` : undefined;
};

/**
 * Turns two-step sign-in on in Account Settings (the setup asks for the password); returns the
 * key and the recovery codes. The password's 5 minutes of trust are then forgotten, so the
 * tests that follow start from a session that has not confirmed itself.
 */
async function enroll(app: App, cookie: string, acc: TestAccount, ctx = t.ctx): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call(app, 'POST', '/api/profile/second-factor/setup', cookie, { password: acc.password });
  expect(setup.statusCode, setup.body).toBe(200);
  const { setupToken, secret, otpauthUri, qrSvg } = setup.json();
  expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/PalaYan%20Admin:/);
  expect(new URL(otpauthUri).searchParams.get('secret')).toBe(secret);
  expect(qrSvg).toMatch(/^<svg/);
  const enabled = await call(app, 'POST', '/api/profile/second-factor/enable', cookie, { setupToken, code: await codeAt(secret) });
  expect(enabled.statusCode).toBe(200);
  const body = enabled.json();
  expect(body.recoveryCodes).toHaveLength(10);
  expect(new Set(body.recoveryCodes).size).toBe(10);
  expect(body.status).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
  await ctx.db.updateTable('sessions').set({ reauthAt: null }).where('accountId', '=', acc.id).execute();
  return { secret, recoveryCodes: body.recoveryCodes };
}

async function passwordStep(app: App, acc: TestAccount) {
  const res = await call(app, 'POST', '/api/auth/login', undefined, { identifier: acc.username, password: acc.password });
  return res;
}

async function superWithFactor(app: App = t.app, ctx = t.ctx) {
  const su = await superAdminSession(app, ctx);
  const factor = await enroll(app, su.cookie, su.account, ctx);
  return { ...su, ...factor };
}

describe('turning it on in Account Settings', () => {
  it('shows a key and QR, confirms with a code, stores the key apart from the account and only hashes of the codes; audited', async () => {
    const su = await superAdminSession(t.app, t.ctx);
    expect((await call(t.app, 'GET', '/api/profile/second-factor', su.cookie)).json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
      required: false,
    });
    const { secret, recoveryCodes } = await enroll(t.app, su.cookie, su.account);
    const stored = await t.ctx.db.selectFrom('second_factors').selectAll().where('accountId', '=', su.account.id).executeTakeFirstOrThrow();
    expect(stored.secret).toBe(secret);
    expect(Number(stored.lastTimeStep)).toBeGreaterThan(0);
    const hashes = await t.ctx.db
      .selectFrom('second_factor_recovery_codes')
      .select('codeHash')
      .where('accountId', '=', su.account.id)
      .execute();
    expect(hashes).toHaveLength(10);
    const plain = recoveryCodes.map((c) => c.replace('-', ''));
    for (const h of hashes) {
      expect(h.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(plain).not.toContain(h.codeHash);
    }
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', su.account.id)
      .where('action', '=', 'SECOND_FACTOR')
      .execute();
    expect(audit.map((a) => [a.collection, a.description, a.userId])).toEqual([['accounts', 'Turned on two-step sign-in', su.account.id]]);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it("refuses a wrong confirmation code, an unknown or another account's setup, and a second setup once on; nothing changes", async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const other = await superAdminSession(t.app, t.ctx);
    const { setupToken } = (
      await call(t.app, 'POST', '/api/profile/second-factor/setup', su.cookie, { password: su.account.password })
    ).json();
    const wrong = await call(t.app, 'POST', '/api/profile/second-factor/enable', su.cookie, { setupToken, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ code: SECOND_FACTOR.invalidCode });
    const stolen = await call(t.app, 'POST', '/api/profile/second-factor/enable', other.cookie, { setupToken, code: '123456' });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().error.message).toBe(SECOND_FACTOR.setupExpired);
    const unknown = await call(t.app, 'POST', '/api/profile/second-factor/enable', su.cookie, { setupToken: 'nope', code: '123456' });
    expect(unknown.statusCode).toBe(409);
    const empty = await call(t.app, 'POST', '/api/profile/second-factor/enable', su.cookie, { setupToken, code: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ code: SECOND_FACTOR.codeRequired });
    expect(
      await t.ctx.db.selectFrom('second_factors').selectAll().where('accountId', 'in', [su.account.id, other.account.id]).execute(),
    ).toEqual([]);
    await enroll(t.app, su.cookie, su.account);
    const again = await call(t.app, 'POST', '/api/profile/second-factor/setup', su.cookie, { password: su.account.password });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(SECOND_FACTOR.alreadyOn);
  });

  it('is for super admins only: an ADMIN gets 403 on every settings route', async () => {
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    const cookie = await loginAs(t.app, admin);
    for (const [method, url] of [
      ['GET', '/api/profile/second-factor'],
      ['POST', '/api/profile/second-factor/setup'],
      ['POST', '/api/profile/second-factor/enable'],
      ['POST', '/api/profile/second-factor/disable'],
      ['POST', '/api/profile/second-factor/recovery-codes'],
    ] as const) {
      const res = await call(t.app, method, url, cookie, method === 'POST' ? { setupToken: 'x', code: '123456' } : undefined);
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('signing in with a second factor', () => {
  it('asks for the code after the password (no cookie), then opens the session with a code from the app', async () => {
    const su = await superWithFactor();
    const first = await passwordStep(t.app, su.account);
    expect(first.statusCode).toBe(200);
    expect(cookieOf(first)).toBeUndefined();
    const challenge = first.json();
    expect(Object.keys(challenge).sort()).toEqual(['challenge', 'secondFactor']);
    expect(challenge.secondFactor).toBe('verify');
    // The old session is still the current one until the code is given.
    expect((await call(t.app, 'GET', '/api/auth/session', su.cookie)).statusCode).toBe(200);

    const done = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, {
      challenge: challenge.challenge,
      code: await codeAt(su.secret, 1),
    });
    expect(done.statusCode).toBe(200);
    const cookie = cookieOf(done)!;
    expect(done.json().user).toMatchObject({ id: su.account.id, role: 'SYSTEM_ADMIN' });
    expect(done.json().recoveryCodes).toBeUndefined();
    expect((await call(t.app, 'GET', '/api/auth/session', cookie)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/session', su.cookie)).statusCode).toBe(401);
    // The challenge works once.
    const reused = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, {
      challenge: challenge.challenge,
      code: await codeAt(su.secret, 1),
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error).toMatchObject({ code: 'SIGN_IN_EXPIRED', message: SECOND_FACTOR.expired });
  });

  it('refuses a code already used (replay) and an older one', async () => {
    const su = await superWithFactor();
    const code = await codeAt(su.secret, 1);
    const a = (await passwordStep(t.app, su.account)).json().challenge;
    expect((await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: a, code })).statusCode).toBe(200);
    const b = (await passwordStep(t.app, su.account)).json().challenge;
    for (const old of [code, await codeAt(su.secret, 0), await codeAt(su.secret, -1)]) {
      const res = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: b, code: old });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toMatchObject({ code: 'INVALID_CODE', message: SECOND_FACTOR.invalidCode });
      expect(cookieOf(res)).toBeUndefined();
    }
  });

  it('lets only one of two simultaneous sign-ins use the same code (app code or recovery code)', async () => {
    const su = await superWithFactor();
    for (const code of [await codeAt(su.secret, 1), su.recoveryCodes[9]!]) {
      const [a, b] = await Promise.all([passwordStep(t.app, su.account), passwordStep(t.app, su.account)]);
      const results = await Promise.all(
        [a, b].map((r) => call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: r.json().challenge, code })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    }
  });

  it('accepts each recovery code once (spaces, dashes and case ignored)', async () => {
    const su = await superWithFactor();
    const rc = su.recoveryCodes[3]!;
    const a = (await passwordStep(t.app, su.account)).json().challenge;
    const typed = ` ${rc.toUpperCase().replace('-', ' ')} `;
    expect((await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: a, code: typed })).statusCode).toBe(200);
    const b = (await passwordStep(t.app, su.account)).json().challenge;
    expect((await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: b, code: rc })).statusCode).toBe(401);
    expect(
      (await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: b, code: su.recoveryCodes[4]! })).statusCode,
    ).toBe(200);
    const cookie = await (async () => {
      const c = (await passwordStep(t.app, su.account)).json().challenge;
      return cookieOf(await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: su.recoveryCodes[5]! }))!;
    })();
    expect((await call(t.app, 'GET', '/api/profile/second-factor', cookie)).json().recoveryCodesLeft).toBe(7);
  });

  it('refuses an unknown, expired or malformed challenge with a clear 4xx', async () => {
    const su = await superWithFactor();
    const unknown = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: 'not-a-challenge', code: '123456' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error.code).toBe('SIGN_IN_EXPIRED');
    const c = (await passwordStep(t.app, su.account)).json().challenge;
    await t.ctx.db
      .updateTable('login_challenges')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('accountId', '=', su.account.id)
      .execute();
    const expired = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, {
      challenge: c,
      code: await codeAt(su.secret, 1),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toBe(SECOND_FACTOR.expired);
    const malformed = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields).toEqual({ code: SECOND_FACTOR.codeRequired });
  });

  it('counts wrong codes with wrong passwords and locks the account; the password alone does not refill the budget', async () => {
    const limited = await createTestApp({ loginFailuresPerAccount: 4 });
    try {
      const su = await superWithFactor(limited.app, limited.ctx);
      const statuses: number[] = [];
      // A wrong password, then wrong codes across fresh password steps.
      statuses.push(
        (await call(limited.app, 'POST', '/api/auth/login', undefined, { identifier: su.account.username, password: 'nope' })).statusCode,
      );
      for (let i = 0; i < 3; i += 1) {
        const first = await passwordStep(limited.app, su.account);
        expect(first.statusCode).toBe(200);
        statuses.push(
          (
            await call(limited.app, 'POST', '/api/auth/login/second-factor', undefined, {
              challenge: first.json().challenge,
              code: '000000',
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      // Locked: the password and a right code are both refused now.
      const pw = await passwordStep(limited.app, su.account);
      expect(pw.statusCode).toBe(429);
      expect(pw.json().error.message).toMatch(/^Too many attempts\. This account is locked for 1[45] minutes/);
      await limited.ctx.db.deleteFrom('throttles').execute();
      const c = (await passwordStep(limited.app, su.account)).json().challenge;
      // Wrong codes on one challenge count too; the one that reaches the limit says so.
      const wrong: number[] = [];
      for (let i = 0; i < 4; i += 1)
        wrong.push(
          (await call(limited.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: '000000' })).statusCode,
        );
      expect(wrong).toEqual([401, 401, 401, 429]);
      const locked = await call(limited.app, 'POST', '/api/auth/login/second-factor', undefined, {
        challenge: c,
        code: await codeAt(su.secret, 1),
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error.message).toBe(LOGIN.locked(15));
      expect(cookieOf(locked)).toBeUndefined();
    } finally {
      await limited.close();
    }
  });

  it("50 wrong app and recovery codes at once get the budget's checks and no more, at login and in Account Settings", async () => {
    const limited = await createTestApp({ loginFailuresPerAccount: 6 });
    try {
      const su = await superWithFactor(limited.app, limited.ctx);
      const { challenge } = (await passwordStep(limited.app, su.account)).json();
      const codes = Array.from({ length: 50 }, (_, i) => (i % 2 ? '000000' : 'ABCD-EFGH-JKLM'));
      const login = await Promise.all(
        codes.map((code) => call(limited.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge, code })),
      );
      // Six checks (the sixth wrong one locks and says so); the other 44 are refused unchecked.
      expect(login.filter((r) => r.statusCode === 401)).toHaveLength(5);
      expect(login.filter((r) => r.statusCode === 429)).toHaveLength(45);
      expect(login.some((r) => cookieOf(r))).toBe(false);
      await endLock(limited.ctx, `login-failures:account:${su.account.id}`);
      const settings = await Promise.all(
        codes.map((code) =>
          call(limited.app, 'POST', '/api/profile/second-factor/recovery-codes', su.cookie, { password: su.account.password, code }),
        ),
      );
      expect(settings.filter((r) => r.statusCode === 400)).toHaveLength(5);
      expect(settings.filter((r) => r.statusCode === 429)).toHaveLength(45);
    } finally {
      await limited.close();
    }
  });

  it('a right code clears the failure count', async () => {
    const limited = await createTestApp({ loginFailuresPerAccount: 3 });
    try {
      const su = await superWithFactor(limited.app, limited.ctx);
      for (let round = 0; round < 2; round += 1) {
        const c = (await passwordStep(limited.app, su.account)).json().challenge;
        expect(
          (await call(limited.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: '000000' })).statusCode,
        ).toBe(401);
        expect(
          (await call(limited.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: su.recoveryCodes[round]! }))
            .statusCode,
        ).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('accounts without a second factor sign in with the password as before', async () => {
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const res = await passwordStep(t.app, acc);
    expect(res.statusCode).toBe(200);
    expect(cookieOf(res)).toBeDefined();
    expect(res.json().user.id).toBe(acc.id);
  });
});

describe('REQUIRE_2FA_FOR', () => {
  it('makes a super admin without one set it up at the next login; ADMIN unaffected; cannot turn it off', async () => {
    const strict = await createTestApp({ require2faFor: ['SYSTEM_ADMIN'] });
    try {
      const su = await makeAccount(strict.ctx, { role: 'SYSTEM_ADMIN' });
      const admin = await makeAccount(strict.ctx, { role: 'ADMIN' });
      expect(cookieOf(await passwordStep(strict.app, admin))).toBeDefined();

      const first = await passwordStep(strict.app, su);
      expect(first.statusCode).toBe(200);
      expect(cookieOf(first)).toBeUndefined();
      const body = first.json();
      expect(body.secondFactor).toBe('enroll');
      expect(body.setup.otpauthUri).toContain(encodeURIComponent(su.username));
      expect(body.setup.qrSvg).toMatch(/^<svg/);
      const wrong = await call(strict.app, 'POST', '/api/auth/login/second-factor', undefined, {
        challenge: body.challenge,
        code: '000000',
      });
      expect(wrong.statusCode).toBe(401);
      expect(await strict.ctx.db.selectFrom('second_factors').selectAll().where('accountId', '=', su.id).execute()).toEqual([]);
      const done = await call(strict.app, 'POST', '/api/auth/login/second-factor', undefined, {
        challenge: body.challenge,
        code: await codeAt(body.setup.secret),
      });
      expect(done.statusCode).toBe(200);
      expect(done.json().recoveryCodes).toHaveLength(10);
      const cookie = cookieOf(done)!;
      const audit = await strict.ctx.db
        .selectFrom('audit_logs')
        .select('description')
        .where('documentId', '=', su.id)
        .where('action', '=', 'SECOND_FACTOR')
        .execute();
      expect(audit.map((a) => a.description)).toEqual(['Turned on two-step sign-in']);

      const status = (await call(strict.app, 'GET', '/api/profile/second-factor', cookie)).json();
      expect(status).toMatchObject({ enabled: true, required: true, recoveryCodesLeft: 10 });
      const off = await call(strict.app, 'POST', '/api/profile/second-factor/disable', cookie, { password: su.password });
      expect(off.statusCode).toBe(409);
      expect(off.json().error.message).toBe(SECOND_FACTOR.requiredForRole);

      // The next login asks for a code (verify), not a new setup.
      expect((await passwordStep(strict.app, su)).json().secondFactor).toBe('verify');
    } finally {
      await strict.close();
    }
  });

  it('is read from the environment as a list of roles and refuses unknown ones', async () => {
    const { loadConfig } = await import('../../server/config.js');
    expect(loadConfig({ REQUIRE_2FA_FOR: ' system admin , ADMIN' }).require2faFor).toEqual(['SYSTEM_ADMIN', 'ADMIN']);
    expect(loadConfig({}).require2faFor).toEqual([]);
    expect(() => loadConfig({ REQUIRE_2FA_FOR: 'ROOT' })).toThrow(/REQUIRE_2FA_FOR/);
  });
});

describe('turning off and new recovery codes', () => {
  it('turns off with the password and a current code, audited; the next login needs only the password', async () => {
    const su = await superWithFactor();
    const disable = (body: object) => call(t.app, 'POST', '/api/profile/second-factor/disable', su.cookie, body);
    const fieldsOf = async (body: object) => {
      const res = await disable(body);
      expect(res.statusCode).toBe(400);
      return res.json().error.fields;
    };
    expect(await fieldsOf({})).toEqual({ password: SETTINGS.currentPasswordRequired });
    expect(await fieldsOf({ password: 'nope', code: await codeAt(su.secret, 1) })).toEqual({ password: SETTINGS.wrongCurrentPassword });
    expect(await fieldsOf({ password: su.account.password })).toEqual({ code: SECOND_FACTOR.codeRequired });
    expect(await fieldsOf({ password: su.account.password, code: '000000' })).toEqual({ code: SECOND_FACTOR.invalidCode });
    expect(await t.ctx.db.selectFrom('second_factors').select('accountId').where('accountId', '=', su.account.id).execute()).toHaveLength(
      1,
    );

    const off = await disable({ password: su.account.password, code: await codeAt(su.secret, 1) });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false });
    expect(await t.ctx.db.selectFrom('second_factor_recovery_codes').select('id').where('accountId', '=', su.account.id).execute()).toEqual(
      [],
    );
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('documentId', '=', su.account.id)
      .where('action', '=', 'SECOND_FACTOR')
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => a.description)).toEqual(['Turned on two-step sign-in', 'Turned off two-step sign-in']);
    expect(cookieOf(await passwordStep(t.app, su.account))).toBeDefined();
  });

  it('trusts a confirmation for 5 minutes: new codes, then turning off, with one password and code', async () => {
    const su = await superWithFactor();
    const codes = await call(t.app, 'POST', '/api/profile/second-factor/recovery-codes', su.cookie, {
      password: su.account.password,
      code: su.recoveryCodes[0],
    });
    expect(codes.statusCode, codes.body).toBe(200);
    expect((await call(t.app, 'POST', '/api/profile/second-factor/disable', su.cookie, {})).statusCode).toBe(200);
  });

  it('makes ten new recovery codes: the old ones stop working; audited', async () => {
    const su = await superWithFactor();
    const res = await call(t.app, 'POST', '/api/profile/second-factor/recovery-codes', su.cookie, {
      password: su.account.password,
      code: await codeAt(su.secret, 1),
    });
    expect(res.statusCode).toBe(200);
    const { recoveryCodes, status } = res.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes.filter((c: string) => su.recoveryCodes.includes(c))).toEqual([]);
    expect(status.recoveryCodesLeft).toBe(10);
    const c = (await passwordStep(t.app, su.account)).json().challenge;
    expect(
      (await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: su.recoveryCodes[0]! })).statusCode,
    ).toBe(401);
    expect(
      (await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: recoveryCodes[0] })).statusCode,
    ).toBe(200);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('documentId', '=', su.account.id)
      .where('action', '=', 'SECOND_FACTOR')
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => a.description)).toEqual(['Turned on two-step sign-in', 'Made new recovery codes']);
  });
});

describe('reset by a super admin', () => {
  it("removes another account's second factor, audited; the account then signs in with the password", async () => {
    const owner = await superWithFactor();
    const boss = await superAdminSession(t.app, t.ctx);
    const listed = (await call(t.app, 'GET', `/api/accounts/${owner.account.id}`, boss.cookie)).json();
    expect(listed.hasSecondFactor).toBe(true);
    const res = await call(t.app, 'POST', `/api/accounts/${owner.account.id}/second-factor/reset`, boss.cookie, {
      currentPassword: boss.account.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: owner.account.id, hasSecondFactor: false });
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', owner.account.id)
      .where('action', '=', 'SECOND_FACTOR')
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => [a.description, a.userId])).toEqual([
      ['Turned on two-step sign-in', owner.account.id],
      [`Reset two-step sign-in of ${owner.account.fullname}`, boss.account.id],
    ]);
    expect(cookieOf(await passwordStep(t.app, owner.account))).toBeDefined();
    const twice = await call(t.app, 'POST', `/api/accounts/${owner.account.id}/second-factor/reset`, boss.cookie, {
      currentPassword: boss.account.password,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(SECOND_FACTOR.notOn);
  });

  it('ends a challenge opened before the reset', async () => {
    const owner = await superWithFactor();
    const boss = await superAdminSession(t.app, t.ctx);
    const c = (await passwordStep(t.app, owner.account)).json().challenge;
    await call(t.app, 'POST', `/api/accounts/${owner.account.id}/second-factor/reset`, boss.cookie, {
      currentPassword: boss.account.password,
    });
    const res = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, {
      challenge: c,
      code: await codeAt(owner.secret, 1),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('SIGN_IN_EXPIRED');
  });

  it('with REQUIRE_2FA_FOR the reset account sets it up again at its next login', async () => {
    const strict = await createTestApp({ require2faFor: ['SYSTEM_ADMIN'] });
    try {
      const owner = await makeAccount(strict.ctx, { role: 'SYSTEM_ADMIN' });
      const boss = await makeAccount(strict.ctx, { role: 'SYSTEM_ADMIN' });
      const enrolAndSignIn = async (acc: TestAccount) => {
        const body = (await passwordStep(strict.app, acc)).json();
        expect(body.secondFactor).toBe('enroll');
        const cookie = cookieOf(
          await call(strict.app, 'POST', '/api/auth/login/second-factor', undefined, {
            challenge: body.challenge,
            code: await codeAt(body.setup.secret),
          }),
        )!;
        return { cookie, secret: body.setup.secret as string };
      };
      await enrolAndSignIn(owner);
      const bossSession = await enrolAndSignIn(boss);
      // The boss has a second factor: the password alone does not confirm the reset.
      const passwordOnly = await call(strict.app, 'POST', `/api/accounts/${owner.id}/second-factor/reset`, bossSession.cookie, {
        currentPassword: boss.password,
      });
      expect(passwordOnly.json().error.fields).toEqual({ code: SECOND_FACTOR.codeRequired });
      const proof = { currentPassword: boss.password, code: await codeAt(bossSession.secret, 1) };
      expect((await call(strict.app, 'POST', `/api/accounts/${owner.id}/second-factor/reset`, bossSession.cookie, proof)).statusCode).toBe(
        200,
      );
      expect((await passwordStep(strict.app, owner)).json().secondFactor).toBe('enroll');
    } finally {
      await strict.close();
    }
  });

  it('is refused to an ADMIN (403), for the own account (409) and for an unknown account (404); nothing changes', async () => {
    const owner = await superWithFactor();
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    const adminCookie = await loginAs(t.app, admin);
    const asAdmin = await call(t.app, 'POST', `/api/accounts/${owner.account.id}/second-factor/reset`, adminCookie, {
      currentPassword: admin.password,
    });
    expect(asAdmin.statusCode).toBe(403);
    const own = await call(t.app, 'POST', `/api/accounts/${owner.account.id}/second-factor/reset`, owner.cookie, {
      currentPassword: owner.account.password,
    });
    expect(own.statusCode).toBe(409);
    expect(own.json().error.message).toBe(SECOND_FACTOR.resetOwn);
    expect(
      (await call(t.app, 'POST', '/api/accounts/nobody/second-factor/reset', owner.cookie, { currentPassword: owner.account.password }))
        .statusCode,
    ).toBe(404);
    expect(
      await t.ctx.db.selectFrom('second_factors').select('accountId').where('accountId', '=', owner.account.id).execute(),
    ).toHaveLength(1);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('documentId', '=', owner.account.id)
      .where('action', '=', 'SECOND_FACTOR')
      .execute();
    expect(audit).toHaveLength(1);
  });
});

describe('secrets never leave the server', () => {
  it('no account, session, profile or list response holds the key or a recovery code (or their hashes)', async () => {
    const su = await superWithFactor();
    const c = (await passwordStep(t.app, su.account)).json().challenge;
    const done = await call(t.app, 'POST', '/api/auth/login/second-factor', undefined, { challenge: c, code: await codeAt(su.secret, 1) });
    const cookie = cookieOf(done)!;
    const hashes = (
      await t.ctx.db.selectFrom('second_factor_recovery_codes').select('codeHash').where('accountId', '=', su.account.id).execute()
    ).map((h) => h.codeHash);
    const bodies = [
      done.body,
      (await call(t.app, 'GET', '/api/auth/session', cookie)).body,
      (await call(t.app, 'GET', '/api/profile', cookie)).body,
      (await call(t.app, 'GET', '/api/profile/second-factor', cookie)).body,
      (await call(t.app, 'GET', `/api/accounts/${su.account.id}`, cookie)).body,
      (await call(t.app, 'GET', `/api/accounts?q=${encodeURIComponent(su.account.username)}`, cookie)).body,
      (await call(t.app, 'GET', '/api/history', cookie)).body,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(su.secret);
      for (const rc of su.recoveryCodes) expect(body).not.toContain(rc);
      for (const h of hashes) expect(body).not.toContain(h);
      expect(body).not.toMatch(/lastTimeStep|pendingSecret|codeHash/);
    }
  });
});
