import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { catalogCreateSchema, catalogUpdateSchema } from '../../common/schemas/catalog.js';
import { createCatalogService } from '../../server/modules/content/catalog/service.js';
import { createPhotoRemoval } from '../../server/modules/content/dataset/removal.js';
import { recentPhotoSetSha } from '../../server/modules/farmer-app/models/stored.js';
import { similarPhotos } from '../../server/modules/content/photos/copies.js';
import type { AppContext } from '../../server/platform/http/context.js';
import { moveStamps } from '../../server/platform/cache/stamps.js';
import { runCommand } from '../../server/platform/writes/command.js';
import { translationStamp } from '../../server/modules/content/translations/repository.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { entryBody, uploadPhoto } from '../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { leafPhoto } from '../fixtures/leaf-photos.js';
import { makeVariety, varietyBody } from '../fixtures/varieties.js';

/** Each kept value (server/platform/cache/kept.ts): the next read after a write answers the new value. */
let t: TestApp;
let superCookie: string;
let admin: TestAccount;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  superCookie = await loginAs(t.app, admin);
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
async function call(method: string, url: string, payload?: unknown, cookie = superCookie) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as Json) : {} };
}
const publicVariety = async (id: string, lang = 'fil') =>
  ((await call('GET', `/api/public/v1/varieties?lang=${lang}`, undefined, '')).body.items as Json[]).find((v) => v.id === id)!;
const translateLocation = async (id: string, location: string) => {
  const version = (await call('GET', `/api/varieties/${id}`)).body.version as number;
  expect((await call('PUT', `/api/translations/rice_seed_varieties/${id}/fil`, { version, texts: { location } })).status).toBe(200);
};

const disease = CATALOG_KINDS.disease;
/** This app's context with no one of this process told of its writes: as another server instance writes. */
const elsewhere = (): AppContext => ({
  ...t.ctx,
  events: { publish: () => undefined, subscribe: () => () => undefined, close: async () => undefined },
});
const diseases = () => createCatalogService(elsewhere(), disease);

/** A disease saved elsewhere with two photos uploaded here (fingerprinted as every disease upload is), checked by the pest form (no 800-photo minimum). */
async function diseaseWithPhotos(name: string, seeds: [number, number]) {
  const ids: string[] = [];
  for (const seed of seeds) {
    const up = await uploadPhoto(t.app, superCookie, disease, `leaf-${seed}.jpg`, await leafPhoto(seed), 'image/jpeg');
    expect(up.statusCode, up.body).toBe(201);
    ids.push(up.json().id as string);
  }
  const created = await diseases().create(catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(name, ids)), admin, {
    skipImageMinimum: true,
  });
  return { id: created.id, version: created.version, photoIds: ids };
}

async function scanReport(label: string): Promise<number> {
  const remoteAddress = '10.9.0.1';
  const install = (await t.app.inject({ method: 'POST', url: '/api/public/v1/installs', remoteAddress, payload: {} })).json() as Json;
  const scannedAt = new Date().toISOString();
  const body = { reportId: crypto.randomUUID(), label, confidence: 0.9, modelVersion: 'scanner-test', scannedAt, municipality: 'Paniqui' };
  const headers = { authorization: `Bearer ${install.installToken}` };
  return (await t.app.inject({ method: 'POST', url: '/api/public/v1/scan-reports', remoteAddress, headers, payload: body })).statusCode;
}

describe('kept values follow every write at once', () => {
  it("the public API's texts in a language: a translation saved, then saved again", async () => {
    const variety = await makeVariety(t.ctx, { location: 'Lowland farms' });
    expect((await publicVariety(variety.id)).location).toBe('Lowland farms');
    await translateLocation(variety.id, 'Mabababang bukirin');
    expect((await publicVariety(variety.id)).location).toBe('Mabababang bukirin');
    await translateLocation(variety.id, 'Bukirin sa kapatagan');
    expect((await publicVariety(variety.id)).location).toBe('Bukirin sa kapatagan');
  });

  it("the public API's texts: a write of another server instance is seen through the stamp in the database", async () => {
    const variety = await makeVariety(t.ctx, { location: 'Upland farms' });
    await translateLocation(variety.id, 'Kabundukan');
    expect((await publicVariety(variety.id)).location).toBe('Kabundukan');
    // As another instance writes: the rows and the stamp in one transaction, nothing of this process told.
    await runCommand({ db: t.ctx.db, events: null }, null, async (trx) => {
      await trx
        .updateTable('translations')
        .set({ text: 'Kabundukan ng Tarlac' })
        .where('collection', '=', 'rice_seed_varieties')
        .where('recordId', '=', variety.id)
        .where('lang', '=', 'fil')
        .execute();
      await moveStamps(trx, [translationStamp('rice_seed_varieties', 'fil')]);
    });
    expect((await publicVariety(variety.id)).location).toBe('Kabundukan ng Tarlac');
  });

  it('the languages in use: a language taken out of use answers in English at once, and back in use in it', async () => {
    const variety = await makeVariety(t.ctx, { location: 'Rainfed fields' });
    await translateLocation(variety.id, 'Bukid na umaasa sa ulan');
    expect((await publicVariety(variety.id)).location).toBe('Bukid na umaasa sa ulan');
    expect((await call('PUT', '/api/languages/fil', { name: 'Filipino', enabled: false })).status).toBe(200);
    const off = await publicVariety(variety.id);
    expect(off.location).toBe('Rainfed fields');
    expect(off.fieldLanguages).toBeUndefined();
    expect((await call('PUT', '/api/languages/fil', { name: 'Filipino', enabled: true })).status).toBe(200);
    expect((await publicVariety(variety.id)).location).toBe('Bukid na umaasa sa ulan');
  });

  it('the option values in a language (made from the kept texts): a new translation of a value', async () => {
    const save = async (text: string) => {
      const doc = (await call('GET', '/api/translations/maintenance/rice_varieties_enums')).body;
      const saved = await call('PUT', '/api/translations/maintenance/rice_varieties_enums/fil', {
        version: doc.version,
        texts: { 'seasons:Wet': text },
      });
      expect(saved.status).toBe(200);
    };
    await save('Tag-ulan');
    expect((await call('GET', '/api/public/v1/options?lang=fil', undefined, '')).body.seasons).toContain('Tag-ulan');
    await save('Panahon ng ulan');
    const seasons = (await call('GET', '/api/public/v1/options?lang=fil', undefined, '')).body.seasons as string[];
    expect(seasons).toContain('Panahon ng ulan');
    expect(seasons).not.toContain('Tag-ulan');
  });

  it('the varieties list and its JSON: a save is on the next page read', async () => {
    const tag = `kept${Date.now().toString(36)}`;
    const list = async () => (await call('GET', `/api/varieties?search=${tag}`)).body;
    expect((await list()).total).toBe(0);
    const created = await call('POST', '/api/varieties', varietyBody({ location: tag }));
    expect(created.status).toBe(201);
    expect((await list()).items.map((v: Json) => v.id)).toEqual([created.body.id]);
    const body = { ...varietyBody({ location: tag, maturityDays: 117 }), version: created.body.version };
    const saved = await call('PUT', `/api/varieties/${created.body.id}`, body);
    expect(saved.status).toBe(200);
    expect((await list()).items[0].maturityDays).toBe(117);
    // As another instance or the import command writes: the row alone, nothing of this process told.
    // The database moves the table's stamp with it.
    await t.ctx.db.updateTable('rice_seed_varieties').set({ maturityDays: 121 }).where('id', '=', created.body.id).execute();
    expect((await list()).items[0].maturityDays).toBe(121);
    await t.ctx.db.deleteFrom('rice_seed_varieties').where('id', '=', created.body.id).execute();
    expect((await list()).total).toBe(0);
  });

  it("the scan reports' labels: a disease added, renamed and deleted on another instance", async () => {
    const tag = Date.now().toString(36);
    expect(await scanReport(`kept-streak-${tag}`)).toBe(400);
    const made = await diseaseWithPhotos(`Kept streak ${tag}`, [41, 43]);
    expect(await scanReport(`kept-streak-${tag}`)).toBe(201);
    const renamed = catalogUpdateSchema(disease).parse({ ...entryBody(`Kept blotch ${tag}`, made.photoIds), version: made.version });
    await diseases().update(made.id, renamed, admin);
    expect(await scanReport(`kept-streak-${tag}`)).toBe(400);
    expect(await scanReport(`kept-blotch-${tag}`)).toBe(201);
    await diseases().remove(made.id, admin);
    expect(await scanReport(`kept-blotch-${tag}`)).toBe(400);
    expect((await call('POST', `/api/trash/rice_local_diseases/${made.id}/restore`)).status).toBe(204);
    expect(await scanReport(`kept-blotch-${tag}`)).toBe(201);
  });

  it("the index of copies and the training set's photo set: a photo taken out on another instance, and put back", async () => {
    const sha = () => recentPhotoSetSha(t.ctx, 'all', 'palayan', 'disease');
    const before = await sha();
    const made = await diseaseWithPhotos(`Kept spot ${Date.now().toString(36)}`, [47, 53]);
    const withIt = await sha();
    expect(withIt).not.toBe(before);
    const [photoId] = made.photoIds as [string];
    const { phash } = await t.ctx.db.selectFrom('catalog_images').select('phash').where('id', '=', photoId).executeTakeFirstOrThrow();
    // Another upload of the uploader's with the same picture but other bytes: the taken-out photo is then theirs and unlinked.
    const upload = { id: crypto.randomUUID(), sha256: 'other bytes', phash: phash!, uploadedBy: admin.id };
    const copiesOf = async () => (await similarPhotos(t.ctx, upload)).map((s) => s.imageId);
    expect(await copiesOf()).toContain(photoId);
    await createPhotoRemoval(elsewhere()).remove(made.id, photoId, admin);
    expect(await copiesOf()).not.toContain(photoId);
    expect(await sha()).not.toBe(withIt);
    await createPhotoRemoval(elsewhere()).putBack(photoId, admin);
    expect(await copiesOf()).toContain(photoId);
    expect(await sha()).toBe(withIt);
  });
});
