import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrashList } from '../../common/schemas/trash.js';
import { TRASH } from '../../common/trash.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { recordEvents, newAdminBody } from '../fixtures/accounts.js';
import { entryBody, seedStagedPhotos } from '../fixtures/catalog.js';
import { clockTicks, loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { varietyBody } from '../fixtures/varieties.js';

let t: TestApp;
let boss: TestAccount;
let bossCookie: string;
let staff: TestAccount;
let staffCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN', fullname: 'Liza Soberano' });
  bossCookie = await loginAs(t.app, boss);
  staff = await makeAccount(t.ctx, { role: 'ADMIN', fullname: 'Pedro Penduko' });
  staffCookie = await loginAs(t.app, staff);
});
afterAll(async () => {
  await t.close();
});

const inject = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, cookie = bossCookie, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

async function addVariety(name: string): Promise<{ id: string; version: number }> {
  const res = await inject('POST', '/api/varieties', staffCookie, varietyBody({ varietyName: name }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function trashOf(collection: string, query = ''): Promise<TrashList> {
  const res = await inject('GET', `/api/trash/${collection}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('trash and restore', () => {
  it('is for super admins only: an ADMIN gets 403 for the list and the restore, and nothing changes', async () => {
    const v = await addVariety('NSIC Rc 9001 (staff only)');
    expect((await inject('DELETE', `/api/varieties/${v.id}`, staffCookie)).statusCode).toBe(204);
    expect((await inject('GET', '/api/trash/rice_seed_varieties', staffCookie)).statusCode).toBe(403);
    expect((await inject('POST', `/api/trash/rice_seed_varieties/${v.id}/restore`, staffCookie)).statusCode).toBe(403);
    expect((await inject('GET', `/api/varieties/${v.id}`, staffCookie)).statusCode).toBe(404);
  });

  it('lists deleted varieties with who deleted them and when, newest deletion first, searched on the server', async () => {
    const a = await addVariety('Trash Alpha Sinandomeng');
    const b = await addVariety('Trash Beta Dinorado');
    expect((await inject('DELETE', `/api/varieties/${a.id}`, staffCookie)).statusCode).toBe(204);
    await clockTicks();
    expect((await inject('DELETE', `/api/varieties/${b.id}`)).statusCode).toBe(204);
    const list = await trashOf('rice_seed_varieties', '?search=trash');
    expect(list.items.map((i) => i.name)).toEqual(['Trash Beta Dinorado', 'Trash Alpha Sinandomeng']);
    expect(list.items[0]!.deletedBy).toEqual({ id: boss.id, fullname: 'Liza Soberano' });
    expect(list.items[1]!.deletedBy).toEqual({ id: staff.id, fullname: 'Pedro Penduko' });
    expect(Date.parse(list.items[0]!.deletedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const one = await trashOf('rice_seed_varieties', '?search=DINORADO');
    expect(one.items.map((i) => i.id)).toEqual([b.id]);
    expect(one.total).toBe(1);
    // The live list does not show them.
    const live = await inject('GET', '/api/varieties?search=trash', staffCookie);
    expect(live.json().total).toBe(0);
  });

  it('pages on the server, 20 a page', async () => {
    for (let i = 0; i < 23; i += 1) {
      const v = await addVariety(`Paged trash ${String(i).padStart(2, '0')}`);
      expect((await inject('DELETE', `/api/varieties/${v.id}`)).statusCode).toBe(204);
    }
    const first = await trashOf('rice_seed_varieties', '?search=paged%20trash');
    const second = await trashOf('rice_seed_varieties', '?search=paged%20trash&page=2');
    expect(first.total).toBe(23);
    expect(first.pageCount).toBe(2);
    expect(first.items).toHaveLength(20);
    expect(second.items).toHaveLength(3);
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(23);
  });

  it('restores a variety exactly as it was, audited as RESTORE, with a live event, and the farmer app sees it again', async () => {
    const v = await addVariety('Restorable Rc 222');
    const before = (await inject('GET', `/api/varieties/${v.id}`)).json();
    expect((await inject('DELETE', `/api/varieties/${v.id}`)).statusCode).toBe(204);
    const since = new Date().toISOString();
    const events = recordEvents(t.ctx);
    const res = await inject('POST', `/api/trash/rice_seed_varieties/${v.id}/restore`);
    expect(res.statusCode, res.body).toBe(204);
    await events.waitFor((e) => e.topic === 'rice_seed_varieties' && e.id === v.id && e.op === 'restore');
    events.stop();
    const after = (await inject('GET', `/api/varieties/${v.id}`)).json();
    const { version: v1, updatedAt: _u1, ...fieldsBefore } = before;
    const { version: v2, updatedAt: _u2, ...fieldsAfter } = after;
    expect(fieldsAfter).toEqual(fieldsBefore);
    expect(v2).toBeGreaterThan(v1);
    // The cached search of the live list shows it again.
    expect((await inject('GET', '/api/varieties?search=restorable')).json().items.map((i: { id: string }) => i.id)).toEqual([v.id]);
    const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', v.id).orderBy('seq').execute();
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'DELETE', 'RESTORE']);
    const restore = audit[2]!;
    expect(restore.userId).toBe(boss.id);
    expect(restore.description).toBe('Restored rice variety Restorable Rc 222');
    expect(JSON.parse(restore.changes!)).toMatchObject({ before: { isDeleted: true, deletedBy: boss.id }, after: { isDeleted: false } });
    const sync = await t.app.inject({ method: 'GET', url: `/api/public/v1/varieties?since=${encodeURIComponent(since)}` });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(JSON.stringify(sync.json())).toContain(v.id);
    // Restoring twice is a clear 404, not a second entry.
    const again = await inject('POST', `/api/trash/rice_seed_varieties/${v.id}/restore`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(TRASH.notInTrash);
  });

  it('refuses with 409 naming the live record when its name is taken again, and changes nothing', async () => {
    const old = await addVariety('Twin Name Rc 7');
    expect((await inject('DELETE', `/api/varieties/${old.id}`)).statusCode).toBe(204);
    await addVariety('  twin name RC 7 ');
    const res = await inject('POST', `/api/trash/rice_seed_varieties/${old.id}/restore`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(TRASH.nameTaken('rice variety', '  twin name RC 7 '.trim()));
    expect((await trashOf('rice_seed_varieties', '?search=twin')).items.map((i) => i.id)).toEqual([old.id]);
    const audit = await t.ctx.db.selectFrom('audit_logs').select('action').where('documentId', '=', old.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['CREATE', 'DELETE']);
  });

  it('restores a disease with all its 800 photos, which stayed linked while it was deleted', async () => {
    const ids = await seedStagedPhotos(t.ctx, 'disease', staff, 800);
    const created = await inject('POST', '/api/rice_diseases', staffCookie, entryBody('Trash Tungro', ids));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const photosBefore = (await inject('GET', `/api/rice_diseases/${id}`)).json().images.map((i: { id: string }) => i.id);
    expect(photosBefore).toHaveLength(800);
    expect((await inject('DELETE', `/api/rice_diseases/${id}`)).statusCode).toBe(204);
    const listed = await trashOf('rice_local_diseases', '?search=tungro');
    expect(listed.items).toEqual([expect.objectContaining({ id, name: 'Trash Tungro', detail: 'Testus examplus', photoCount: 800 })]);
    expect((await inject('POST', `/api/trash/rice_local_diseases/${id}/restore`)).statusCode).toBe(204);
    const detail = (await inject('GET', `/api/rice_diseases/${id}`)).json();
    expect(detail.images.map((i: { id: string }) => i.id)).toEqual(photosBefore);
    expect((await trashOf('rice_local_diseases', '?search=tungro')).total).toBe(0);
  });

  it('restores an account restricted and without its old keys; a super admin unrestricts it and sets a new password', async () => {
    const body = newAdminBody({ fullname: 'Deleted Dela Cruz' });
    const created = await inject('POST', '/api/accounts', bossCookie, body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    // Keys it had before it was deleted: a security answer, a second factor, an unused reset link.
    const now = new Date().toISOString();
    await t.ctx.db
      .updateTable('accounts')
      .set({ securityQuestion: 'What is the name of your first pet?', securityAnswer: 'x' })
      .where('id', '=', id)
      .execute();
    await t.ctx.db.insertInto('second_factors').values({ accountId: id, secret: 'JBSWY3DPEHPK3PXP', enabledAt: now }).execute();
    const link = await t.ctx.db
      .insertInto('password_reset_tokens')
      .values({
        tokenHash: `restore-${id}`,
        accountId: id,
        purpose: 'email_link',
        createdAt: now,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
        usedAt: null,
      })
      .returning('tokenHash')
      .executeTakeFirstOrThrow();
    expect((await inject('DELETE', `/api/accounts/${id}`, bossCookie, { confirmName: body.fullname })).statusCode).toBe(204);
    const login = (password = body.password) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: body.username, password } });
    expect((await login()).statusCode).toBe(403);
    const taken = await inject('POST', '/api/accounts', bossCookie, newAdminBody({ username: body.username }));
    expect(taken.statusCode).toBe(409);
    const listed = await trashOf('accounts', '?search=dela%20cruz');
    expect(listed.items).toEqual([
      expect.objectContaining({
        id,
        name: 'Deleted Dela Cruz',
        detail: body.username,
        photoCount: null,
        deletedBy: { id: boss.id, fullname: 'Liza Soberano' },
      }),
    ]);

    expect((await inject('POST', `/api/trash/accounts/${id}/restore`)).statusCode).toBe(204);
    expect((await login()).statusCode).toBe(401); // the old password is gone
    const row = await t.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      isDeleted: 0,
      isRestricted: 1,
      status: 'restricted',
      password: '',
      securityQuestion: null,
      securityAnswer: null,
    });
    expect(await t.ctx.db.selectFrom('second_factors').selectAll().where('accountId', '=', id).execute()).toEqual([]);
    const token = await t.ctx.db
      .selectFrom('password_reset_tokens')
      .select('usedAt')
      .where('tokenHash', '=', link.tokenHash)
      .executeTakeFirstOrThrow();
    expect(token.usedAt).not.toBeNull();
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['action', 'description', 'changes'])
      .where('documentId', '=', id)
      .where('action', '=', 'RESTORE')
      .execute();
    expect(audit.map((a) => [a.action, a.description])).toEqual([['RESTORE', 'Restored admin account Deleted Dela Cruz']]);
    expect(JSON.parse(audit[0]!.changes!).after).toMatchObject({ isRestricted: true, password: '(cleared)', secondFactor: '(removed)' });

    // Back in use: unrestricted, then a new password set by the super admin.
    expect((await inject('POST', `/api/accounts/${id}/unrestrict`)).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(401);
    const account = (await inject('GET', `/api/accounts/${id}`)).json();
    const saved = await inject('PUT', `/api/accounts/${id}`, bossCookie, {
      fullname: body.fullname,
      email: body.email,
      username: body.username,
      password: 'Fresh#Start2026',
      version: account.version,
      currentPassword: boss.password,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await login('Fresh#Start2026')).statusCode).toBe(200);
  });

  it('answers 400 for an unknown collection or a bad page and 404 for a live or unknown id', async () => {
    expect((await inject('GET', '/api/trash/audit_logs')).statusCode).toBe(400);
    expect((await inject('GET', '/api/trash/accounts?page=0')).statusCode).toBe(400);
    expect((await inject('GET', `/api/trash/accounts?search=${'x'.repeat(201)}`)).statusCode).toBe(400);
    const live = await addVariety('Alive And Well');
    expect((await inject('POST', `/api/trash/rice_seed_varieties/${live.id}/restore`)).statusCode).toBe(404);
    expect((await inject('POST', '/api/trash/rice_local_pests/nope/restore')).statusCode).toBe(404);
    expect((await inject('GET', `/api/varieties/${live.id}`)).json().version).toBe(live.version);
  });
});
