import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAudit } from '../../server/platform/writes/audit.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { clockTicks, loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const now = () => new Date().toISOString();

describe('dashboard', () => {
  it('counts live records and active admins only (docs/PRODUCT.md section 6)', async () => {
    const me = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    await makeAccount(t.ctx, { state: { status: 'inactive' } });
    await makeAccount(t.ctx, { state: { isDeleted: 1 } });
    await makeAccount(t.ctx, { state: { status: 'restricted', isRestricted: 1 } });
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values([
        { id: 'v1', varietyName: 'NSIC Rc 222', season: '[]', environment: '[]', createdAt: now(), isDeleted: 0 },
        { id: 'v2', varietyName: 'NSIC Rc 160', season: '[]', environment: '[]', createdAt: now(), isDeleted: 0 },
        { id: 'v3', varietyName: 'Gone', season: '[]', environment: '[]', createdAt: now(), isDeleted: 1 },
      ])
      .execute();
    await t.ctx.db.insertInto('rice_local_pests').values({ id: 'p1', name: 'Rice black bug', createdAt: now() }).execute();
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values([
        { id: 'd1', name: 'Blast', createdAt: now(), isDeleted: 0 },
        { id: 'd2', name: 'Old', createdAt: now(), isDeleted: 1 },
      ])
      .execute();
    const cookie = await loginAs(t.app, me);
    const res = await t.app.inject({ url: '/api/dashboard/counts', headers: { cookie } });
    expect(res.json()).toEqual({ varieties: 2, pests: 1, diseases: 1, admins: 1 });
  });

  it('lists the 4 newest of 5 asked activities with the SPEC activity texts', async () => {
    const me = await makeAccount(t.ctx);
    const actor = { id: me.id, fullname: me.fullname, email: me.email };
    const entries = [
      ['CREATE', 'rice_local_pests', 'Rice bug'],
      ['UPDATE', 'rice_seed_varieties', 'NSIC Rc 222'],
      ['DELETE', 'rice_local_diseases', 'Blast'],
      ['RESTORE', 'accounts', null],
      ['CREATE', 'rice_seed_varieties', 'NSIC Rc 480'],
    ] as const;
    for (const [action, collection, name] of entries) {
      await writeAudit(t.ctx.db, actor, { action: action as 'CREATE', collection, documentId: 'x', documentName: name, description: '' });
      await clockTicks();
    }
    const cookie = await loginAs(t.app, me);
    const items = (await t.app.inject({ url: '/api/dashboard/recent-activities', headers: { cookie } })).json().items;
    expect(items.map((i: { text: string }) => i.text)).toEqual([
      'New Rice variety added: NSIC Rc 480',
      'Account activity: Unknown',
      'Disease deleted: Blast',
      'Rice variety updated: NSIC Rc 222',
    ]);
  });

  it('falls back to actorId, then performedBy, for older entries', async () => {
    const me = await makeAccount(t.ctx);
    await t.ctx.db
      .insertInto('audit_logs')
      .values({
        id: 'legacy-1',
        userId: null,
        actorId: null,
        performedBy: me.id,
        timestamp: now(),
        action: 'ADDED',
        collection: 'rice_local_pests',
        documentName: null,
        name: 'Golden apple snail',
        userName: null,
        userEmail: null,
        documentId: null,
        description: null,
        changes: null,
        details: null,
      })
      .execute();
    const cookie = await loginAs(t.app, me);
    const items = (await t.app.inject({ url: '/api/dashboard/recent-activities', headers: { cookie } })).json().items;
    expect(items).toEqual([expect.objectContaining({ type: 'pest', text: 'New Pest added: Golden apple snail' })]);
  });

  it('is empty for a user with no activity', async () => {
    const me = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, me);
    expect((await t.app.inject({ url: '/api/dashboard/recent-activities', headers: { cookie } })).json()).toEqual({ items: [] });
  });
});
