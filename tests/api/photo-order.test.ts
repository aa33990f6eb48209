import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { PHOTO_ORDER_TEXTS } from '../../common/catalog-texts.js';
import { catalogUpdateSchema, type CatalogEntryDetail } from '../../common/schemas/catalog.js';
import { createCatalogService } from '../../server/modules/content/catalog/service.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { entryBody, seedStagedPhotos } from '../fixtures/catalog.js';
import { clockTicks, loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';

let t: TestApp;
let user: TestAccount;
let reviewer: TestAccount;
let cookie: string;
let reviewerCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await makeAccount(t.ctx);
  reviewer = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  cookie = await loginAs(t.app, user);
  reviewerCookie = await loginAs(t.app, reviewer);
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
async function call(method: string, url: string, payload?: unknown, as = cookie): Promise<{ status: number; body: Json }> {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie: as },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : {} };
}

let names = 0;
/** A pest with `count` ready photos, saved through the create route. */
async function makePest(count: number): Promise<CatalogEntryDetail> {
  names += 1;
  const ids = await seedStagedPhotos(t.ctx, 'pest', user, count);
  const res = await call('POST', '/api/rice_pests', entryBody(`Stem borer ${names}`, ids));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CatalogEntryDetail;
}

/** A disease with `count` ready photos (the minimum on creation left out: the order is the subject). */
async function makeDisease(count: number): Promise<CatalogEntryDetail> {
  names += 1;
  const ids = await seedStagedPhotos(t.ctx, 'disease', user, count);
  const kind = CATALOG_KINDS.disease;
  return createCatalogService(t.ctx, kind).create(
    catalogUpdateSchema(kind)
      .omit({ version: true })
      .parse(entryBody(`Blast ${names}`, ids)),
    user,
    {
      skipImageMinimum: true,
    },
  );
}

const move = (route: string, id: string, body: { version: number; photoId: string; position: number }, as = cookie) =>
  call('POST', `/api/${route}/${id}/photos/move`, body, as);
const detailOf = async (route: string, id: string) => (await call('GET', `/api/${route}/${id}`)).body as CatalogEntryDetail;
const idsOf = (entry: CatalogEntryDetail) => entry.images.map((i) => i.id);

/** Stored places of the entry's photos: 0, 1, 2… with none twice and none lost. */
async function storedPlaces(entryId: string): Promise<number[]> {
  const rows = await t.ctx.db.selectFrom('catalog_images').select('position').where('entryId', '=', entryId).execute();
  return rows.map((r) => Number(r.position)).sort((a, b) => a - b);
}

describe('photo order: one photo moved at a time, on the version the user saw', () => {
  it('keeps the new order, moves the version and updatedAt, and writes the audit entry in the same command', async () => {
    const pest = await makePest(6);
    const before = idsOf(pest);
    await clockTicks();
    const res = await move('rice_pests', pest.id, { version: pest.version, photoId: before[4]!, position: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: pest.id, version: pest.version + 1, photoId: before[4], from: 4, position: 1, count: 6 });

    const after = await detailOf('rice_pests', pest.id);
    expect(idsOf(after)).toEqual([before[0], before[4], before[1], before[2], before[3], before[5]]);
    expect(after.version).toBe(pest.version + 1);
    expect(after.updatedAt! > pest.updatedAt!).toBe(true);
    expect(after.images.map((i) => i.position)).toEqual([0, 1, 2, 3, 4, 5]);

    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', pest.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(audit.description).toBe(PHOTO_ORDER_TEXTS.audit.moved('pest', pest.name, 5, 2, 6));
    expect(audit.userId).toBe(user.id);
    expect(JSON.parse(audit.details!)).toMatchObject({ imageId: before[4], fromPosition: 4, toPosition: 1 });
    // A version of the entry holds the new order (Versions can compare and restore it).
    const version = await t.ctx.db
      .selectFrom('record_versions')
      .select('snapshot')
      .where('documentId', '=', pest.id)
      .where('auditId', '=', audit.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(version.snapshot).photos).toEqual(idsOf(after));
  });

  it('makes a photo the main photo: the entry, its card and the farmer app show it first', async () => {
    const pest = await makePest(5);
    const ids = idsOf(pest);
    const since = new Date().toISOString();
    await clockTicks();
    const res = await move('rice_pests', pest.id, { version: pest.version, photoId: ids[3]!, position: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const after = await detailOf('rice_pests', pest.id);
    expect(after.images[0]!.id).toBe(ids[3]);
    expect(after.mainImageUrl).toBe(after.images[0]!.url);
    expect(res.body.mainImageUrl).toBe(after.images[0]!.url);
    const card = ((await call('GET', '/api/rice_pests')).body.items as Json[]).find((e) => e.id === pest.id)!;
    expect(card.mainImageUrl).toBe(after.images[0]!.url);

    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['description', 'changes'])
      .where('documentId', '=', pest.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(audit.description).toBe(PHOTO_ORDER_TEXTS.audit.madeMain('pest', pest.name, 4));
    expect(JSON.parse(audit.changes!)).toEqual({
      before: { mainImageUrl: pest.mainImageUrl },
      after: { mainImageUrl: after.mainImageUrl },
    });

    // The phone's next sync brings the entry again, its photos in the new order, the main one first.
    const synced = (await call('GET', `/api/public/v1/pests?updatedSince=${encodeURIComponent(since)}`)).body.items as Json[];
    const item = synced.find((p) => p.id === pest.id)!;
    expect(item).toBeDefined();
    expect(item.images.map((i: Json) => i.id)).toEqual(idsOf(after));
    expect(item.mainImage.id).toBe(ids[3]);
  });

  it('refuses an unknown photo, another entry’s photo, a place outside the list and a stale version, changing nothing', async () => {
    const pest = await makePest(4);
    const other = await makePest(2);
    const ids = idsOf(pest);
    const unknown = await move('rice_pests', pest.id, { version: pest.version, photoId: 'no-such-photo', position: 0 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.photoId).toBe(PHOTO_ORDER_TEXTS.notInEntry);
    const foreign = await move('rice_pests', pest.id, { version: pest.version, photoId: other.images[1]!.id, position: 0 });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields.photoId).toBe(PHOTO_ORDER_TEXTS.notInEntry);
    const outside = await move('rice_pests', pest.id, { version: pest.version, photoId: ids[0]!, position: 4 });
    expect(outside.status).toBe(400);
    expect(outside.body.error.fields.position).toBe(PHOTO_ORDER_TEXTS.positionOutside(4));
    const beyondKind = await move('rice_pests', pest.id, { version: pest.version, photoId: ids[0]!, position: 10 });
    expect(beyondKind.status).toBe(400);
    const stale = await move('rice_pests', pest.id, { version: pest.version - 1 || 99, photoId: ids[1]!, position: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    expect(stale.body.error.currentVersion ?? stale.body.currentVersion).toBe(pest.version);
    const gone = await move('rice_pests', 'no-such-pest', { version: 1, photoId: ids[1]!, position: 0 });
    expect(gone.status).toBe(404);
    // A photo of a pest named on the diseases' route is not one of a disease's.
    const wrongKind = await move('rice_diseases', pest.id, { version: pest.version, photoId: ids[1]!, position: 0 });
    expect(wrongKind.status).toBe(404);

    const after = await detailOf('rice_pests', pest.id);
    expect(idsOf(after)).toEqual(ids);
    expect(after.version).toBe(pest.version);
    expect(idsOf(await detailOf('rice_pests', other.id))).toEqual(idsOf(other));
    const audits = await t.ctx.db.selectFrom('audit_logs').select('id').where('documentId', '=', pest.id).execute();
    expect(audits).toHaveLength(1); // the create
  });

  it('moves made at the same time on one version: one is kept, the others are told to reload', async () => {
    const disease = await makeDisease(30);
    const ids = idsOf(disease);
    const results = await Promise.all(
      ids.slice(10, 18).map((photoId, i) => move('rice_diseases', disease.id, { version: disease.version, photoId, position: i })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const after = await detailOf('rice_diseases', disease.id);
    expect(after.version).toBe(disease.version + 1);
    expect([...idsOf(after)].sort()).toEqual([...ids].sort());
    expect(await storedPlaces(disease.id)).toEqual(ids.map((_, i) => i));
  });

  it('moves made at the same time, each tried again on the new version, all land with no place lost or taken twice', async () => {
    const disease = await makeDisease(40);
    const ids = idsOf(disease);
    const movers = ids.slice(20, 30).map(async (photoId, i) => {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const { version } = await detailOf('rice_diseases', disease.id);
        const res = await move('rice_diseases', disease.id, { version, photoId, position: i });
        if (res.status === 200) return res.body;
        expect(res.status).toBe(409);
      }
      throw new Error('a move never landed');
    });
    const landed = await Promise.all(movers);
    expect(new Set(landed.map((m) => m.version)).size).toBe(10);
    const after = await detailOf('rice_diseases', disease.id);
    expect(after.version).toBe(disease.version + 10);
    expect([...idsOf(after)].sort()).toEqual([...ids].sort());
    expect(await storedPlaces(disease.id)).toEqual(ids.map((_, i) => i));
    // The last move kept is where it was put; the mains agrees with the first photo.
    const last = landed.sort((a, b) => a.version - b.version).at(-1)!;
    expect(idsOf(after)[last.position]).toBe(last.photoId);
    expect(after.mainImageUrl).toBe(after.images[0]!.url);
    const audits = await t.ctx.db
      .selectFrom('audit_logs')
      .select('id')
      .where('documentId', '=', disease.id)
      .where('action', '=', 'UPDATE')
      .execute();
    expect(audits).toHaveLength(10);
  });

  it('a set of 2000 photos: the last one made the main photo with a small request', async () => {
    const disease = await makeDisease(2000);
    const ids = idsOf(disease);
    const body = { version: disease.version, photoId: ids[1999]!, position: 0 };
    expect(JSON.stringify(body).length).toBeLessThan(200);
    const res = await move('rice_diseases', disease.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await detailOf('rice_diseases', disease.id);
    expect(idsOf(after)).toEqual([ids[1999], ...ids.slice(0, 1999)]);
    expect(await storedPlaces(disease.id)).toEqual(ids.map((_, i) => i));
    const item = ((await call('GET', '/api/public/v1/diseases')).body.items as Json[]).find((d) => d.id === disease.id)!;
    expect(item.mainImage.id).toBe(ids[1999]);
    expect(item.images[1].id).toBe(ids[0]);
  });
});

describe('photo order where the changes need review', () => {
  it('waits as one pending change that each further move builds on; the farmer app sees it once approved', async () => {
    const pest = await makePest(5);
    const ids = idsOf(pest);
    const on = await call('PUT', '/api/review/settings/rice_local_pests', { enabled: true }, reviewerCookie);
    expect(on.status).toBe(200);
    try {
      const first = await move('rice_pests', pest.id, { version: pest.version, photoId: ids[2]!, position: 0 });
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expect(first.body.review).toMatchObject({ action: 'move_photo', recordId: pest.id, state: 'pending' });
      const second = await move('rice_pests', pest.id, { version: pest.version, photoId: ids[4]!, position: 1 });
      expect(second.status).toBe(202);
      expect(second.body.review.id).toBe(first.body.review.id);
      // Published state unchanged meanwhile, for the console and the farmer app.
      expect(idsOf(await detailOf('rice_pests', pest.id))).toEqual(ids);
      const app = ((await call('GET', '/api/public/v1/pests')).body.items as Json[]).find((p) => p.id === pest.id)!;
      expect(app.mainImage.id).toBe(ids[0]);

      const review = await call('GET', `/api/review/changes/${first.body.review.id}`, undefined, reviewerCookie);
      expect(review.status).toBe(200);
      // The reviewer sees the app with the proposed main photo.
      expect(review.body.preview.proposed.mainImage.id).toBe(ids[2]);
      expect(review.body.preview.published.mainImage.id).toBe(ids[0]);
      const approved = await call(
        'POST',
        `/api/review/changes/${first.body.review.id}/approve`,
        { version: review.body.change.version },
        reviewerCookie,
      );
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const expected = [ids[2], ids[4], ids[0], ids[1], ids[3]];
      expect(idsOf(await detailOf('rice_pests', pest.id))).toEqual(expected);
      const published = ((await call('GET', '/api/public/v1/pests')).body.items as Json[]).find((p) => p.id === pest.id)!;
      expect(published.images.map((i: Json) => i.id)).toEqual(expected);
      expect(published.mainImage.id).toBe(ids[2]);
    } finally {
      await call('PUT', '/api/review/settings/rice_local_pests', { enabled: false }, reviewerCookie);
    }
  });

  it('refuses a move while the author’s edit of the entry waits for review', async () => {
    const pest = await makePest(3);
    const ids = idsOf(pest);
    await call('PUT', '/api/review/settings/rice_local_pests', { enabled: true }, reviewerCookie);
    try {
      const edit = await call('PUT', `/api/rice_pests/${pest.id}`, {
        ...entryBody(pest.name, ids, { description: 'Changed.' }),
        version: pest.version,
      });
      expect(edit.status).toBe(202);
      const moved = await move('rice_pests', pest.id, { version: pest.version, photoId: ids[2]!, position: 0 });
      expect(moved.status).toBe(409);
      expect(moved.body.error.message).toBe(PHOTO_ORDER_TEXTS.ownPending);
    } finally {
      await call('PUT', '/api/review/settings/rice_local_pests', { enabled: false }, reviewerCookie);
    }
  });
});
