import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { fingerprintImage } from '../../../server/modules/content/photos/pixels/fingerprint.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { entryBody, uploadPhoto } from '../../fixtures/catalog.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';
import { leafPhoto } from '../../fixtures/leaf-photos.js';

let t: TestApp;
let cookie: string;
let other: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

const disease = CATALOG_KINDS.disease;
const sizes = { maxPixels: 1e8, displaySize: 1024, thumbSize: 480 };

/** A saved disease with one photo, stored as an upload would be (its bytes' hash and fingerprint). */
async function savedDisease(id: string, name: string, photo: Buffer) {
  await t.ctx.db
    .insertInto('rice_local_diseases')
    .values({ id, name, scientificName: null, isDeleted: 0, createdAt: new Date().toISOString() })
    .execute();
  const { fingerprint } = await fingerprintImage(photo, sizes);
  const { createHash } = await import('node:crypto');
  await t.ctx.db
    .insertInto('catalog_images')
    .values({
      id: `${id}-0`,
      collection: 'rice_local_diseases',
      entryId: id,
      position: 0,
      status: 'ready',
      originalKey: `rice_disease/${id}/0.jpg`,
      displayKey: null,
      thumbKey: `rice_disease/_variants/${id}-0_thumb.jpg`,
      externalUrl: null,
      mimeType: 'image/jpeg',
      sizeBytes: photo.length,
      width: 640,
      height: 420,
      originalName: null,
      sha256: createHash('sha256').update(photo).digest('hex'),
      uploadedBy: null,
      createdAt: new Date().toISOString(),
      linkedAt: new Date().toISOString(),
      ...fingerprint,
    })
    .execute();
}

describe('copies found when a disease photo is uploaded', () => {
  it("names a photo of another disease with the same picture, and the uploader's own near copies, nearest first", async () => {
    const blastPhoto = await leafPhoto(5);
    await savedDisease('copies-blast', 'Rice blast', blastPhoto);

    const same = await uploadPhoto(t.app, cookie, disease, 'same.jpg', blastPhoto, 'image/jpeg');
    expect(same.statusCode, same.body).toBe(201);
    expect(same.json().similar).toEqual([
      expect.objectContaining({ imageId: 'copies-blast-0', entryId: 'copies-blast', entryName: 'Rice blast', exact: true, distance: 0 }),
    ]);
    expect(same.json().similar[0].thumbUrl).toMatch(/^\/api\/files\//);

    const mine = await uploadPhoto(t.app, cookie, disease, 'leaf.jpg', await leafPhoto(9), 'image/jpeg');
    const again = await uploadPhoto(
      t.app,
      cookie,
      disease,
      'leaf-again.jpg',
      await sharp(await leafPhoto(9))
        .jpeg({ quality: 50 })
        .toBuffer(),
      'image/jpeg',
    );
    expect(again.json().similar).toEqual([expect.objectContaining({ imageId: mine.json().id, entryId: null, exact: false })]);
    expect(again.json().similar[0].distance).toBeLessThanOrEqual(10);

    // Another uploader's staged photos are theirs: not named to this one.
    const theirs = await uploadPhoto(t.app, other, disease, 'theirs.jpg', await leafPhoto(9), 'image/jpeg');
    expect(theirs.json().similar).toEqual([]);
    const unrelated = await uploadPhoto(t.app, cookie, disease, 'unrelated.jpg', await leafPhoto(23), 'image/jpeg');
    expect(unrelated.json().similar).toEqual([]);
  });

  it('keeps one of two uploads with the same bytes when an entry is saved, and counts what it keeps', async () => {
    const photo = await leafPhoto(31);
    const ids: string[] = [];
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) {
      const up = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, name, name === 'c.jpg' ? await leafPhoto(32) : photo, 'image/jpeg');
      ids.push(up.json().id);
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody(`Rice bug ${Date.now()}`, ids),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().images.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[2]]);
    const left = await t.ctx.db.selectFrom('catalog_images').select('id').where('id', '=', ids[1]!).execute();
    expect(left).toEqual([]);

    // An edit that adds the same bytes as a photo the entry has keeps the entry's photo only.
    const entry = created.json();
    const copy = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, 'again.jpg', photo, 'image/jpeg');
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody(entry.name, [copy.json().id, ids[0], ids[2]]), version: entry.version },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().images.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[2]]);
  });
});
