import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { photoRuntime } from '../../server/modules/content/photos/variants.js';
import { createDraftsService } from '../../server/modules/content/drafts/service.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { entryBody, stagePhotos } from '../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { varietyBody } from '../fixtures/varieties.js';

let t: TestApp;
let owner: TestAccount;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await makeAccount(t.ctx, { role: 'ADMIN' });
  cookie = await loginAs(t.app, owner);
});
afterAll(async () => {
  await t.close();
});

const url = '/api/rice_pests/draft';
const file = (name: string, size = 3_000_000) => ({ name, size, lastModified: 1_767_225_600_000 });
const put = (payload: unknown, as = cookie) =>
  t.app.inject({ method: 'PUT', url, headers: { cookie: as }, payload: payload as Record<string, unknown> });
const get = async (as = cookie) => (await t.app.inject({ url, headers: { cookie: as } })).json();

describe('drafts of the add form', () => {
  it('keeps the fields and the chosen photos in order, the uploaded ones with their staged photo', async () => {
    const [a, b] = await stagePhotos(t.ctx, 'pest', owner, 2);
    const saved = await put({
      fields: { name: 'Rice bug', treatments: 'Hand-pick at dawn.' },
      photos: [
        { id: a, ...file('IMG_1.jpg') },
        { id: null, ...file('IMG_2.jpg') },
        { id: b, ...file('IMG_3.jpg') },
      ],
    });
    expect(saved.json()).toEqual({ uploaded: 2, total: 3 });
    const draft = await get();
    expect(draft.fields).toMatchObject({ name: 'Rice bug', treatments: 'Hand-pick at dawn.', scientificName: '' });
    expect(draft.photos.map((p: { id: string | null; name: string }) => [p.id, p.name])).toEqual([
      [a, 'IMG_1.jpg'],
      [null, 'IMG_2.jpg'],
      [b, 'IMG_3.jpg'],
    ]);
    expect(draft.uploaded).toBe(2);
    expect(Date.parse(draft.expiresAt) - Date.parse(draft.updatedAt)).toBe(7 * 86_400_000);
  });

  it("keeps another account's photo ids out, and each account has its own draft", async () => {
    const other = await makeAccount(t.ctx, { role: 'ADMIN' });
    const otherCookie = await loginAs(t.app, other);
    const [theirs] = await stagePhotos(t.ctx, 'pest', other, 1);
    expect((await put({ fields: {}, photos: [{ id: theirs, ...file('x.jpg') }] })).json()).toEqual({ uploaded: 0, total: 1 });
    expect(await get(otherCookie)).toBeNull();
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    expect((await put({ fields: { name: 'x'.repeat(400) }, photos: [] })).statusCode).toBe(400);
  });

  it("keeps a draft's staged photos past the daily clean-up until the draft expires", async () => {
    const [held, loose] = await stagePhotos(t.ctx, 'pest', owner, 2);
    await put({ fields: { name: 'Stem borer' }, photos: [{ id: held, ...file('held.jpg') }] });
    await photoRuntime(t.ctx).cleanupStaged(24 * 3600_000, Date.now() + 25 * 3600_000);
    const left = (await t.ctx.db.selectFrom('catalog_images').select('id').where('id', 'in', [held!, loose!]).execute()).map((r) => r.id);
    expect(left).toEqual([held]);
    // Eight days later the draft is gone, and then its photo with the next clean-up.
    await t.ctx.db
      .updateTable('catalog_drafts')
      .set({ updatedAt: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .where('accountId', '=', owner.id)
      .execute();
    expect(await createDraftsService(t.ctx).removeExpired()).toBe(1);
    expect(await get()).toBeNull();
    await photoRuntime(t.ctx).cleanupStaged(24 * 3600_000, Date.now() + 25 * 3600_000);
    expect(await t.ctx.db.selectFrom('catalog_images').select('id').where('id', '=', held!).execute()).toEqual([]);
  });

  it('is removed by the save of the entry, and on request', async () => {
    const [a] = await stagePhotos(t.ctx, 'pest', owner, 1);
    await put({ fields: { name: 'Leaf folder' }, photos: [{ id: a, ...file('a.jpg') }] });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/${CATALOG_KINDS.pest.route}`,
      headers: { cookie },
      payload: entryBody('Leaf folder', [a!]),
    });
    expect(created.statusCode).toBe(201);
    expect(await get()).toBeNull();
    await put({ fields: { name: 'Again' }, photos: [] });
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie } })).statusCode).toBe(204);
    expect(await get()).toBeNull();
  });
});

describe('the variety form kept as a draft', () => {
  const vurl = '/api/varieties/draft';
  const vput = (payload: unknown, as = cookie) =>
    t.app.inject({ method: 'PUT', url: vurl, headers: { cookie: as }, payload: payload as Record<string, unknown> });
  const vget = async (as = cookie) => (await t.app.inject({ url: vurl, headers: { cookie: as } })).json();

  it("keeps a new record's or an edit's values as typed, each account its own, and refuses what no form holds", async () => {
    expect(
      (await vput({ recordId: null, version: null, fields: { varietyName: 'NSIC Rc 9', maturityDays: '11', season: ['Dry'] } })).statusCode,
    ).toBe(204);
    const kept = await vget();
    expect(kept).toMatchObject({
      recordId: null,
      version: null,
      fields: { varietyName: 'NSIC Rc 9', maturityDays: '11', season: ['Dry'], tillers: '' },
    });
    expect(Date.parse(kept.expiresAt)).toBeGreaterThan(Date.parse(kept.updatedAt));
    const other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    expect(await vget(other)).toBeNull();
    expect((await vput({ recordId: 'v-1', version: 3, fields: { location: 'Capas' } })).statusCode).toBe(204);
    expect(await vget()).toMatchObject({ recordId: 'v-1', version: 3, fields: { location: 'Capas', varietyName: '' } });
    for (const bad of [
      { recordId: null, version: null, fields: { season: 'Dry' } },
      { recordId: null, fields: {} },
      { recordId: null, version: null, fields: { location: 'x'.repeat(100_000) } },
    ]) {
      const refused = await vput(bad);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBeTruthy();
    }
    expect(await vget()).toMatchObject({ recordId: 'v-1', fields: { location: 'Capas' } });
  });

  it('goes with the save of a new variety, and on request', async () => {
    await vput({ recordId: null, version: null, fields: { varietyName: 'Draft Rc 1' } });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/varieties',
      headers: { cookie },
      payload: varietyBody({ varietyName: 'Draft Rc 1' }),
    });
    expect(created.statusCode).toBe(201);
    expect(await vget()).toBeNull();
    await vput({ recordId: null, version: null, fields: { varietyName: 'Again' } });
    expect((await t.app.inject({ method: 'DELETE', url: vurl, headers: { cookie } })).statusCode).toBe(204);
    expect(await vget()).toBeNull();
  });
});
