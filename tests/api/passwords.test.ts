import { generate } from 'otplib';
import { SMTPServer } from 'smtp-server';
import { ACCOUNTS, INVITATION, INVITATION_TTL_MS } from '../../common/accounts.js';
import { sha256 } from '../../server/platform/identity/passwords.js';
import { newAdminBody, superAdminSession } from '../fixtures/accounts.js';
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

/** An Add New Admin body without a password, for an invitation. */
function inviteBody(overrides: Parameters<typeof newAdminBody>[0] = {}) {
  const { password: _password, ...body } = newAdminBody(overrides);
  return body;
}
const invite = (app: App, cookie: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/accounts/invitations', headers: { cookie }, payload });
const tokenOf = (link: string) => decodeURIComponent(new URL(link).hash.slice('#token='.length));
const checkInvitation = (app: App, token: unknown) => app.inject({ method: 'POST', url: '/api/invitations/check', payload: { token } });
const accept = (app: App, token: unknown, newPassword: string, confirmPassword = newPassword) =>
  app.inject({ method: 'POST', url: '/api/invitations/accept', payload: { token, newPassword, confirmPassword } });
const tryLogin = (app: App, identifier: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier, password } });

describe('invitations for new admins, without a mail server', () => {
  it('creates the account without a usable password and shows the link once; only its hash is stored; audited', async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const body = inviteBody();
    const res = await invite(t.app, su.cookie, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toContain('no-store');
    const result = res.json();
    expect(result).toMatchObject({ delivery: 'link', sentTo: null, mailFailed: false });
    expect(result.account).toMatchObject({ username: body.username, email: body.email, role: 'ADMIN', displayStatus: 'active' });
    expect(result.link).toMatch(/\/invitation#token=[\w%-]{40,}$/);
    const token = tokenOf(result.link);

    const row = await t.ctx.db
      .selectFrom('accounts')
      .select(['id', 'password'])
      .where('username', '=', body.username)
      .executeTakeFirstOrThrow();
    expect(row.password).toBe('');
    const stored = await t.ctx.db.selectFrom('password_reset_tokens').selectAll().where('accountId', '=', row.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ tokenHash: sha256(token), purpose: 'invitation', usedAt: null });
    expect(Date.parse(stored.expiresAt) - Date.parse(stored.createdAt)).toBe(INVITATION_TTL_MS);
    expect(Date.parse(result.expiresAt)).toBe(Date.parse(stored.expiresAt));

    // Nobody signs in to it before the invitee sets a password, not even with an empty one.
    for (const password of ['', 'Palay#2025', ' ']) expect((await tryLogin(t.app, body.username, password)).statusCode).not.toBe(200);
    // The link is not shown again, and nothing went to the outbox.
    const again = await t.app.inject({ url: `/api/accounts/${row.id}`, headers: { cookie: su.cookie } });
    expect(again.body).not.toContain(token);
    expect(outboxMailsTo(t.ctx, body.email)).toHaveLength(0);

    const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', row.id).orderBy('seq').execute();
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'UPDATE']);
    expect(audit[1]!.description).toBe(`Invited ${body.username} to set a password: link shown once to ${su.account.fullname}`);
    expect(audit[1]!.userId).toBe(su.account.id);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('the link sets the first password once, under the checklist, then the invitee logs in; audited', async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const body = inviteBody();
    const token = tokenOf((await invite(t.app, su.cookie, body)).json().link);

    const status = await checkInvitation(t.app, token);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ valid: true, fullname: body.fullname, username: body.username });
    const weak = await accept(t.app, token, 'weakpass');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toEqual({ newPassword: RECOVERY.rulesNotMet });
    const mismatch = await accept(t.app, token, NEW_PASSWORD, 'Harvest#2027');
    expect(mismatch.json().error.fields).toEqual({ confirmPassword: RECOVERY.passwordsDontMatch });
    expect((await checkInvitation(t.app, token)).statusCode).toBe(200);

    const done = await accept(t.app, token, NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
    await login(t.app, body.username, NEW_PASSWORD);
    await login(t.app, body.email, NEW_PASSWORD);

    const replay = await accept(t.app, token, 'Again#Pass12');
    expect(replay.statusCode).toBe(404);
    expect(replay.json().error.message).toBe(INVITATION.invalid);
    expect((await checkInvitation(t.app, token)).statusCode).toBe(404);
    await login(t.app, body.username, NEW_PASSWORD);

    const id = (await t.ctx.db.selectFrom('accounts').select('id').where('username', '=', body.username).executeTakeFirstOrThrow()).id;
    const entry = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', id)
      .where('description', '=', 'Invitation accepted: first password set')
      .executeTakeFirstOrThrow();
    expect(entry.userId).toBe(id);
    expect(JSON.parse(entry.details!)).toMatchObject({ field: 'password', method: 'invitation' });
  });

  it('two acceptances at once: one sets the password, the other is refused', async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const body = inviteBody();
    const token = tokenOf((await invite(t.app, su.cookie, body)).json().link);
    const [a, b] = await Promise.all([accept(t.app, token, 'First#Pass1'), accept(t.app, token, 'Second#Pass2')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 404]);
    const winner = a.statusCode === 200 ? 'First#Pass1' : 'Second#Pass2';
    await login(t.app, body.username, winner);
  });

  it('expires; a made-up or malformed token is a clear 4xx; a password set by a super admin voids the invitation', async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const first = inviteBody();
    const expired = tokenOf((await invite(t.app, su.cookie, first)).json().link);
    await t.ctx.db
      .updateTable('password_reset_tokens')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('tokenHash', '=', sha256(expired))
      .execute();
    for (const res of [await checkInvitation(t.app, expired), await accept(t.app, expired, NEW_PASSWORD)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(INVITATION.invalid);
    }
    const madeUp = await accept(t.app, 'x'.repeat(43), NEW_PASSWORD);
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json().error.message).toBe(INVITATION.invalid);
    expect((await checkInvitation(t.app, '')).statusCode).toBe(400);
    expect((await accept(t.app, 'y'.repeat(500), NEW_PASSWORD)).statusCode).toBe(400);
    // A reset link is not an invitation, nor the other way round.
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    const resetLink = outboxMailsTo(t.ctx, acc.email)
      .at(-1)!
      .match(/reset-password#token=([\w%-]+)/)![1]!;
    expect((await accept(t.app, decodeURIComponent(resetLink), NEW_PASSWORD)).statusCode).toBe(404);

    const second = inviteBody();
    const created = (await invite(t.app, su.cookie, second)).json();
    const token = tokenOf(created.link);
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/accounts/${created.account.id}`,
      headers: { cookie: su.cookie },
      payload: { ...second, password: 'Typed#Pass1', version: created.account.version, currentPassword: su.account.password },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await accept(t.app, token, NEW_PASSWORD)).statusCode).toBe(404);
    await login(t.app, second.username, 'Typed#Pass1');

    // An invitation mailed to an address the account no longer has stops working.
    const third = inviteBody();
    const moved = (await invite(t.app, su.cookie, third)).json();
    const movedEdit = await t.app.inject({
      method: 'PUT',
      url: `/api/accounts/${moved.account.id}`,
      headers: { cookie: su.cookie },
      payload: { ...third, email: `new.${third.email}`, version: moved.account.version, currentPassword: su.account.password },
    });
    expect(movedEdit.statusCode, movedEdit.body).toBe(200);
    expect((await checkInvitation(t.app, tokenOf(moved.link))).statusCode).toBe(404);
  });

  it('a new link for an account without a password: the old one stops working; refused once a password is set', async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const body = inviteBody({ role: 'SYSTEM_ADMIN' });
    const created = (await invite(t.app, su.cookie, { ...body, currentPassword: su.account.password })).json();
    expect(created.account.needsPassword).toBe(true);
    const reinvite = (payload: Record<string, unknown> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/accounts/${created.account.id}/invitation`, headers: { cookie: su.cookie }, payload });
    // A super admin's account: the inviter's password again, as for creating one.
    await t.ctx.db.updateTable('sessions').set({ reauthAt: null }).where('accountId', '=', su.account.id).execute();
    expect((await reinvite()).json().error.fields).toEqual({ currentPassword: SETTINGS.currentPasswordRequired });
    const renewed = await reinvite({ currentPassword: su.account.password });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json()).toMatchObject({ delivery: 'link', mailFailed: false });
    const fresh = tokenOf(renewed.json().link);
    expect(fresh).not.toBe(tokenOf(created.link));
    expect((await checkInvitation(t.app, tokenOf(created.link))).statusCode).toBe(404);
    expect((await accept(t.app, fresh, NEW_PASSWORD)).statusCode).toBe(200);
    const after = await t.app.inject({ url: `/api/accounts/${created.account.id}`, headers: { cookie: su.cookie } });
    expect(after.json().needsPassword).toBe(false);
    const refused = await reinvite();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(ACCOUNTS.messages.hasPassword);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('documentId', '=', created.account.id)
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => a.description)).toContain(`New invitation link for ${body.username}: shown once to ${su.account.fullname}`);
  });

  it("keeps Add New Admin's rules: taken names refused, a super admin's invitation needs the inviter's password", async () => {
    const su = await superAdminSession(t.app, t.ctx);
    const body = inviteBody();
    expect((await invite(t.app, su.cookie, body)).statusCode).toBe(201);
    const taken = await invite(t.app, su.cookie, { ...inviteBody(), username: body.username });
    expect(taken.statusCode).toBe(409);
    const superBody = inviteBody({ role: 'SYSTEM_ADMIN' });
    await t.ctx.db.updateTable('sessions').set({ reauthAt: null }).where('accountId', '=', su.account.id).execute();
    const unproved = await invite(t.app, su.cookie, superBody);
    expect(unproved.statusCode).toBe(400);
    expect(unproved.json().error.fields).toEqual({ currentPassword: SETTINGS.currentPasswordRequired });
    expect(await t.ctx.db.selectFrom('accounts').select('id').where('username', '=', superBody.username).execute()).toHaveLength(0);
    const proved = await invite(t.app, su.cookie, { ...superBody, currentPassword: su.account.password });
    expect(proved.statusCode).toBe(201);
    expect(proved.json().account.role).toBe('SYSTEM_ADMIN');
    const admin = await makeAccount(t.ctx);
    expect((await invite(t.app, await loginAs(t.app, admin), inviteBody())).statusCode).toBe(403);
  });
});

describe('invitations with a mail server', () => {
  const inbox: Array<{ to: string[]; raw: string }> = [];
  let smtp: SMTPServer;
  let mailApp: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as { port: number }).port;
    mailApp = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, publicUrl: 'https://palayan.example.gov.ph/' });
  });
  afterAll(async () => {
    await mailApp.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails the link to the new account and does not return it; the mailed link sets the password', async () => {
    const su = await superAdminSession(mailApp.app, mailApp.ctx);
    const body = inviteBody();
    const res = await invite(mailApp.app, su.cookie, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ delivery: 'email', sentTo: body.email, link: null, mailFailed: false });
    const mail = inbox.find((m) => m.to.includes(body.email));
    expect(mail).toBeDefined();
    expect(mail!.raw).toContain(`Subject: ${INVITATION.emailSubject}`);
    const unfolded = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toContain(body.username);
    const link = unfolded.match(/https:\/\/palayan\.example\.gov\.ph\/invitation#token=[\w%-]+/)![0];
    const audit = await mailApp.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('documentId', '=', res.json().account.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(audit.description).toBe(`Invited ${body.username} to set a password: link emailed to ${body.email}`);
    expect((await accept(mailApp.app, tokenOf(link), NEW_PASSWORD)).statusCode).toBe(200);
    await login(mailApp.app, body.username, NEW_PASSWORD);
  });

  it('shows the link instead when the mail server is down', async () => {
    const down = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      const su = await superAdminSession(down.app, down.ctx);
      const res = await invite(down.app, su.cookie, inviteBody());
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ delivery: 'link', sentTo: null, mailFailed: true });
      expect((await accept(down.app, tokenOf(res.json().link), NEW_PASSWORD)).statusCode).toBe(200);
    } finally {
      await down.close();
    }
  });
});
