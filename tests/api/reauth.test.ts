import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../common/profile.js';
import { SECOND_FACTOR } from '../../common/second-factor.js';
import { accountsRepository } from '../../server/modules/identity/accounts/repository.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { newAdminBody, superAdminSession } from '../fixtures/accounts.js';
import { makeAccount, type TestAccount } from '../fixtures/factories.js';

/**
 * The Accounts screen's changes that could hand an account over, and turning a second factor on,
 * need the editor's password (and code): a stolen session alone cannot do them.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Method = 'POST' | 'PUT';
const call = (method: Method, url: string, cookie: string, payload: object = {}) =>
  t.app.inject({ method, url, headers: { cookie }, payload });
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
const PASSWORD_ASKED = { currentPassword: SETTINGS.currentPasswordRequired };

/** A super admin whose session has not confirmed itself, and an ADMIN to edit. */
async function setting() {
  const boss = await superAdminSession(t.app, t.ctx);
  const target = await makeAccount(t.ctx, { role: 'ADMIN' });
  return { boss, target };
}

function editBody(target: TestAccount, version: number, changes: object) {
  return { fullname: target.fullname, username: target.username, email: target.email, version, ...changes };
}

const cases: [string, (target: TestAccount) => object][] = [
  ['password', () => ({ password: 'Taken#Over2026' })],
  ['email', (target) => ({ email: `other.${target.email}` })],
  ['role', () => ({ role: 'SYSTEM_ADMIN' })],
];

describe("the Accounts screen asks for the editor's password", () => {
  for (const [what, change] of cases) {
    it(`to change an account's ${what}: refused without it (nothing changes), refused with a wrong one, allowed with it`, async () => {
      const { boss, target } = await setting();
      const before = (await accountsRepository.findById(t.ctx.db, target.id))!;
      const url = `/api/accounts/${target.id}`;
      const none = await call('PUT', url, boss.cookie, editBody(target, before.version, change(target)));
      expect(none.statusCode).toBe(400);
      expect(none.json().error.fields).toEqual(PASSWORD_ASKED);
      const wrong = await call('PUT', url, boss.cookie, {
        ...editBody(target, before.version, change(target)),
        currentPassword: 'Not#Mine2026',
      });
      expect(wrong.json().error.fields).toEqual({ currentPassword: SETTINGS.wrongCurrentPassword });
      expect(await accountsRepository.findById(t.ctx.db, target.id)).toEqual(before);
      const right = await call('PUT', url, boss.cookie, {
        ...editBody(target, before.version, change(target)),
        currentPassword: boss.account.password,
      });
      expect(right.statusCode, right.body).toBe(200);
    });
  }

  it("for the editor's own email and password too; the name alone needs nothing", async () => {
    const { boss } = await setting();
    const me = boss.account;
    const v = (await accountsRepository.findById(t.ctx.db, me.id))!.version;
    const own = await call(
      'PUT',
      `/api/accounts/${me.id}`,
      boss.cookie,
      editBody(me, v, { email: `new.${me.email}`, password: 'Mine#Again2026' }),
    );
    expect(own.json().error.fields).toEqual(PASSWORD_ASKED);
    const name = await call('PUT', `/api/accounts/${me.id}`, boss.cookie, editBody(me, v, { fullname: 'Renamed Boss' }));
    expect(name.statusCode, name.body).toBe(200);
  });

  it('to create a super admin, not an ADMIN', async () => {
    const { boss } = await setting();
    const su = await call('POST', '/api/accounts', boss.cookie, newAdminBody({ role: 'SYSTEM_ADMIN' }));
    expect(su.statusCode).toBe(400);
    expect(su.json().error.fields).toEqual(PASSWORD_ASKED);
    expect((await call('POST', '/api/accounts', boss.cookie, newAdminBody({ role: 'ADMIN' }))).statusCode).toBe(201);
    const confirmed = await call('POST', '/api/accounts', boss.cookie, {
      ...newAdminBody({ role: 'SYSTEM_ADMIN' }),
      currentPassword: boss.account.password,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
  });

  it("to reset another account's second factor, and to turn one's own on", async () => {
    const { boss } = await setting();
    const owner = await superAdminSession(t.app, t.ctx);
    const setupNone = await call('POST', '/api/profile/second-factor/setup', owner.cookie);
    expect(setupNone.statusCode).toBe(400);
    expect(setupNone.json().error.fields).toEqual({ password: SETTINGS.currentPasswordRequired });
    const setup = await call('POST', '/api/profile/second-factor/setup', owner.cookie, { password: owner.account.password });
    expect(setup.statusCode, setup.body).toBe(200);
    const { setupToken, secret } = setup.json();
    expect(
      (await call('POST', '/api/profile/second-factor/enable', owner.cookie, { setupToken, code: await codeAt(secret) })).statusCode,
    ).toBe(200);

    const url = `/api/accounts/${owner.account.id}/second-factor/reset`;
    const none = await call('POST', url, boss.cookie);
    expect(none.json().error.fields).toEqual(PASSWORD_ASKED);
    expect(
      await t.ctx.db.selectFrom('second_factors').select('accountId').where('accountId', '=', owner.account.id).execute(),
    ).toHaveLength(1);
    expect((await call('POST', url, boss.cookie, { currentPassword: boss.account.password })).statusCode).toBe(200);
  });

  it('and a code when the editor has a second factor; one confirmation then stands for 5 minutes', async () => {
    const boss = await superAdminSession(t.app, t.ctx);
    const setup = (await call('POST', '/api/profile/second-factor/setup', boss.cookie, { password: boss.account.password })).json();
    await call('POST', '/api/profile/second-factor/enable', boss.cookie, {
      setupToken: setup.setupToken,
      code: await codeAt(setup.secret),
    });
    await t.ctx.db.updateTable('sessions').set({ reauthAt: null }).where('accountId', '=', boss.account.id).execute();
    const target = await makeAccount(t.ctx, { role: 'ADMIN' });
    const v = (await accountsRepository.findById(t.ctx.db, target.id))!.version;
    const url = `/api/accounts/${target.id}`;
    const passwordOnly = await call('PUT', url, boss.cookie, {
      ...editBody(target, v, { role: 'SYSTEM_ADMIN' }),
      currentPassword: boss.account.password,
    });
    expect(passwordOnly.json().error.fields).toEqual({ code: SECOND_FACTOR.codeRequired });
    const both = await call('PUT', url, boss.cookie, {
      ...editBody(target, v, { role: 'SYSTEM_ADMIN' }),
      currentPassword: boss.account.password,
      code: await codeAt(setup.secret, 1),
    });
    expect(both.statusCode, both.body).toBe(200);
    const within = await call('PUT', url, boss.cookie, editBody(target, v + 1, { password: 'Within#Five2026' }));
    expect(within.statusCode, within.body).toBe(200);
  });
});
