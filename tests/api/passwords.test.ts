import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_PASSWORD, RECOVERY, SETTINGS } from '../../common/profile.js';
import { SECOND_FACTOR } from '../../common/second-factor.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { BCRYPT_HASH, login, loginAs, makeAccount } from '../fixtures/factories.js';
import { outboxMailsTo } from '../fixtures/settings.js';

let t: TestApp;
beforeAll(async () => {
  // Several sessions per account, so "the other sessions end" has sessions to end.
  t = await createTestApp({ maxSessionsPerAccount: 3 });
});
afterAll(async () => {
  await t.close();
});

const NEW_PASSWORD = 'Harvest#2026';

type App = TestApp['app'];
const changePassword = (app: App, cookie: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/profile/password', headers: { cookie }, payload });
const sessionOk = async (app: App, cookie: string) => (await app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode;

async function accountState(app: TestApp, id: string) {
  const row = await app.ctx.db.selectFrom('accounts').select(['password', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
  const audits = await app.ctx.db.selectFrom('audit_logs').select('id').where('documentId', '=', id).execute();
  return { ...row, audits: audits.length };
}

describe('Change password in Account Settings', () => {
  it('sets the new password, keeps this session, ends the others, voids reset links, audits and mails the owner', async () => {
    const acc = await makeAccount(t.ctx);
    const mine = await loginAs(t.app, acc);
    const other = await loginAs(t.app, acc);
    const third = await loginAs(t.app, acc);
    expect(await sessionOk(t.app, other)).toBe(200);
    // A reset link mailed before the change stops working with it.
    expect((await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie: mine } })).statusCode).toBe(200);

    const res = await changePassword(t.app, mine, {
      currentPassword: acc.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ endedSessions: 2 });

    expect(await sessionOk(t.app, mine)).toBe(200);
    expect(await sessionOk(t.app, other)).toBe(401);
    expect(await sessionOk(t.app, third)).toBe(401);
    const live = await t.ctx.db
      .selectFrom('password_reset_tokens')
      .select('tokenHash')
      .where('accountId', '=', acc.id)
      .where('usedAt', 'is', null)
      .execute();
    expect(live).toHaveLength(0);

    const row = await t.ctx.db.selectFrom('accounts').select('password').where('id', '=', acc.id).executeTakeFirstOrThrow();
    expect(row.password).toMatch(BCRYPT_HASH);
    await login(t.app, acc.username, NEW_PASSWORD);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: acc.username, password: acc.password },
    });
    expect(old.statusCode).toBe(401);

    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', acc.id)
      .where('description', '=', 'Changed own password in Account Settings')
      .executeTakeFirstOrThrow();
    expect(audit.userId).toBe(acc.id);
    expect(JSON.parse(audit.details!)).toMatchObject({ field: 'password', method: 'account_settings', endedSessions: 2 });
    expect(audit.changes).not.toContain(NEW_PASSWORD);
    await expect.poll(() => outboxMailsTo(t.ctx, acc.email).filter((m) => m.includes(CHANGE_PASSWORD.emailSubject)).length).toBe(1);
  });

  it('refuses a weak, mismatched or unchanged new password with a clear 400 and changes nothing', async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const before = await accountState(t, acc.id);
    const budget = () => t.ctx.db.selectFrom('throttles').selectAll().where('key', 'like', `%${acc.id}%`).execute();
    const budgetBefore = await budget();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ currentPassword: acc.password, newPassword: 'weakpass', confirmPassword: 'weakpass' }, 'newPassword', RECOVERY.rulesNotMet],
      [
        { currentPassword: acc.password, newPassword: NEW_PASSWORD, confirmPassword: 'Harvest#2027' },
        'confirmPassword',
        RECOVERY.passwordsDontMatch,
      ],
      [
        { currentPassword: acc.password, newPassword: acc.password, confirmPassword: acc.password },
        'newPassword',
        CHANGE_PASSWORD.sameAsCurrent,
      ],
      [
        { currentPassword: '', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        'currentPassword',
        CHANGE_PASSWORD.currentRequired,
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await changePassword(t.app, cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.fields?.[field]).toBe(message);
    }
    expect(await accountState(t, acc.id)).toEqual(before);
    // None of them spent a guess: the budget is untouched.
    expect(await budget()).toEqual(budgetBefore);
    await loginAs(t.app, acc);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/profile/password',
      payload: { currentPassword: 'x', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });

  it('counts a wrong current password before checking it, like a sign-in: parallel guesses get the budget and no more', async () => {
    const limited = await createTestApp({ loginFailuresPerAccount: 4 });
    try {
      const acc = await makeAccount(limited.ctx);
      const cookie = await loginAs(limited.app, acc);
      const before = await limited.ctx.db.selectFrom('accounts').select('password').where('id', '=', acc.id).executeTakeFirstOrThrow();
      const one = await changePassword(limited.app, cookie, {
        currentPassword: 'Wrong#000',
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(one.statusCode).toBe(400);
      expect(one.json().error.fields).toEqual({ currentPassword: SETTINGS.wrongCurrentPassword });
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          changePassword(limited.app, cookie, { currentPassword: `Wrong#${i}`, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
        ),
      );
      // 4 guesses in all: the first above, two more refused after a check, the fourth locks the account.
      expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(2);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(28);
      // Locked now: even the right current password is not checked.
      const right = await changePassword(limited.app, cookie, {
        currentPassword: acc.password,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(right.statusCode).toBe(429);
      const after = await limited.ctx.db.selectFrom('accounts').select('password').where('id', '=', acc.id).executeTakeFirstOrThrow();
      expect(after.password).toBe(before.password);
      const locks = await limited.ctx.db
        .selectFrom('audit_logs')
        .select('details')
        .where('documentId', '=', acc.id)
        .where('action', '=', 'LOGIN')
        .execute();
      expect(locks.some((l) => l.details?.includes('"outcome":"locked"'))).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('asks a code too when the account has two-step sign-in', async () => {
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, acc);
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/profile/second-factor/setup',
      headers: { cookie },
      payload: { password: acc.password },
    });
    const { setupToken, secret } = setup.json();
    const codeAt = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
    const enabled = await t.app.inject({
      method: 'POST',
      url: '/api/profile/second-factor/enable',
      headers: { cookie },
      payload: { setupToken, code: await codeAt(0) },
    });
    expect(enabled.statusCode).toBe(200);
    const body = { currentPassword: acc.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    const noCode = await changePassword(t.app, cookie, body);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().error.fields).toEqual({ code: SECOND_FACTOR.codeRequired });
    const wrongCode = await changePassword(t.app, cookie, { ...body, code: '000000' });
    expect(wrongCode.json().error.fields).toEqual({ code: SECOND_FACTOR.invalidCode });
    const ok = await changePassword(t.app, cookie, { ...body, code: await codeAt(1) });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
