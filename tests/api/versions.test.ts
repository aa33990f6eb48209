import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VERSION_TEXTS } from '../../common/versions.js';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { catalogCreateSchema } from '../../common/schemas/catalog.js';
import { photoRuntime } from '../../server/modules/content/photos/variants.js';
import { createCatalogService } from '../../server/modules/content/catalog/service.js';
import { backfillFirstVersions } from '../../server/modules/publishing/versions/current.js';
import { pruneVersions } from '../../server/modules/publishing/versions/prune.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { entryBody, stagePhotos } from '../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { makeVarietyUsing } from '../fixtures/maintenance.js';
import { varietyBody } from '../fixtures/varieties.js';

let t: TestApp;
let superAdmin: TestAccount;
let adminCookie: string;
let superCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  superCookie = await loginAs(t.app, superAdmin);
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
async function call(method: string, url: string, payload?: unknown, cookie = adminCookie): Promise<{ status: number; body: Json }> {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : {} };
}
const versionsOf = async (base: string, id: string, cookie = adminCookie) =>
  (await call('GET', `${base}/${id}/versions`, undefined, cookie)).body;

describe('variety versions', () => {
  it('lists every save, compares two, restores one through the edit path with its audit entry, and the farmer app syncs it', async () => {
    const created = (await call('POST', '/api/varieties', varietyBody({ location: 'Tarlac City', tillers: 16 }))).body;
    const first = { ...created };
    const edited = (
      await call('PUT', `/api/varieties/${created.id}`, {
        ...varietyBody({ varietyName: created.varietyName, location: 'Capas', tillers: 20 }),
        version: created.version,
      })
    ).body;
    const list = await versionsOf('/api/varieties', created.id);
    expect(list.items.map((v: Json) => [v.number, v.summary.kind])).toEqual([
      [2, 'edit'],
      [1, 'create'],
    ]);
    expect(list.recordVersion).toBe(edited.version);
    expect(list.items[0].description).toContain('Location');
    expect(list.items[0].actorName).toBeTruthy();

    const compared = (await call('GET', `/api/varieties/${created.id}/versions/compare?from=1&to=2`)).body;
    const location = compared.fields.find((f: Json) => f.key === 'location');
    expect(location).toMatchObject({ from: 'Tarlac City', to: 'Capas', changed: true, label: 'Location' });
    expect(compared.fields.find((f: Json) => f.key === 'varietyName').changed).toBe(false);
    expect(compared.photos).toBeNull();

    const since = new Date().toISOString();
    const restored = await call('POST', `/api/varieties/${created.id}/versions/1/restore`, { version: edited.version });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ number: 3, recordVersion: edited.version + 1, photosMissing: 0 });
    const now = (await call('GET', `/api/varieties/${created.id}`)).body;
    expect(now).toMatchObject({
      location: first.location,
      tillers: first.tillers,
      releaseName: first.releaseName,
      version: edited.version + 1,
    });

    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', created.id)
      .where('action', '=', 'RESTORE_VERSION')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.changes!)).toMatchObject({ before: { location: 'Capas' }, after: { location: 'Tarlac City' } });
    const after = await versionsOf('/api/varieties', created.id);
    expect(after.items[0]).toMatchObject({ number: 3, auditId: audit[0]!.id, summary: { kind: 'restore', restoredFrom: 1 } });
    expect(after.items[0].description).toContain(VERSION_TEXTS.restoredFrom(1));

    // History's entry links to the version it made.
    const detail = (await call('GET', `/api/history/${audit[0]!.id}`, undefined, superCookie)).body;
    expect(detail.version).toEqual({ collection: 'rice_seed_varieties', documentId: created.id, number: 3 });

    const delta = (await t.app.inject({ url: `/api/public/v1/varieties?updatedSince=${encodeURIComponent(since)}` })).json();
    expect(delta.items.map((v: Json) => v.id)).toContain(created.id);
    expect(delta.items.find((v: Json) => v.id === created.id).location).toBe('Tarlac City');
  });

  it('refuses a restore named with an older record version (409) and changes nothing', async () => {
    const created = (await call('POST', '/api/varieties', varietyBody({ location: 'Paniqui' }))).body;
    const theirs = (
      await call('PUT', `/api/varieties/${created.id}`, {
        ...varietyBody({ varietyName: created.varietyName, location: 'Gerona' }),
        version: created.version,
      })
    ).body;
    const refused = await call('POST', `/api/varieties/${created.id}/versions/1/restore`, { version: created.version });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('VERSION_CONFLICT');
    expect((await call('GET', `/api/varieties/${created.id}`)).body).toMatchObject({ location: 'Gerona', version: theirs.version });
    expect((await versionsOf('/api/varieties', created.id)).items).toHaveLength(2);
  });

  it('lets one of two restores sent at once through; the other gets 409 and writes nothing', async () => {
    const created = (await call('POST', '/api/varieties', varietyBody({ location: 'Moncada' }))).body;
    const edited = (
      await call('PUT', `/api/varieties/${created.id}`, {
        ...varietyBody({ varietyName: created.varietyName, location: 'Bamban' }),
        version: created.version,
      })
    ).body;
    const results = await Promise.all(
      [1, 2, 1, 2].map((n) => call('POST', `/api/varieties/${created.id}/versions/${n}/restore`, { version: edited.version })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const list = await versionsOf('/api/varieties', created.id);
    expect(list.items.map((v: Json) => v.number)).toEqual([3, 2, 1]);
    const audits = await t.ctx.db
      .selectFrom('audit_logs')
      .select('id')
      .where('documentId', '=', created.id)
      .where('action', '=', 'RESTORE_VERSION')
      .execute();
    expect(audits).toHaveLength(1);
  });

  it('names an option value removed since and restores with the current value the user chose', async () => {
    const docUrl = '/api/maintenance/documents/rice_varieties_enums';
    const added = await call('POST', `${docUrl}/lists/seasons`, { value: 'Ratoon' }, superCookie);
    expect(added.status).toBeLessThan(300);
    const created = (await call('POST', '/api/varieties', varietyBody({ season: ['Dry', 'Ratoon'] }))).body;
    const edited = (
      await call('PUT', `/api/varieties/${created.id}`, {
        ...varietyBody({ varietyName: created.varietyName, season: ['Wet'] }),
        version: created.version,
      })
    ).body;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${docUrl}/lists/seasons?value=Ratoon`, headers: { cookie: superCookie } })).statusCode,
    ).toBeLessThan(300);

    const refused = await call('POST', `/api/varieties/${created.id}/versions/1/restore`, { version: edited.version });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.season).toBe(VERSION_TEXTS.optionGone('Ratoon'));
    expect(refused.body.error.choices.season).toContain('Dry');
    expect(refused.body.error.choices.season).not.toContain('Ratoon');
    expect((await call('GET', `/api/varieties/${created.id}`)).body.season).toEqual(['Wet']);

    const chosen = await call('POST', `/api/varieties/${created.id}/versions/1/restore`, {
      version: edited.version,
      replacements: { season: ['Dry'] },
    });
    expect(chosen.status).toBe(200);
    expect((await call('GET', `/api/varieties/${created.id}`)).body.season).toEqual(['Dry']);
  });

  it('keeps the ADMIN out of option-list versions and lets a super admin restore one', async () => {
    const docUrl = '/api/maintenance/documents/rice_diseases_enums';
    expect((await call('GET', `${docUrl}/versions`)).status).toBe(403);
    const doc = (await call('GET', docUrl, undefined, superCookie)).body;
    const saved = (
      await call(
        'PUT',
        docUrl,
        { version: doc.version, lists: { affectedParts: [...doc.lists.affectedParts, 'Panicle neck'] } },
        superCookie,
      )
    ).body;
    const versions = (await call('GET', `${docUrl}/versions`, undefined, superCookie)).body;
    expect(versions.items[0].summary).toMatchObject({ kind: 'edit', changed: ['affectedParts'] });
    const before = versions.items[1].number;
    const restored = await call(
      'POST',
      `${docUrl}/versions/${before}/restore`,
      { version: saved.document?.version ?? saved.version },
      superCookie,
    );
    expect(restored.status).toBe(200);
    const now = (await call('GET', docUrl, undefined, superCookie)).body;
    expect(now.lists.affectedParts).toEqual(doc.lists.affectedParts);
  });

  it('gives records from before versions were kept a first version from their current state', async () => {
    const id = await makeVarietyUsing(t.ctx, { season: ['Dry'], plantingMethod: 'Transplanting' });
    expect(await backfillFirstVersions(t.ctx)).toBeGreaterThanOrEqual(1);
    const list = await versionsOf('/api/varieties', id);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ number: 1, actorName: null, summary: { kind: 'first' } });
    expect(await backfillFirstVersions(t.ctx)).toBe(0);
  });

  it("backfills in batches: records with and without versions mixed across the batches' edges each end with one first version", async () => {
    const earlier = await Promise.all(Array.from({ length: 6 }, () => makeVarietyUsing(t.ctx)));
    expect(await backfillFirstVersions(t.ctx, 2)).toBeGreaterThanOrEqual(6);
    // Ids whose order differs by engine and collation (case, punctuation, digits, accents), and a
    // version left by a record no longer stored, in among them.
    const run = Date.now().toString(36);
    const later = await Promise.all(['0', 'A_b', 'a-c', 'aB', 'Z', 'É'].map((start) => makeVarietyUsing(t.ctx, { id: `${start}-${run}` })));
    await t.ctx.db
      .insertInto('record_versions')
      .values({
        id: `gone-${run}`,
        collection: 'rice_seed_varieties',
        documentId: `a-b-${run}`,
        number: 1,
        recordVersion: 1,
        auditId: null,
        actorId: null,
        actorName: null,
        createdAt: new Date().toISOString(),
        snapshot: '{}',
        summary: '{}',
      })
      .execute();
    expect(await backfillFirstVersions(t.ctx, 2)).toBe(6);
    for (const id of [...earlier, ...later]) expect((await versionsOf('/api/varieties', id)).items).toHaveLength(1);
    expect(await backfillFirstVersions(t.ctx, 2)).toBe(0);
  });
});

describe.each(['pest', 'disease'] as const)('%s versions', (kindName) => {
  const kind = CATALOG_KINDS[kindName];
  const base = `/api/${kind.route}`;
  /** An entry with `photos` photos, made by the service (a disease's 800-photo minimum is not what these tests are about). */
  async function entry(name: string, photos: number) {
    const ids = await stagePhotos(t.ctx, kindName, superAdmin, photos);
    const service = createCatalogService(t.ctx, kind);
    const created = await service.create(catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(name, ids)), superAdmin, {
      skipImageMinimum: true,
    });
    await vi.waitFor(
      async () => expect((await call('GET', `${base}/${created.id}`)).body.images.every((i: Json) => i.status === 'ready')).toBe(true),
      { timeout: 15_000 },
    );
    return { id: created.id, photoIds: ids };
  }
  const detailOf = async (id: string) => (await call('GET', `${base}/${id}`)).body;

  it('brings removed photos back in their order, keeping their files meanwhile, and compares photo sets', async () => {
    const { id, photoIds } = await entry(`Sheath blight ${Date.now()}`, 4);
    const v1 = await detailOf(id);
    const keptFiles = v1.images.map((i: Json) => i.url as string);
    // An edit keeps two photos, in reverse order.
    const edit = await call('PUT', `${base}/${id}`, {
      ...entryBody(v1.name, [photoIds[3]!, photoIds[1]!], { treatments: 'Spray.' }),
      version: v1.version,
    });
    expect(edit.status).toBe(200);
    // The photos it took out keep their files, and the hourly clean-up of staged photos leaves them.
    await photoRuntime(t.ctx).cleanupStaged(0, Date.now() + 60_000);
    for (const key of [photoIds[0], photoIds[2]]) {
      const row = await t.ctx.db.selectFrom('catalog_images').selectAll().where('id', '=', key!).executeTakeFirst();
      expect(row).toMatchObject({ entryId: null, retiredFrom: id });
      expect(await t.ctx.storage.stat(row!.originalKey!)).not.toBeNull();
    }
    const list = await versionsOf(base, id);
    expect(list.items[0].summary).toMatchObject({
      kind: 'edit',
      photosRemoved: 2,
      photosAdded: 0,
      photosReordered: true,
      photoCount: 2,
      changed: ['treatments'],
    });

    const compared = (await call('GET', `${base}/${id}/versions/compare?from=2&to=1`)).body;
    expect(compared.photos).toMatchObject({ fromCount: 2, toCount: 4, reordered: true });
    expect(compared.photos.added.items.map((p: Json) => p.id)).toEqual([photoIds[0], photoIds[2]]);
    expect(compared.photos.added.items[0].thumbUrl).toMatch(/^\/api\/files\//);

    const restored = await call('POST', `${base}/${id}/versions/1/restore`, { version: edit.body.version });
    expect(restored.status).toBe(200);
    const back = await detailOf(id);
    expect(back.images.map((i: Json) => i.id)).toEqual(photoIds);
    expect(back.images.map((i: Json) => i.url)).toEqual(keptFiles);
    expect(back.treatments).toBe(v1.treatments);
    const rows = await t.ctx.db.selectFrom('catalog_images').select(['id', 'retiredFrom']).where('id', 'in', photoIds).execute();
    expect(rows.every((r) => r.retiredFrom === null)).toBe(true);
    expect((await versionsOf(base, id)).items[0].summary).toMatchObject({ kind: 'restore', photosAdded: 2, photoCount: 4 });
  });

  it('prunes versions past VERSION_RETENTION and then the photos no kept version holds', async () => {
    const name = `Bacterial leaf streak ${Date.now()}`;
    const { id, photoIds } = await entry(name, 4);
    let version = (await detailOf(id)).version as number;
    // Three edits, each taking one photo out: versions 2, 3, 4.
    for (let keep = 3; keep >= 1; keep -= 1) {
      const res = await call('PUT', `${base}/${id}`, { ...entryBody(name, photoIds.slice(0, keep)), version });
      expect(res.status).toBe(200);
      version = res.body.version;
    }
    const keys = new Map(
      (await t.ctx.db.selectFrom('catalog_images').select(['id', 'originalKey']).where('id', 'in', photoIds).execute()).map((r) => [
        r.id,
        r.originalKey!,
      ]),
    );
    expect(await pruneVersions(t.ctx, undefined)).toEqual({ versions: 0, photos: 0 });
    const pruned = await pruneVersions(t.ctx, 2);
    expect(pruned.versions).toBeGreaterThanOrEqual(2);
    const left = await versionsOf(base, id);
    expect(left.items.map((v: Json) => v.number)).toEqual([4, 3]);
    // Version 3 holds photos 0 and 1; photos 2 and 3 were held only by versions 1 and 2.
    const remaining = new Set(
      (await t.ctx.db.selectFrom('catalog_images').select('id').where('id', 'in', photoIds).execute()).map((r) => r.id),
    );
    expect([...remaining].sort()).toEqual([photoIds[0]!, photoIds[1]!].sort());
    expect(await t.ctx.storage.stat(keys.get(photoIds[1]!)!)).not.toBeNull();
    expect(await t.ctx.storage.stat(keys.get(photoIds[3]!)!)).toBeNull();
    // Restoring version 3 brings photo 1 back.
    const restored = await call('POST', `${base}/${id}/versions/3/restore`, { version });
    expect(restored.status).toBe(200);
    expect((await detailOf(id)).images.map((i: Json) => i.id)).toEqual(photoIds.slice(0, 2));
  });

  it('refuses versions of records that do not exist', async () => {
    expect((await call('GET', '/api/rice_pests/nope/versions')).status).toBe(404);
    expect((await call('GET', '/api/varieties/nope/versions/compare?from=1&to=2')).status).toBe(404);
    expect((await call('POST', '/api/rice_pests/nope/versions/1/restore', { version: 1 })).status).toBe(404);
    expect((await call('GET', '/api/maintenance/documents/nope/versions', undefined, superCookie)).status).toBe(404);
  });
});

describe("a Dataset health removal is the super admin's to undo", () => {
  const kind = CATALOG_KINDS.disease;
  const base = `/api/${kind.route}`;

  it("an ADMIN's version restore or edit leaves a removed photo out; a super admin's restore brings it back", async () => {
    const ids = await stagePhotos(t.ctx, 'disease', superAdmin, 4);
    const created = await createCatalogService(t.ctx, kind).create(
      catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(`Blast ${Date.now()}`, ids)),
      superAdmin,
      { skipImageMinimum: true },
    );
    const removed = ids[2]!;
    const out = await t.app.inject({
      method: 'POST',
      url: `/api/dataset-health/photos/${removed}/remove`,
      headers: { cookie: superCookie },
      payload: { diseaseId: created.id },
    });
    expect(out.statusCode, out.body).toBe(204);
    const detail = async () => (await call('GET', `${base}/${created.id}`)).body;
    const removedRow = async () =>
      t.ctx.db.selectFrom('catalog_images').select(['entryId', 'removedFrom']).where('id', '=', removed).executeTakeFirstOrThrow();

    // An ADMIN restores version 1, which held the photo: the photo stays out, and is counted as not restored.
    const byAdmin = await call('POST', `${base}/${created.id}/versions/1/restore`, { version: (await detail()).version });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(byAdmin.body.photosMissing).toBe(1);
    expect((await detail()).images.map((i: Json) => i.id)).toEqual(ids.filter((i) => i !== removed));
    expect(await removedRow()).toEqual({ entryId: null, removedFrom: created.id });
    // Naming it in an edit does not bring it back either.
    const edit = await call('PUT', `${base}/${created.id}`, {
      ...entryBody((await detail()).name, ids),
      version: (await detail()).version,
    });
    expect(edit.status).toBe(400);
    expect(await removedRow()).toEqual({ entryId: null, removedFrom: created.id });

    // The super admin may: the photo is the disease's again.
    const bySuper = await call('POST', `${base}/${created.id}/versions/1/restore`, { version: (await detail()).version }, superCookie);
    expect(bySuper.status, JSON.stringify(bySuper.body)).toBe(200);
    expect(bySuper.body.photosMissing).toBe(0);
    expect(await removedRow()).toEqual({ entryId: created.id, removedFrom: null });
  });
});
