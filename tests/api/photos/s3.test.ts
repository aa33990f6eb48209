import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { photoRuntime } from '../../../server/modules/content/photos/variants.js';
import { S3Storage } from '../../../server/platform/storage/s3-storage.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { cleanPhoto } from '../../../server/modules/content/photos/pixels/photo-privacy.js';
import { entryBody, exifTagsOf, jpegWithGps, PHONE_EXIF, tinyPng, uploadPhoto } from '../../fixtures/catalog.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';
import { startS3, type TestS3 } from '../../fixtures/s3.js';

/** The photo features end to end with the bucket as storage (S3_BUCKET set). */
let s3: TestS3;
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ s3: s3.settings });
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

describe('photos in an S3-compatible bucket', () => {
  it('stores uploads, saves, variants and avatars in the bucket and serves them through the console', async () => {
    expect(t.ctx.storage).toBeInstanceOf(S3Storage);
    const original = await jpegWithGps(640, 480);
    const up = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, 'dahon.jpg', original, 'image/jpeg');
    expect(up.statusCode, up.body).toBe(201);
    const second = await uploadPhoto(t.app, cookie, CATALOG_KINDS.pest, 'second.png', await tinyPng(32));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody('Rice bug', [up.json().id, second.json().id]),
    });
    expect(created.statusCode, created.body).toBe(201);
    await photoRuntime(t.ctx).queue.idle();

    const rows = await t.ctx.db
      .selectFrom('catalog_images')
      .selectAll()
      .where('entryId', '=', created.json().id)
      .orderBy('position')
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['ready', 'ready']);
    const bucket = t.ctx.storage as S3Storage;
    const keys: string[] = [];
    for await (const item of bucket.list('rice_pests/')) keys.push(item.key);
    expect(keys).toEqual(expect.arrayContaining([rows[0]!.originalKey!, rows[0]!.displayKey!, rows[0]!.thumbKey!]));
    expect(keys.some((k) => k.includes('_staged/'))).toBe(false);

    // The original, without its location metadata, to signed-in staff only.
    const url = `/api/files/${rows[0]!.originalKey!.split('/').map(encodeURIComponent).join('/')}`;
    const served = await t.app.inject({ url, headers: { cookie } });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(cleanPhoto(original, 'image/jpeg').body)).toBe(true);
    expect(await exifTagsOf(served.rawPayload)).toMatchObject({ gps: [] });
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    // The farmer app's thumbnail.
    const thumb = await t.app.inject({ url: `/api/public/v1/images/${rows[0]!.id}/thumbnail` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');

    // A profile picture, re-encoded by the server, lands in the bucket too.
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/api/profile/avatar',
      headers: { cookie, 'content-type': 'image/png' },
      payload: await tinyPng(64),
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    expect(avatar.json().avatarKey).toMatch(/^avatars\//);
    expect(await bucket.stat(avatar.json().avatarKey)).toMatchObject({ size: expect.any(Number) });
  });

  it('streams the training set from the bucket, an older photo cleaned of its location on the way', async () => {
    const disease = await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({ id: 's3-d1', name: 'Rice blast', scientificName: 'Magnaporthe oryzae', isDeleted: 0, createdAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const photo = await jpegWithGps(80, 60);
    const key = 'rice_disease/Rice blast/1_s3_leaf.jpg';
    await t.ctx.storage.put(key, photo);
    await t.ctx.db
      .insertInto('catalog_images')
      .values({
        id: 's3-p1',
        collection: 'rice_local_diseases',
        entryId: disease.id,
        position: 0,
        status: 'ready',
        originalKey: key,
        displayKey: null,
        thumbKey: null,
        externalUrl: null,
        mimeType: 'image/jpeg',
        sizeBytes: photo.length,
        width: null,
        height: null,
        originalName: 'leaf.jpg',
        sha256: null,
        uploadedBy: null,
        createdAt: new Date().toISOString(),
        linkedAt: new Date().toISOString(),
      })
      .execute();
    const res = await t.app.inject({ url: `/api/training-sets/diseases?diseaseId=${disease.id}`, headers: { cookie } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.rawPayload.indexOf(cleanPhoto(photo, 'image/jpeg').body)).toBeGreaterThan(0);
    expect(res.rawPayload.includes(Buffer.from(PHONE_EXIF.IFD0.Artist))).toBe(false);
  });
});
