import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY, SETTINGS } from '../../common/profile.js';
import { accountsRepository } from '../../server/modules/identity/accounts/repository.js';
import { sha256 } from '../../server/platform/identity/passwords.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { BCRYPT_HASH, login, loginAs, makeAccount } from '../fixtures/factories.js';
import { endLock, freshIp, makeAccountWithAnswer, OTHER_QUESTION, outboxMailsTo, recoveryClient } from '../fixtures/settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const NEW_PASSWORD = 'Palay#2025';

function expectField(res: { statusCode: number; json(): any }, status: number, field: string, message: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().error.message).toBe(message);
  expect(res.json().error.fields?.[field]).toBe(message);
}

async function auditOf(app: TestApp, documentId: string | null, action?: string) {
  let q = app.ctx.db.selectFrom('audit_logs').selectAll().orderBy('seq', 'asc');
  q = documentId === null ? q.where('documentId', 'is', null) : q.where('documentId', '=', documentId);
  if (action) q = q.where('action', '=', action);
  return q.execute();
}

describe('step 1: identify', () => {
  it('asks for a username or email', async () => {
    const c = recoveryClient(t.app);
    expectField(await c.identify('   '), 400, 'identifier', RECOVERY.identifierRequired);
    expectField(await c.identify(undefined), 400, 'identifier', RECOVERY.identifierRequired);
  });

  it('says User not found for an unknown or deleted account, and audits it', async () => {
    const c = recoveryClient(t.app);
    const tag = `nobody_${Date.now()}`;
    expectField(await c.identify(tag), 404, 'identifier', RECOVERY.userNotFound);
    const entry = (await auditOf(t, null, 'LOGIN')).find((e) => e.details?.includes(tag));
    expect(entry).toBeDefined();
    expect(entry!.collection).toBe('accounts');
    expect(JSON.parse(entry!.details!)).toMatchObject({ step: 'identify', outcome: 'unknown_account', ip: c.ip });

    const deleted = await makeAccountWithAnswer(t.ctx);
    await accountsRepository.update(t.ctx.db, deleted.id, { isDeleted: 1 });
    expectField(await c.identify(deleted.username), 404, 'identifier', RECOVERY.userNotFound);
  });

  it('finds the account by username or email (any case) and returns only an opaque recovery id', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    for (const identifier of [acc.username, `  ${acc.email.toUpperCase()} `]) {
      const res = await c.identify(identifier);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body)).toEqual(['recoveryId']);
      expect(body.recoveryId).toMatch(/^[\w-]{40,}$/);
      expect(res.body).not.toContain(acc.id);
      expect(res.body).not.toContain(acc.question);
      // Only the id's hash is stored.
      const stored = await t.ctx.db.selectFrom('recovery_flows').selectAll().where('id', '=', sha256(body.recoveryId)).executeTakeFirst();
      expect(stored?.accountId).toBe(acc.id);
    }
  });

  it('lists the security questions without a session', async () => {
    const res = await t.app.inject({ url: '/api/recovery/questions' });
    expect(res.statusCode).toBe(200);
    expect(res.json().securityQuestions).toHaveLength(5);
  });
});

describe('step 2: question and answer', () => {
  it('gives each SPEC message', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    expectField(await c.verify(recoveryId, '', 'x'), 400, 'question', RECOVERY.questionRequired);
    expectField(await c.verify(recoveryId, acc.question, '   '), 400, 'answer', RECOVERY.answerRequired);
    expectField(await c.verify(recoveryId, OTHER_QUESTION, acc.answer), 400, 'question', RECOVERY.questionMismatch);
    expectField(await c.verify(recoveryId, acc.question, 'not it'), 400, 'answer', RECOVERY.wrongAnswer);
  });

  it('compares the answer case-insensitively and trimmed, and never returns it', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { answer: 'Mang Kanor' });
    const c = recoveryClient(t.app);
    const id = await c.identify(acc.username);
    const res = await c.verify(id.json().recoveryId, acc.question, '  mANG kANOR ');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['resetToken']);
    for (const body of [id.body, res.body]) {
      expect(body.toLowerCase()).not.toContain('mang kanor');
      expect(body).not.toMatch(/\$2[aby]\$/);
    }
  });

  it('treats an account without a question as a mismatch', async () => {
    const acc = await makeAccount(t.ctx);
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    expectField(await c.verify(recoveryId, OTHER_QUESTION, 'anything'), 400, 'question', RECOVERY.questionMismatch);
  });

  it('hashes a legacy plain-text answer on first use', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { answer: 'Tarlac City', plain: true });
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    expectField(await c.verify(recoveryId, acc.question, 'wrong city'), 400, 'answer', RECOVERY.wrongAnswer);
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.securityAnswer!.startsWith('$2')).toBe(true);
    const ok = await c.verify(recoveryId, acc.question, 'tarlac city');
    expect(ok.statusCode).toBe(200);
  });

  it('refuses an unknown, expired or already used recovery id', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    const bogus = await c.verify('not-a-recovery-id', acc.question, acc.answer);
    expect(bogus.statusCode).toBe(404);
    expect(bogus.json().error.message).toBe(RECOVERY.expired);

    const { recoveryId } = (await c.identify(acc.username)).json();
    expect((await c.verify(recoveryId, acc.question, acc.answer)).statusCode).toBe(200);
    const replay = await c.verify(recoveryId, acc.question, acc.answer);
    expect(replay.statusCode).toBe(404);
    expect(replay.json().error.reason).toBe('recovery_expired');

    const second = (await c.identify(acc.username)).json().recoveryId;
    await t.ctx.db
      .updateTable('recovery_flows')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', sha256(second))
      .execute();
    expect((await c.verify(second, acc.question, acc.answer)).statusCode).toBe(404);
  });
});

describe('step 3: new password', () => {
  it('gives each SPEC message and changes nothing on bad input', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    const token = await c.tokenFor(acc);
    const before = (await accountsRepository.findById(t.ctx.db, acc.id))!.password;
    const empty = await c.reset(token, '', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(RECOVERY.fillBoth);
    expect(empty.json().error.fields).toEqual({ newPassword: RECOVERY.fillBoth, confirmPassword: RECOVERY.fillBoth });
    expectField(await c.reset(token, NEW_PASSWORD, ''), 400, 'confirmPassword', RECOVERY.fillBoth);
    for (const weak of ['Sh#rt1A', 'alllowercase#1', 'NoDigits#here', 'NoSpecial123']) {
      expectField(await c.reset(token, weak, weak), 400, 'newPassword', RECOVERY.rulesNotMet);
    }
    expectField(await c.reset(token, NEW_PASSWORD, `${NEW_PASSWORD}x`), 400, 'confirmPassword', RECOVERY.passwordsDontMatch);
    expect((await accountsRepository.findById(t.ctx.db, acc.id))!.password).toBe(before);
    // The token survived the bad attempts.
    expect((await c.reset(token, NEW_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('sets a bcrypt cost-10 password, ends every session, audits it, and the token works once', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const c = recoveryClient(t.app);
    const token = await c.tokenFor(acc);
    const res = await c.reset(token, NEW_PASSWORD, NEW_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.password).toMatch(BCRYPT_HASH);
    expect((await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(401);
    await expect(login(t.app, acc.username, acc.password)).rejects.toThrow();
    await login(t.app, acc.username, NEW_PASSWORD);
    const audit = await auditOf(t, acc.id, 'UPDATE');
    expect(audit.at(-1)!.description).toBe('Password reset through the security question');
    expect(audit.at(-1)!.userId).toBe(acc.id);
    expect(JSON.stringify(audit)).not.toMatch(/\$2[aby]\$/);
    // Its owner hears of it at once (the outbox: this server has no SMTP).
    const notices = () => outboxMailsTo(t.ctx, acc.email).filter((m) => m.includes('reset by answering your security question'));
    await expect.poll(() => notices().length).toBe(1);

    const replay = await c.reset(token, 'Another#Pass1', 'Another#Pass1');
    expect(replay.statusCode).toBe(404);
    expect(replay.json().error.message).toBe(RECOVERY.expired);
    await login(t.app, acc.username, NEW_PASSWORD);
  });

  it("keeps the requester's own session when they reset while signed in", async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const c = recoveryClient(t.app, freshIp(), cookie);
    const token = await c.tokenFor(acc);
    expect((await c.reset(token, NEW_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(200);
  });

  it('cannot be reached without step 2', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    // The step-1 id is not a reset token, nor is anything made up.
    for (const token of [recoveryId, 'made-up-token', acc.id]) {
      const res = await c.reset(token, NEW_PASSWORD, NEW_PASSWORD);
      expect(res.statusCode).toBe(404);
    }
    // An email-link token cannot be used as a step-3 token either.
    const own = await loginAs(t.app, acc);
    await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie: own } });
    const linkRow = await t.ctx.db.selectFrom('password_reset_tokens').selectAll().where('accountId', '=', acc.id).executeTakeFirst();
    expect(linkRow?.purpose).toBe('email_link');
    await login(t.app, acc.username, acc.password);
  });

  it('refuses an expired reset token', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    const token = await c.tokenFor(acc);
    await t.ctx.db
      .updateTable('password_reset_tokens')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('tokenHash', '=', sha256(token))
      .execute();
    const res = await c.reset(token, NEW_PASSWORD, NEW_PASSWORD);
    expect(res.statusCode).toBe(404);
    await login(t.app, acc.username, acc.password);
  });
});

describe('throttling', () => {
  it('pauses question recovery for 15 minutes after 5 wrong answers, and audits each', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    for (let i = 0; i < 4; i += 1) expectField(await c.verify(recoveryId, acc.question, `guess ${i}`), 400, 'answer', RECOVERY.wrongAnswer);
    expectField(await c.verify(recoveryId, OTHER_QUESTION, acc.answer), 400, 'question', RECOVERY.questionMismatch);
    const right = await c.verify(recoveryId, acc.question, acc.answer);
    expect(right.statusCode).toBe(429);
    expect(right.json().error.message).toBe(RECOVERY.paused(15));
    const pausedUntil = Date.parse(right.json().error.pausedUntil);
    expect(pausedUntil - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(pausedUntil - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    // From another address and a new recovery too: the pause is the account's.
    const other = recoveryClient(t.app);
    expect((await other.identify(acc.username)).statusCode).toBe(429);
    const audit = await auditOf(t, acc.id, 'LOGIN');
    expect(audit).toHaveLength(6); // five wrong ones and the pause
    expect(audit.at(-2)!.userName).toBe('System User');
    expect(JSON.parse(audit.at(-2)!.details!)).toMatchObject({ paused: true, failures: 5 });
    expect(JSON.parse(audit.at(-1)!.details!)).toMatchObject({ outcome: 'locked', what: 'answer', lockouts: 1, lockMinutes: 15 });
    expect(JSON.stringify(audit)).not.toContain(acc.answer);
    // When the pause is over, the right answer works.
    await endLock(t.ctx, `recovery-answer:${acc.id}`);
    expect((await other.tokenFor(acc)).length).toBeGreaterThan(20);
  });

  it('50 wrong answers at once get 5 checks, one pause and one email; the next pause lasts twice as long', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { email: `pause.${Date.now()}@da.example` });
    const burst = async () => {
      const { recoveryId } = (await recoveryClient(t.app).identify(acc.username)).json();
      return (
        await Promise.all(Array.from({ length: 50 }, (_, i) => recoveryClient(t.app).verify(recoveryId, acc.question, `guess ${i}`)))
      ).map((r) => r.statusCode);
    };
    const first = await burst();
    expect(first.filter((s) => s === 400)).toHaveLength(5); // checked and wrong
    expect(first.filter((s) => s === 429)).toHaveLength(45); // refused unchecked
    const wrong = (await auditOf(t, acc.id, 'LOGIN')).filter((e) => e.description === 'Password recovery: wrong security answer');
    expect(wrong).toHaveLength(5);
    const paused = await recoveryClient(t.app).identify(acc.username);
    expect(paused.json().error.message).toBe(RECOVERY.paused(15));
    await endLock(t.ctx, `recovery-answer:${acc.id}`);
    const second = await burst();
    expect(second.filter((s) => s === 400)).toHaveLength(5);
    expect((await recoveryClient(t.app).identify(acc.username)).json().error.message).toBe(RECOVERY.paused(30));
    const mails = () => outboxMailsTo(t.ctx, acc.email);
    await expect.poll(() => mails().length).toBe(2);
    expect(mails().join('\n')).toContain(
      'password recovery with the security question for your PalaYan Admin account is locked for 30 minutes',
    );
  });

  it('limits unknown accounts and wrong answers per IP, not for other addresses', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const c = recoveryClient(t.app);
    for (let i = 0; i < 20; i += 1) expect((await c.identify(`ghost_${i}_${Date.now()}`)).statusCode).toBe(404);
    const blocked = await c.identify(acc.username);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe(RECOVERY.tooManyAttempts);
    expect((await recoveryClient(t.app).identify(acc.username)).statusCode).toBe(200);
  });

  it('limits one unknown identifier across addresses', async () => {
    const ghost = `ghost_${Date.now()}`;
    for (let i = 0; i < 10; i += 1) expect((await recoveryClient(t.app).identify(ghost)).statusCode).toBe(404);
    expect((await recoveryClient(t.app).identify(ghost)).statusCode).toBe(429);
  });
});

describe('the emailed reset link', () => {
  interface Received {
    to: string[];
    raw: string;
  }
  let smtp: SMTPServer;
  let port = 0;
  let mailApp: TestApp;
  const inbox: Received[] = [];

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
    port = (smtp.server.address() as { port: number }).port;
    mailApp = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, publicUrl: 'https://palayan.example.gov.ph/' });
  });
  afterAll(async () => {
    await mailApp.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  /** The link of the latest message to that address, from the text part. */
  function linkIn(to: string): string {
    const mail = [...inbox].reverse().find((m) => m.to.includes(to));
    if (!mail) throw new Error(`no email to ${to}`);
    const unfolded = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const match = unfolded.match(/https:\/\/palayan\.example\.gov\.ph\/reset-password#token=[\w%-]+/);
    if (!match) throw new Error('no link in the email');
    return match[0];
  }

  it('is delivered over SMTP, works once, and sets a password under the checklist', async () => {
    const acc = await makeAccountWithAnswer(mailApp.ctx);
    const cookie = await loginAs(mailApp.app, acc);
    const res = await mailApp.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sentTo: acc.email });
    const link = linkIn(acc.email);
    const mail = inbox.at(-1)!;
    expect(mail.raw).toContain(`Subject: ${RECOVERY.emailSubject}`);
    const token = decodeURIComponent(new URL(link).hash.slice('#token='.length));
    // Only the hash is stored, with the email-link purpose and a 30-minute life.
    const row = await mailApp.ctx.db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('tokenHash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    expect(row.purpose).toBe('email_link');
    const life = Date.parse(row.expiresAt) - Date.parse(row.createdAt);
    expect(life).toBe(30 * 60_000);

    const c = recoveryClient(mailApp.app);
    expect((await c.checkLink(token)).json()).toMatchObject({ valid: true });
    expectField(await c.resetWithLink(token, 'weakpass', 'weakpass'), 400, 'newPassword', RECOVERY.rulesNotMet);
    expectField(await c.resetWithLink(token, NEW_PASSWORD, 'Palay#2024'), 400, 'confirmPassword', RECOVERY.passwordsDontMatch);
    const done = await c.resetWithLink(token, NEW_PASSWORD, NEW_PASSWORD);
    expect(done.statusCode).toBe(200);
    await login(mailApp.app, acc.username, NEW_PASSWORD);
    // The session that asked for the email ended with the password change (it was not the requester).
    expect((await mailApp.app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(401);

    const replay = await c.resetWithLink(token, 'Again#Pass12', 'Again#Pass12');
    expect(replay.statusCode).toBe(404);
    expect(replay.json().error.message).toBe(RECOVERY.linkInvalid);
    expect((await c.checkLink(token)).statusCode).toBe(404);
    const audit = await auditOf(mailApp, acc.id, 'UPDATE');
    expect(audit.at(-1)!.description).toBe('Password reset through the email link');
  });

  it('expires, and a newer email retires the older link', async () => {
    const acc = await makeAccountWithAnswer(mailApp.ctx);
    const cookie = await loginAs(mailApp.app, acc);
    const send = () => mailApp.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    expect((await send()).statusCode).toBe(200);
    const first = decodeURIComponent(new URL(linkIn(acc.email)).hash.slice('#token='.length));
    expect((await send()).statusCode).toBe(200);
    const second = decodeURIComponent(new URL(linkIn(acc.email)).hash.slice('#token='.length));
    expect(second).not.toBe(first);
    const c = recoveryClient(mailApp.app);
    expect((await c.resetWithLink(first, NEW_PASSWORD, NEW_PASSWORD)).statusCode).toBe(404);
    await mailApp.ctx.db
      .updateTable('password_reset_tokens')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('tokenHash', '=', sha256(second))
      .execute();
    expect((await c.checkLink(second)).statusCode).toBe(404);
    expect((await c.resetWithLink(second, NEW_PASSWORD, NEW_PASSWORD)).statusCode).toBe(404);
    await login(mailApp.app, acc.username, acc.password);
  });

  it("says 'No email available.' when the account has no email", async () => {
    const acc = await makeAccount(mailApp.ctx);
    const cookie = await loginAs(mailApp.app, acc);
    await accountsRepository.update(mailApp.ctx.db, acc.id, { email: null, normalizedEmail: null });
    const before = inbox.length;
    const res = await mailApp.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(SETTINGS.noEmail);
    expect(inbox.length).toBe(before);
  });

  it('limits how many emails one account can ask for', async () => {
    const acc = await makeAccount(mailApp.ctx);
    const cookie = await loginAs(mailApp.app, acc);
    const codes: number[] = [];
    for (let i = 0; i < 6; i += 1)
      codes.push((await mailApp.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('fails cleanly with its SPEC text when the mail server is down', async () => {
    const down = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      const acc = await makeAccount(down.ctx);
      const cookie = await loginAs(down.app, acc);
      const res = await down.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
      expect(res.json().error.message).toBe(SETTINGS.sendFailed);
      const live = await down.ctx.db
        .selectFrom('password_reset_tokens')
        .selectAll()
        .where('accountId', '=', acc.id)
        .where('usedAt', 'is', null)
        .execute();
      expect(live).toHaveLength(0);
    } finally {
      await down.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('writes the email to DATA_DIR/outbox, and its link works', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    // The Host header a client sends is not where the link points: the configured host and port are.
    const res = await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie, host: 'console.local:8080' } });
    expect(res.statusCode).toBe(200);
    const dir = path.join(t.ctx.config.dataDir, 'outbox');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const mail = files.map((f) => f.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).find((f) => f.includes(`To: ${acc.email}`));
    expect(mail).toBeDefined();
    expect(mail).not.toContain('console.local');
    const link = mail!.match(new RegExp(`http://localhost:${t.ctx.config.port}/reset-password#token=[\\w%-]+`))![0];
    const token = decodeURIComponent(new URL(link).hash.slice('#token='.length));
    const c = recoveryClient(t.app);
    expect((await c.resetWithLink(token, NEW_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
    await login(t.app, acc.username, NEW_PASSWORD);
  });
});

describe('an emailed link belongs to the address it was sent to', () => {
  /** The link's token in the newest message to `to` (the outbox is written after the answer). */
  async function linkToken(to: string): Promise<string> {
    await expect.poll(() => outboxMailsTo(t.ctx, to).length).toBeGreaterThan(0);
    return decodeURIComponent(
      outboxMailsTo(t.ctx, to)
        .at(-1)!
        .replace(/=3D/g, '=')
        .match(/reset-password#token=([\w%-]+)/)![1]!,
    );
  }

  it('stops working when the account changes its own email in Account Settings', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    expect((await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } })).statusCode).toBe(200);
    const token = await linkToken(acc.email);
    const c = recoveryClient(t.app);
    expect((await c.checkLink(token)).statusCode).toBe(200);
    const p = (await t.app.inject({ url: '/api/profile', headers: { cookie } })).json();
    const moved = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { cookie },
      payload: {
        fullname: p.fullname,
        email: `moved.${acc.email}`,
        contactNo: '',
        securityQuestion: p.securityQuestion,
        securityAnswer: '',
        keepAnswer: true,
        version: p.version,
        currentPassword: acc.password,
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // Refused as a used link is.
    expect((await c.checkLink(token)).statusCode).toBe(404);
    expect((await c.resetWithLink(token, 'Taken#Over2026', 'Taken#Over2026')).statusCode).toBe(404);
    await login(t.app, acc.username, acc.password);
  });

  it("stops working when a super admin changes the account's email", async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    const token = await linkToken(acc.email);
    const boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const bossCookie = await loginAs(t.app, boss);
    const v = (await accountsRepository.findById(t.ctx.db, acc.id))!.version;
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/accounts/${acc.id}`,
      headers: { cookie: bossCookie },
      payload: {
        fullname: acc.fullname,
        username: acc.username,
        email: `new.${acc.email}`,
        version: v,
        currentPassword: boss.password,
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await recoveryClient(t.app).checkLink(token)).statusCode).toBe(404);
  });
});
