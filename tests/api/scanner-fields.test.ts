import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { CATALOG_LABELS } from '../../common/catalog-texts.js';
import { DISEASE_ENUMS_ID } from '../../common/schemas/maintenance.js';
import { importFirestoreExport } from '../../server/modules/operations/migration/importer.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { entryBody, tinyPng, uploadPhoto } from '../fixtures/catalog.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

/** The farmer app's fields (localName, affectedParts), the managed Affected Parts list and the training-class flag. */
let t: TestApp;
let admin: string;
let boss: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  boss = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

/** A saved disease with one ready photo (variants present), straight in the database. */
async function disease(id: string, name: string, extra: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  await t.ctx.db
    .insertInto('rice_local_diseases')
    .values({ id, name, scientificName: 'X', isDeleted: 0, createdAt: now, updatedAt: now, ...extra })
    .execute();
  await t.ctx.storage.put(`d/${id}.jpg`, Buffer.from('jpeg'));
  await t.ctx.db
    .insertInto('catalog_images')
    .values({
      id: `${id}-img`,
      collection: 'rice_local_diseases',
      entryId: id,
      position: 0,
      status: 'ready',
      originalKey: `d/${id}.jpg`,
      displayKey: `d/${id}.jpg`,
      thumbKey: `d/${id}.jpg`,
      externalUrl: null,
      mimeType: 'image/jpeg',
      sizeBytes: 4,
      width: 1,
      height: 1,
      originalName: 'a.jpg',
      sha256: null,
      uploadedBy: null,
      createdAt: now,
      linkedAt: now,
      locationCleaned: 1,
    })
    .execute();
}

const put = (id: string, cookie: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/rice_diseases/${id}`,
    headers: { cookie },
    payload: { ...entryBody('Rice tungro', [`${id}-img`]), ...body },
  });

describe('localName, affectedParts and training classes', () => {
  it('a pest keeps its local name; search finds it; the public API carries it', async () => {
    const staged = await uploadPhoto(t.app, admin, CATALOG_KINDS.pest, 'a.png', await tinyPng(16));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie: admin },
      payload: entryBody('Rice black bug', [staged.json().id], { localName: 'Itim na atangya' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ localName: 'Itim na atangya', affectedParts: [], isTrainingClass: false });
    const found = await t.app.inject({ url: '/api/rice_pests?search=atangya', headers: { cookie: admin } });
    expect(found.json().items.map((i: { name: string }) => i.name)).toEqual(['Rice black bug']);
    const pub = await t.app.inject({ url: '/api/public/v1/pests' });
    expect(pub.json().items[0]).toMatchObject({ name: 'Rice black bug', localName: 'Itim na atangya', affectedParts: [] });
  });

  it('a disease names affected parts from the managed list only, in its spelling; the audit entry records them', async () => {
    await disease('tungro', 'Rice tungro');
    const bad = await put('tungro', admin, { version: 1, affectedParts: ['leaf', 'wing'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.affectedParts).toBe(CATALOG_LABELS.affectedPartsUnknown);
    const ok = await put('tungro', admin, { version: 1, localName: 'Tungro', affectedParts: ['Leaf', 'sheath', 'leaf'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ localName: 'Tungro', affectedParts: ['leaf', 'sheath'] });
    const audit = await t.ctx.db.selectFrom('audit_logs').select('changes').where('documentId', '=', 'tungro').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.changes!).after).toMatchObject({ localName: 'Tungro', affectedParts: ['leaf', 'sheath'] });
    const pub = await t.app.inject({ url: '/api/public/v1/diseases' });
    expect(pub.json().items.find((i: { id: string }) => i.id === 'tungro')).toMatchObject({
      localName: 'Tungro',
      affectedParts: ['leaf', 'sheath'],
    });
    expect((await t.app.inject({ url: '/api/public/v1/options' })).json().affectedParts).toEqual([
      'leaf',
      'sheath',
      'panicle',
      'stem',
      'grain',
      'root',
    ]);
  });

  it('the Affected Parts list is maintained like seasons: usage counts, add, remove, audit; a removed part may stay on a disease', async () => {
    const usage = await t.app.inject({ url: `/api/maintenance/documents/${DISEASE_ENUMS_ID}/usage`, headers: { cookie: boss } });
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json()).toMatchObject({ counts: 'diseases', usage: { affectedParts: { leaf: 1, sheath: 1, panicle: 0 } } });
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/maintenance/documents/${DISEASE_ENUMS_ID}/lists/affectedParts`,
      headers: { cookie: boss },
      payload: { value: 'node' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/maintenance/documents/${DISEASE_ENUMS_ID}/lists/affectedParts?value=sheath`,
      headers: { cookie: boss },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const doc = (await t.app.inject({ url: `/api/maintenance/documents/${DISEASE_ENUMS_ID}`, headers: { cookie: boss } })).json();
    expect(doc.lists.affectedParts).toEqual(['leaf', 'panicle', 'stem', 'grain', 'root', 'node']);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('documentId', '=', DISEASE_ENUMS_ID)
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => a.description)).toEqual(['Added "node" to Affected Parts', 'Removed "sheath" from Affected Parts']);
    const kept = await put('tungro', admin, { version: 2, localName: 'Tungro', affectedParts: ['leaf', 'sheath', 'node'] });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().affectedParts).toEqual(['leaf', 'sheath', 'node']);
  });

  it('only a super admin sets the training-class flag; training classes never reach the farmer app', async () => {
    await disease('healthy', 'Healthy leaf');
    const since = new Date(Date.now() - 1000).toISOString();
    const refused = await put('healthy', admin, { name: 'Healthy leaf', version: 1, isTrainingClass: true });
    expect(refused.statusCode).toBe(403);
    // An admin's ordinary edit of a training class keeps the flag it sends back unchanged.
    const set = await put('healthy', boss, { name: 'Healthy leaf', version: 1, isTrainingClass: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().isTrainingClass).toBe(true);
    expect(
      (await put('healthy', admin, { name: 'Healthy leaf', version: 2, isTrainingClass: true, localName: 'Malusog' })).statusCode,
    ).toBe(200);
    const pub = (await t.app.inject({ url: '/api/public/v1/diseases' })).json();
    expect(pub.items.map((i: { id: string }) => i.id)).not.toContain('healthy');
    const delta = (await t.app.inject({ url: `/api/public/v1/diseases?updatedSince=${encodeURIComponent(since)}` })).json();
    expect(delta.deleted).toContain('healthy');
    expect((await t.app.inject({ url: '/api/public/v1/images/healthy-img/thumbnail' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/public/v1/images/tungro-img/thumbnail' })).statusCode).toBe(200);
    // The training set keeps it as a class of its own.
    const zip = await t.app.inject({ url: '/api/training-sets/diseases?layout=flat', headers: { cookie: boss } });
    expect(zip.rawPayload.toString('latin1')).toContain('images/healthy-leaf/healthy-img.jpg');
  });

  it('a training class may be "not a rice plant" (super admins only); a disease may not; the training set says which', async () => {
    await disease('soil', 'Soil and hands');
    const needsTraining = await put('soil', boss, { name: 'Soil and hands', version: 1, notRicePlant: true });
    expect(needsTraining.statusCode).toBe(400);
    expect(needsTraining.json().error.fields.notRicePlant).toBe(CATALOG_LABELS.notRicePlantNeedsTraining);
    expect((await put('soil', boss, { name: 'Soil and hands', version: 1, isTrainingClass: true })).statusCode).toBe(200);
    expect((await put('soil', admin, { name: 'Soil and hands', version: 2, isTrainingClass: true, notRicePlant: true })).statusCode).toBe(
      403,
    );
    const set = await put('soil', boss, { name: 'Soil and hands', version: 2, isTrainingClass: true, notRicePlant: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ isTrainingClass: true, notRicePlant: true });
    // An admin's edit that sends the flags back unchanged keeps them.
    expect(
      (await put('soil', admin, { name: 'Soil and hands', version: 3, isTrainingClass: true, notRicePlant: true, localName: 'Lupa' }))
        .statusCode,
    ).toBe(200);
    const zip = await t.app.inject({ url: '/api/training-sets/diseases?layout=flat', headers: { cookie: boss } });
    const manifest = zip.rawPayload.toString('latin1');
    expect(manifest).toMatch(/"label":\s*"soil-and-hands"[^}]*"not_rice_plant":\s*true/);
  });

  it('the Firestore import takes localName and affectedParts when the export has them, and keeps them when it does not', async () => {
    const doc = {
      name: 'Sheath rot',
      scientificName: 'Sarocladium oryzae',
      localName: 'Bulok na balat',
      affectedParts: ['sheath', 'panicle'],
      createdAt: '2024-01-01T00:00:00Z',
    };
    await importFirestoreExport(t.ctx, { rice_local_diseases: { dis_rot: doc } });
    let row = await t.ctx.db.selectFrom('rice_local_diseases').selectAll().where('id', '=', 'dis_rot').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ localName: 'Bulok na balat', affectedParts: '["sheath","panicle"]' });
    const { localName: _l, affectedParts: _a, ...without } = doc;
    await importFirestoreExport(t.ctx, { rice_local_diseases: { dis_rot: { ...without, description: 'changed' } } });
    row = await t.ctx.db.selectFrom('rice_local_diseases').selectAll().where('id', '=', 'dis_rot').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ description: 'changed', localName: 'Bulok na balat', affectedParts: '["sheath","panicle"]' });
  });
});
