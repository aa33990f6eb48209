import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { hammingDistance } from '../../../common/dataset.js';
import { fingerprintStored } from '../../../server/modules/content/photos/backfill/fingerprints.js';
import { photoRuntime } from '../../../server/modules/content/photos/variants.js';
import { entryBody, uploadPhoto } from '../../fixtures/catalog.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';
import { leafPhoto } from '../../fixtures/leaf-photos.js';
import { startS3, type TestS3 } from '../../fixtures/s3.js';

async function fingerprintsAcrossStorage(t: TestApp) {
  const cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  const original = await leafPhoto(3);
  const photos = [original, await sharp(original).jpeg({ quality: 45 }).toBuffer(), await leafPhoto(11)];
  const ids: string[] = [];
  for (const [i, photo] of photos.entries()) {
    const up = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, `leaf-${i}.jpg`, photo, 'image/jpeg');
    expect(up.statusCode, up.body).toBe(201);
    ids.push(up.json().id);
  }
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rice_pests',
    headers: { cookie },
    payload: entryBody(`Stem borer ${Date.now()}`, ids),
  });
  expect(created.statusCode, created.body).toBe(201);
  await photoRuntime(t.ctx).queue.idle();
  const rows = () =>
    t.ctx.db
      .selectFrom('catalog_images')
      .select(['id', 'phash', 'sharpness', 'brightness', 'entropy'])
      .where('id', 'in', ids)
      .execute()
      .then((r) => ids.map((id) => r.find((x) => x.id === id)!));

  // Made with the thumbnails.
  const made = await rows();
  for (const r of made) {
    expect(r.phash).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(r.sharpness)).toBeGreaterThan(0);
    expect(Number(r.brightness)).toBeGreaterThan(0);
    expect(Number(r.entropy)).toBeGreaterThan(0);
  }
  expect(hammingDistance(made[0]!.phash!, made[1]!.phash!)).toBeLessThanOrEqual(10);
  expect(hammingDistance(made[0]!.phash!, made[2]!.phash!)).toBeGreaterThan(10);

  // Photos stored before fingerprints: the command gives them the same ones, and a second run finds nothing to do.
  await t.ctx.db
    .updateTable('catalog_images')
    .set({ phash: null, sharpness: null, brightness: null, entropy: null })
    .where('id', 'in', ids)
    .execute();
  const seen: number[] = [];
  const report = await fingerprintStored(t.ctx, (p) => seen.push(p.done));
  expect(report).toMatchObject({ total: 3, done: 3, unreadable: 0 });
  expect(seen).toEqual([0, 1, 2, 3]);
  const again = await rows();
  for (const [i, r] of again.entries()) expect(hammingDistance(r.phash!, made[i]!.phash!), `photo ${i}`).toBeLessThanOrEqual(2);
  expect((await fingerprintStored(t.ctx)).total).toBe(0);
}

describe('photo fingerprints on the local folder', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('are made with the thumbnails, and by the resumable command for photos without', async () => {
    await fingerprintsAcrossStorage(t);
  });
});

describe('photo fingerprints in an S3 bucket', () => {
  let s3: TestS3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3();
    t = await createTestApp({ s3: s3.settings });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('are made with the thumbnails, and by the resumable command for photos without', async () => {
    await fingerprintsAcrossStorage(t);
  });
});
