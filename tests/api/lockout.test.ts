import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS } from '../../common/accounts.js';
import { LOGIN } from '../../common/texts.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { superAdminSession } from '../fixtures/accounts.js';
import { makeAccount, type TestAccount } from '../fixtures/factories.js';
import { unlockLinkBudgetKey } from '../../server/modules/identity/credentials/unlock-links.js';
import { endLock, outboxMailsTo } from '../fixtures/settings.js';
import { sha256 } from '../../server/platform/identity/passwords.js';

/**
 * A sign-in lock stops the guessing, never the owner: with the password and a code from the
 * authenticator app the owner signs in at once, from anywhere; a new password (reset link,
 * security question, a super admin's edit) and a super admin's Unlock end it too.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginFailuresPerAccount: 10 });
});
afterAll(async () => {
  await t.close();
});

const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
const login = (payload: object, ip = '203.0.113.7') => t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload });
const sessionCookie = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'palayan_session');

/** Ten wrong passwords, one from each of ten addresses: the account is locked. */
async function lockByTenAddresses(acc: TestAccount): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => login({ identifier: acc.username, password: `Wrong#Guess${i}` }, `198.51.100.${i + 1}`)),
  );
  expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(1);
  const right = await login({ identifier: acc.username, password: acc.password });
  expect(right.statusCode).toBe(429);
  expect(right.json().error.message).toBe(LOGIN.locked(15));
}

/** The token of the unlock link in the account's lockout notice (the mail is quoted-printable). */
async function unlockTokenMailedTo(acc: TestAccount): Promise<string> {
  const notice = await vi.waitFor(() => {
    const mail = outboxMailsTo(t.ctx, acc.email).find((m) => m.includes('login#unlock='));
    if (!mail) throw new Error('no lockout notice with a link yet');
    return mail;
  });
  return decodeURIComponent(/login#unlock=([\w%-]+)/.exec(notice.replace(/=3D/g, '='))![1]!);
}

/** A super admin with two-step sign-in on; the key and the session that turned it on. */
async function withSecondFactor() {
  const su = await superAdminSession(t.app, t.ctx);
  const setup = (
    await t.app.inject({
      method: 'POST',
      url: '/api/profile/second-factor/setup',
      headers: { cookie: su.cookie },
      payload: { password: su.account.password },
    })
  ).json();
  const on = await t.app.inject({
    method: 'POST',
    url: '/api/profile/second-factor/enable',
    headers: { cookie: su.cookie },
    payload: { setupToken: setup.setupToken, code: await codeAt(setup.secret) },
  });
  expect(on.statusCode).toBe(200);
  return { ...su, secret: setup.secret as string };
}

describe("a locked account's owner", () => {
  it('signs in at once, from another address, with the password and a code; the lock is gone, audited and mailed', async () => {
    const owner = await withSecondFactor();
    await lockByTenAddresses(owner.account);
    const res = await login(
      { identifier: owner.account.username, password: owner.account.password, code: await codeAt(owner.secret, 1) },
      '192.0.2.44',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(sessionCookie(res)).toBeDefined();
    const lock = await t.ctx.db.selectFrom('throttles').selectAll().where('key', 'like', `%account:${owner.account.id}`).execute();
    expect(lock).toEqual([]);
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['description', 'details'])
      .where('documentId', '=', owner.account.id)
      .where('action', '=', 'LOGIN')
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => JSON.parse(e.details!).outcome)).toEqual(['locked', 'unlocked']);
    await expect.poll(() => outboxMailsTo(t.ctx, owner.account.email).join('\n')).toContain('was ended with the password and a code');
  });

  it("gets one answer for a wrong code or a wrong password, and 50 parallel tries get the unlock budget's 5 checks", async () => {
    const owner = await withSecondFactor();
    await lockByTenAddresses(owner.account);
    const wrongCode = await login({ identifier: owner.account.username, password: owner.account.password, code: '000000' });
    const wrongPassword = await login({
      identifier: owner.account.username,
      password: 'Wrong#Again1',
      code: await codeAt(owner.secret, 1),
    });
    expect([wrongCode.statusCode, wrongPassword.statusCode]).toEqual([401, 401]);
    expect(wrongCode.json().error).toEqual(wrongPassword.json().error);
    expect(wrongCode.json().error.message).toBe(LOGIN.invalidUnlock);
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        login({ identifier: owner.account.username, password: `Wrong#${i}aA`, code: String(100000 + i) }, `198.18.0.${i + 1}`),
      ),
    );
    const statuses = burst.map((r) => r.statusCode);
    // Five tries in all, two of them above: three more checked (401), the rest refused unchecked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(47);
    // The unlock budget is spent: even the right pair waits now.
    const right = await login({
      identifier: owner.account.username,
      password: owner.account.password,
      code: await codeAt(owner.secret, 1),
    });
    expect(right.statusCode).toBe(429);
  });

  it('without a second factor cannot use a code, and a new password set by a super admin ends the lock', async () => {
    const acc = await makeAccount(t.ctx, { role: 'ADMIN' });
    await lockByTenAddresses(acc);
    const code = await login({ identifier: acc.username, password: acc.password, code: '123456' });
    expect(code.json().error.message).toBe(LOGIN.invalidUnlock);
    const boss = await superAdminSession(t.app, t.ctx);
    const current = (await t.app.inject({ url: `/api/accounts/${acc.id}`, headers: { cookie: boss.cookie } })).json();
    expect(current.signInLockedUntil).not.toBeNull();
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/accounts/${acc.id}`,
      headers: { cookie: boss.cookie },
      payload: {
        fullname: acc.fullname,
        username: acc.username,
        email: acc.email,
        password: 'Fresh#Start2026',
        version: current.version,
        currentPassword: boss.account.password,
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().signInLockedUntil).toBeNull();
    expect(sessionCookie(await login({ identifier: acc.username, password: 'Fresh#Start2026' }))).toBeDefined();
  });

  it("is let back in by a super admin's Unlock: audited, mailed, then 409 when not locked", async () => {
    const acc = await makeAccount(t.ctx, { role: 'ADMIN' });
    await lockByTenAddresses(acc);
    const boss = await superAdminSession(t.app, t.ctx);
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    const adminLogin = await login({ identifier: admin.username, password: admin.password });
    const asAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/accounts/${acc.id}/unlock`,
      headers: { cookie: `palayan_session=${sessionCookie(adminLogin)!.value}` },
    });
    expect(asAdmin.statusCode).toBe(403);
    const listed = (await t.app.inject({ url: `/api/accounts?q=${acc.username}`, headers: { cookie: boss.cookie } })).json();
    expect(listed.items[0].signInLockedUntil).not.toBeNull();
    const res = await t.app.inject({ method: 'POST', url: `/api/accounts/${acc.id}/unlock`, headers: { cookie: boss.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().signInLockedUntil).toBeNull();
    expect(sessionCookie(await login({ identifier: acc.username, password: acc.password }))).toBeDefined();
    const entry = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', acc.id)
      .where('description', 'like', 'Sign-in unlocked%')
      .executeTakeFirstOrThrow();
    expect([entry.userId, entry.description]).toEqual([boss.account.id, `Sign-in unlocked by ${boss.account.fullname}`]);
    await expect.poll(() => outboxMailsTo(t.ctx, acc.email).join('\n')).toContain(`was ended by ${boss.account.fullname}`);
    const again = await t.app.inject({ method: 'POST', url: `/api/accounts/${acc.id}/unlock`, headers: { cookie: boss.cookie } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(ACCOUNTS.messages.notLocked);
  });

  it('never reaches a guesser: a password without a code while locked is not checked', async () => {
    const acc = await makeAccount(t.ctx, { role: 'ADMIN' });
    await lockByTenAddresses(acc);
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        login({ identifier: acc.username, password: i === 7 ? acc.password : `Wrong#${i}` }, `198.19.0.${i + 1}`),
      ),
    );
    expect(new Set(tries.map((r) => `${r.statusCode} ${r.json().error.message}`))).toEqual(new Set([`429 ${LOGIN.locked(15)}`]));
  });

  it('without a second factor gets an unlock link in the lockout notice: with the password it signs in once, from anywhere; audited and mailed', async () => {
    const acc = await makeAccount(t.ctx, { role: 'ADMIN' });
    await lockByTenAddresses(acc);
    const token = await unlockTokenMailedTo(acc);
    // Not a way in without the password, nor another account's, nor a made-up one.
    expect(
      (await login({ identifier: acc.username, password: 'Wrong#Guess99', unlockToken: token }, '192.0.2.50')).json().error.message,
    ).toBe(LOGIN.invalidUnlock);
    expect(
      (await login({ identifier: acc.username, password: acc.password, unlockToken: `${token}x` }, '192.0.2.50')).json().error.message,
    ).toBe(LOGIN.invalidUnlock);
    const other = await makeAccount(t.ctx, { role: 'ADMIN' });
    await lockByTenAddresses(other);
    expect((await login({ identifier: other.username, password: other.password, unlockToken: token }, '192.0.2.50')).statusCode).toBe(401);

    const res = await login({ identifier: acc.username, password: acc.password, unlockToken: token }, '192.0.2.51');
    expect(res.statusCode, res.body).toBe(200);
    expect(sessionCookie(res)).toBeDefined();
    // Used once: it does not open a second sign-in; the lock is gone, so the password alone does.
    await lockByTenAddresses(acc);
    expect((await login({ identifier: acc.username, password: acc.password, unlockToken: token }, '192.0.2.52')).json().error.message).toBe(
      LOGIN.invalidUnlock,
    );
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['description', 'details'])
      .where('documentId', '=', acc.id)
      .where('action', '=', 'LOGIN')
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => JSON.parse(e.details!).outcome)).toEqual(['locked', 'unlocked', 'locked']);
    expect(entries[1]!.description).toBe('Sign-in unlocked with the password and the unlock link mailed to the account');
    await expect.poll(() => outboxMailsTo(t.ctx, acc.email).join('\n')).toContain('was ended with the password and the unlock link');
  });

  it("an unlock link's tries count in the unlock budget: 30 parallel tries with the link get 5 checks, and one link opens one session", async () => {
    const acc = await makeAccount(t.ctx, { role: 'ADMIN' });
    await lockByTenAddresses(acc);
    const token = await unlockTokenMailedTo(acc);
    // Made-up links spend budgets of their own: the owner's link still has its five tries.
    const madeUp = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        login({ identifier: acc.username, password: acc.password, unlockToken: `made-up-${i}` }, `198.18.1.${i + 1}`),
      ),
    );
    expect(madeUp.every((r) => r.statusCode === 401)).toBe(true);
    const wrong = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login({ identifier: acc.username, password: `Wrong#${i}`, unlockToken: token }, `198.18.0.${i + 1}`),
      ),
    );
    expect(wrong.filter((r) => r.statusCode === 401)).toHaveLength(5);
    expect(wrong.filter((r) => r.statusCode === 429)).toHaveLength(25);
    // The unlock budget is spent: the right password waits like the rest.
    expect((await login({ identifier: acc.username, password: acc.password, unlockToken: token })).statusCode).toBe(429);
    await endLock(t.ctx, `login-unlock:${unlockLinkBudgetKey(acc.id, token)}`);
    const both = await Promise.all(
      [0, 1].map(() => login({ identifier: acc.username, password: acc.password, unlockToken: token }, '192.0.2.60')),
    );
    // One signs in with the link and lifts the lock. The other finds the link used (401), or, arriving
    // after the lock was lifted, signs in with the password alone as any unlocked account does.
    expect(both.map((r) => r.statusCode)).toContain(200);
    for (const r of both) if (r.statusCode !== 200) expect([r.statusCode, r.json().error.message]).toEqual([401, LOGIN.invalidUnlock]);
    const link = await t.ctx.db
      .selectFrom('password_reset_tokens')
      .select('usedAt')
      .where('tokenHash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    expect(link.usedAt).not.toBeNull();
    // Locked again, the used link opens nothing.
    await lockByTenAddresses(acc);
    await endLock(t.ctx, `login-unlock:${unlockLinkBudgetKey(acc.id, token)}`);
    const again = await login({ identifier: acc.username, password: acc.password, unlockToken: token }, '192.0.2.61');
    expect([again.statusCode, again.json().error.message]).toEqual([401, LOGIN.invalidUnlock]);
  });

  it('a role that must use a second factor gets no unlock link, and a link cannot skip setting one up', async () => {
    const strict = await createTestApp({ loginFailuresPerAccount: 10, require2faFor: ['SYSTEM_ADMIN'] });
    try {
      const acc = await makeAccount(strict.ctx, { role: 'SYSTEM_ADMIN' });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          strict.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: `198.51.100.${i + 1}`,
            payload: { identifier: acc.username, password: `Wrong#Guess${i}` },
          }),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(1);
      await vi.waitFor(() => {
        if (!outboxMailsTo(strict.ctx, acc.email).some((m) => m.includes('locked'))) throw new Error('no notice yet');
      });
      expect(outboxMailsTo(strict.ctx, acc.email).join('\n')).not.toContain('login#unlock=');
      const tokens = await strict.ctx.db.selectFrom('password_reset_tokens').select('purpose').where('accountId', '=', acc.id).execute();
      expect(tokens).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
