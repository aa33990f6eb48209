import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SECURITY_QUESTIONS } from '../../common/schemas/maintenance.js';
import { RECOVERY, SETTINGS } from '../../common/profile.js';
import { accountsRepository } from '../../server/modules/identity/accounts/repository.js';
import type { LiveEvent } from '../../server/platform/writes/events.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { BCRYPT_HASH, login, loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { makeAccountWithAnswer, QUESTION, recoveryClient } from '../fixtures/settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Body = Record<string, unknown>;

async function signedIn(options: Parameters<typeof makeAccount>[1] = {}): Promise<{ acc: TestAccount; cookie: string }> {
  const acc = await makeAccount(t.ctx, options);
  return { acc, cookie: await loginAs(t.app, acc) };
}

const getProfile = (cookie: string) => t.app.inject({ url: '/api/profile', headers: { cookie } });
const save = (cookie: string, body: Body) => t.app.inject({ method: 'PUT', url: '/api/profile', headers: { cookie }, payload: body });
const upload = (cookie: string, bytes: Buffer, type = 'image/jpeg') =>
  t.app.inject({ method: 'POST', url: '/api/profile/avatar', headers: { cookie, 'content-type': type }, payload: bytes });

/** The form as the browser sends it, from the current profile plus changes. */
async function formOf(cookie: string, changes: Body = {}): Promise<Body> {
  const p = (await getProfile(cookie)).json();
  return {
    fullname: p.fullname,
    email: p.email ?? '',
    contactNo: p.contactNo ?? '',
    securityQuestion: p.securityQuestion ?? '',
    securityAnswer: '',
    keepAnswer: p.hasSecurityAnswer,
    version: p.version,
    ...changes,
  };
}

function photo(width: number, height: number, format: 'png' | 'jpeg' = 'png') {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 40, g: 140, b: 60 } } });
  return (format === 'png' ? img.png() : img.jpeg()).withMetadata({ exif: { IFD0: { Copyright: 'secret-gps-owner' } } }).toBuffer();
}

describe('reading my account', () => {
  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/profile' })).statusCode).toBe(401);
    const form = { fullname: 'X', email: '', contactNo: '', securityQuestion: '', securityAnswer: '', keepAnswer: false };
    expect((await t.app.inject({ method: 'PUT', url: '/api/profile', payload: form })).statusCode).toBe(401);
  });

  it('shows the fields of the modal and never the answer or the password hash', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { answer: 'Bantay' });
    const res = await getProfile(await loginAs(t.app, acc));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: acc.id,
      fullname: acc.fullname,
      email: acc.email,
      securityQuestion: QUESTION,
      hasSecurityAnswer: true,
    });
    expect(res.body).not.toMatch(/\$2[aby]\$|bantay|"securityAnswer"|password/i);
  });
});

describe('saving Account Settings', () => {
  it('trims and saves name, email and contact, audits the email change and tells the other tabs', async () => {
    const { acc, cookie } = await signedIn();
    const heard: LiveEvent[] = [];
    const off = t.ctx.events.subscribe((e) => heard.push(e));
    const res = await save(
      cookie,
      await formOf(cookie, {
        fullname: '  Maria Clara  ',
        email: `  NEW_${acc.email.toUpperCase()} `,
        contactNo: ' 09171234567 ',
        currentPassword: acc.password,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ fullname: 'Maria Clara', email: `NEW_${acc.email.toUpperCase()}`, contactNo: '09171234567' });
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.normalizedEmail).toBe(`new_${acc.email}`);
    // Over PostgreSQL the event travels through LISTEN/NOTIFY, so it may arrive a little later.
    await vi.waitFor(() => expect(heard).toContainEqual({ topic: 'accounts', id: acc.id, op: 'update' }), { timeout: 5000 });
    off();
    const session = (await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json();
    expect(session.user.fullname).toBe('Maria Clara');
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', acc.id)
      .where('action', '=', 'UPDATE')
      .orderBy('seq')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.collection).toBe('accounts');
    expect(audit[0]!.userId).toBe(acc.id);
    expect(JSON.parse(audit[0]!.changes!)).toEqual({
      before: { fullname: acc.fullname, email: acc.email, contactNo: null },
      after: { fullname: 'Maria Clara', email: `NEW_${acc.email.toUpperCase()}`, contactNo: '09171234567' },
    });
    // The email signs in too.
    await login(t.app, `new_${acc.email}`, acc.password);
  });

  it('writes nothing when nothing changed', async () => {
    const { acc, cookie } = await signedIn();
    const res = await save(cookie, await formOf(cookie));
    expect(res.statusCode).toBe(200);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', acc.id)
      .where('action', '=', 'UPDATE')
      .orderBy('seq')
      .execute();
    expect(audit).toHaveLength(0);
  });

  it('gives the field messages and changes nothing on bad input', async () => {
    const { acc, cookie } = await signedIn();
    const cases: Array<[Body, string, string]> = [
      [{ fullname: '   ' }, 'fullname', SETTINGS.fullnameRequired],
      [{ email: 'not-an-email' }, 'email', SETTINGS.invalidEmail],
      [{ contactNo: 'call me' }, 'contactNo', SETTINGS.invalidContact],
      [{ securityQuestion: QUESTION, securityAnswer: '   ', keepAnswer: false }, 'securityAnswer', SETTINGS.answerRequired],
      [{ securityQuestion: 'What is the airspeed of a swallow?', securityAnswer: 'x' }, 'securityQuestion', SETTINGS.unknownQuestion],
      [{ avatarKey: `avatars/${acc.id}/avatar_1.jpg` }, 'avatar', SETTINGS.invalidImage],
      [{ avatarKey: '../../palayan.sqlite' }, 'avatar', SETTINGS.invalidImage],
    ];
    for (const [changes, field, message] of cases) {
      const res = await save(cookie, await formOf(cookie, changes));
      expect(res.statusCode, JSON.stringify(changes)).toBe(400);
      expect(res.json().error.fields[field]).toBe(message);
    }
    for (const garbage of [null, 'text', { fullname: 5 }, { ...(await formOf(cookie)), version: 'x' }]) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/profile', headers: { cookie }, payload: garbage as never });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.fullname).toBe(acc.fullname);
    expect(row.version).toBe(1);
  });

  it('refuses an email another account uses, whatever its case', async () => {
    const other = await makeAccount(t.ctx);
    const { cookie } = await signedIn();
    const res = await save(cookie, await formOf(cookie, { email: other.email.toUpperCase() }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message: SETTINGS.emailTaken, fields: { email: SETTINGS.emailTaken } });
  });

  it('allows clearing the email and the contact number', async () => {
    const { acc, cookie } = await signedIn();
    const res = await save(cookie, await formOf(cookie, { email: '', contactNo: '', currentPassword: acc.password }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: null, contactNo: null });
    const send = await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } });
    expect(send.json().error.message).toBe(SETTINGS.noEmail);
  });

  it('answers a stale form with 409 and the current values', async () => {
    const { cookie } = await signedIn();
    const stale = await formOf(cookie);
    expect((await save(cookie, await formOf(cookie, { contactNo: '09170000000' }))).statusCode).toBe(200);
    const res = await save(cookie, { ...stale, fullname: 'Late Edit' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: 2, current: { contactNo: '09170000000' } });
    expect(res.body).not.toMatch(/\$2[aby]\$/);
  });
});

describe('the security question', () => {
  it('stores the answer hashed (trimmed, lower-cased), audits the change, and recovery accepts it', async () => {
    const { acc, cookie } = await signedIn();
    const question = DEFAULT_SECURITY_QUESTIONS[0]!;
    const res = await save(
      cookie,
      await formOf(cookie, {
        securityQuestion: question,
        securityAnswer: '  Dela Cruz ',
        keepAnswer: false,
        currentPassword: acc.password,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ securityQuestion: question, hasSecurityAnswer: true });
    expect(res.body.toLowerCase()).not.toContain('dela cruz');
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.securityAnswer).toMatch(BCRYPT_HASH);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', acc.id)
      .where('action', '=', 'UPDATE')
      .orderBy('seq')
      .execute();
    expect(audit.at(-1)!.description).toContain('securityAnswer');
    expect(JSON.parse(audit.at(-1)!.details!)).toEqual({ securityAnswerChanged: true });
    expect(JSON.stringify(audit).toLowerCase()).not.toContain('dela cruz');

    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    expect((await c.verify(recoveryId, question, 'DELA CRUZ')).statusCode).toBe(200);
  });

  it('never tells a right answer from a wrong one without the current password', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { answer: 'Bantay' });
    const cookie = await loginAs(t.app, acc);
    const before = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    const guesses = [...Array.from({ length: 20 }, (_, i) => `Wrong guess ${i}`), 'Bantay', ' bantay ', 'BANTAY'];
    const answers = [];
    for (const guess of guesses) {
      const res = await save(cookie, await formOf(cookie, { securityQuestion: acc.question, securityAnswer: guess, keepAnswer: false }));
      answers.push({ status: res.statusCode, body: res.json() });
    }
    // The right answer, however it is spelled, gets the very refusal the wrong ones get.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 400,
      body: { error: expect.objectContaining({ fields: { currentPassword: SETTINGS.currentPasswordRequired } }) },
    });
    const after = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(after.securityAnswer).toBe(before.securityAnswer);
    expect(after.version).toBe(before.version);
    // With the password, re-typing the same answer is a change like any other: stored anew, audited.
    const typed = await save(
      cookie,
      await formOf(cookie, { securityQuestion: acc.question, securityAnswer: 'Bantay', keepAnswer: false, currentPassword: acc.password }),
    );
    expect(typed.statusCode, typed.body).toBe(200);
    expect((await accountsRepository.findById(t.ctx.db, acc.id))!.securityAnswer).not.toBe(before.securityAnswer);
  });

  it('keeps the stored answer when the question is unchanged and the answer left blank', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { answer: 'Bantay' });
    const cookie = await loginAs(t.app, acc);
    const before = (await accountsRepository.findById(t.ctx.db, acc.id))!.securityAnswer;
    const res = await save(cookie, await formOf(cookie, { fullname: 'Kept Answer' }));
    expect(res.statusCode).toBe(200);
    expect((await accountsRepository.findById(t.ctx.db, acc.id))!.securityAnswer).toBe(before);
    // A new question cannot keep the old answer.
    const changed = await save(cookie, await formOf(cookie, { securityQuestion: DEFAULT_SECURITY_QUESTIONS[4], keepAnswer: true }));
    expect(changed.statusCode).toBe(400);
    expect(changed.json().error.fields.securityAnswer).toBe(SETTINGS.answerRequired);
  });

  it('hashes a legacy plain-text answer on first save', async () => {
    const acc = await makeAccountWithAnswer(t.ctx, { answer: 'Bantay', plain: true });
    const cookie = await loginAs(t.app, acc);
    expect((await save(cookie, await formOf(cookie))).statusCode).toBe(200);
    const row = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    expect(row.securityAnswer!.startsWith('$2')).toBe(true);
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    expect((await c.verify(recoveryId, acc.question, 'bantay')).statusCode).toBe(200);
  });

  it('clears question and answer when no question is chosen', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const res = await save(cookie, await formOf(cookie, { securityQuestion: '', keepAnswer: false, currentPassword: acc.password }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ securityQuestion: null, hasSecurityAnswer: false });
    const c = recoveryClient(t.app);
    const { recoveryId } = (await c.identify(acc.username)).json();
    expect((await c.verify(recoveryId, acc.question, acc.answer)).json().error.message).toBe(RECOVERY.questionMismatch);
  });
});

describe('the profile picture', () => {
  it('re-encodes what it receives (JPEG, at most 512 px, metadata stripped) and uses it on save', async () => {
    const { acc, cookie } = await signedIn();
    const res = await upload(cookie, await photo(1600, 900), 'image/png');
    expect(res.statusCode).toBe(200);
    const { avatarKey, previewURL } = res.json();
    expect(avatarKey).toMatch(new RegExp(`^avatars/${acc.id}/avatar_\\d+\\.jpg$`));
    const stored = await sharp(t.ctx.storage.localPath(avatarKey)).metadata();
    expect(stored.format).toBe('jpeg');
    expect(Math.max(stored.width!, stored.height!)).toBe(512);
    expect(stored.exif).toBeUndefined();
    // Staged only: the account is unchanged until the form is saved.
    expect((await getProfile(cookie)).json().photoURL).toBeNull();

    const saved = await save(cookie, await formOf(cookie, { avatarKey }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().photoURL).toBe(previewURL);
    const served = await t.app.inject({ url: previewURL, headers: { cookie } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const session = (await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json();
    expect(session.user.photoURL).toBe(previewURL);

    // A newer picture replaces the file of the older one.
    const next = (await upload(cookie, await photo(300, 300, 'jpeg'))).json();
    expect((await save(cookie, await formOf(cookie, { avatarKey: next.avatarKey }))).statusCode).toBe(200);
    expect(await t.ctx.storage.stat(avatarKey)).toBeNull();
    const small = await sharp(t.ctx.storage.localPath(next.avatarKey)).metadata();
    expect(small.width).toBe(300);
  });

  it('refuses bytes that are not an image, whatever their content type says', async () => {
    const { cookie } = await signedIn();
    for (const [bytes, type] of [
      [Buffer.from('definitely not a jpeg'), 'image/jpeg'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'image/svg+xml'],
    ] as const) {
      const res = await upload(cookie, bytes, type);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(SETTINGS.invalidImage);
    }
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/profile/avatar',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    const huge = await upload(cookie, Buffer.alloc(3 * 1024 * 1024, 1));
    expect(huge.statusCode).toBe(413);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { 'content-type': 'image/png' },
          payload: await photo(10, 10),
        })
      ).statusCode,
    ).toBe(401);
  });

  it("cannot take another account's staged picture", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const { avatarKey } = (await upload(a.cookie, await photo(64, 64))).json();
    const res = await save(b.cookie, await formOf(b.cookie, { avatarKey }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.avatar).toBe(SETTINGS.invalidImage);
  });
});

describe('the ways back into the account need the current password', () => {
  it('asks for it to change the email, refuses a wrong one, and trusts a right one for 5 minutes', async () => {
    const { acc, cookie } = await signedIn();
    const before = (await accountsRepository.findById(t.ctx.db, acc.id))!;
    const none = await save(cookie, await formOf(cookie, { email: `moved.${acc.email}` }));
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields).toEqual({ currentPassword: SETTINGS.currentPasswordRequired });
    const wrong = await save(cookie, await formOf(cookie, { email: `moved.${acc.email}`, currentPassword: 'Not#Mine123' }));
    expect(wrong.json().error.fields).toEqual({ currentPassword: SETTINGS.wrongCurrentPassword });
    expect((await accountsRepository.findById(t.ctx.db, acc.id))!.email).toBe(before.email);
    // Name and contact alone need nothing.
    expect((await save(cookie, await formOf(cookie, { fullname: 'Just A Name' }))).statusCode).toBe(200);

    const right = await save(cookie, await formOf(cookie, { email: `moved.${acc.email}`, currentPassword: acc.password }));
    expect(right.statusCode, right.body).toBe(200);
    // Within 5 minutes of that, the next such change passes without it; later, it is asked again.
    expect(
      (await save(cookie, await formOf(cookie, { securityQuestion: QUESTION, securityAnswer: 'Bantay', keepAnswer: false }))).statusCode,
    ).toBe(200);
    await t.ctx.db
      .updateTable('sessions')
      .set({ reauthAt: new Date(Date.now() - 6 * 60_000).toISOString() })
      .where('accountId', '=', acc.id)
      .execute();
    const late = await save(cookie, await formOf(cookie, { email: acc.email }));
    expect(late.json().error.fields).toEqual({ currentPassword: SETTINGS.currentPasswordRequired });
  });

  it('counts wrong current passwords before checking them, in the sign-in budget', async () => {
    const limited = await createTestApp({ loginFailuresPerAccount: 4 });
    try {
      const acc = await makeAccount(limited.ctx);
      const cookie = await loginAs(limited.app, acc);
      const p = (await limited.app.inject({ url: '/api/profile', headers: { cookie } })).json();
      const body = {
        fullname: p.fullname,
        email: `x.${acc.email}`,
        contactNo: '',
        securityQuestion: '',
        securityAnswer: '',
        keepAnswer: false,
        version: p.version,
      };
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          limited.app.inject({
            method: 'PUT',
            url: '/api/profile',
            headers: { cookie },
            payload: { ...body, currentPassword: `Wrong#${i}` },
          }),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(3);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(27);
    } finally {
      await limited.close();
    }
  });
});
