import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { exifTagsOf, jpegWithGps, multipart } from '../../fixtures/catalog.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';

const kind = CATALOG_KINDS.disease;
const ORIENTATION = 0x0112;
const MAKE = 0x010f;
const DATE_TIME_ORIGINAL = 0x9003;

let t: TestApp;
let admin: string;
let superAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  superAdmin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

async function stage(app: TestApp, cookie: string, name: string, photo: Buffer, query = '') {
  const body = multipart(name, photo, 'image/jpeg');
  const res = await app.app.inject({
    method: 'POST',
    url: `/api/${kind.route}/images${query}`,
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
  if (res.statusCode !== 201) return { status: res.statusCode, body: res.json(), stored: null };
  const staged = res.json();
  const row = await app.ctx.db.selectFrom('catalog_images').selectAll().where('id', '=', staged.id).executeTakeFirstOrThrow();
  const stored = Buffer.concat(await (await app.ctx.storage.get(row.originalKey!)).toArray());
  return { status: res.statusCode, body: staged, row, stored };
}

describe('PHOTO_MAX_EDGE on the server', () => {
  it('tells the browser the edge, and who may keep originals', async () => {
    const as = async (cookie: string) => (await t.app.inject({ url: '/api/photo-settings', headers: { cookie } })).json();
    expect(await as(admin)).toEqual({ maxEdge: 1600, quality: 0.9, canKeepOriginals: false });
    expect((await as(superAdmin)).canKeepOriginals).toBe(true);
    expect((await t.app.inject({ url: '/api/photo-settings' })).statusCode).toBe(401);
  });

  it('stores a larger phone photo upright at 1600 px, as JPEG, with its camera and capture time and no location', async () => {
    // 2400×1800 pixels stored sideways with Orientation 6 (as phones write them): upright it is 1800×2400.
    const sideways = await sharp(await jpegWithGps(2400, 1800))
      .keepExif()
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const { stored, row, body } = await stage(t, admin, 'IMG_2001.jpg', sideways);
    expect(body).toMatchObject({ width: 1200, height: 1600, mimeType: 'image/jpeg' });
    const meta = await sharp(stored!).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 1600]);
    expect(row).toMatchObject({ width: 1200, height: 1600, cameraMake: 'PalaYan Test Camera', takenAt: '2026-07-01T08:30:12+08:00' });
    const tags = await exifTagsOf(stored!);
    expect(tags!.gps).toEqual([]);
    expect(tags!.ifd0).toContain(MAKE);
    expect(tags!.ifd0).not.toContain(ORIENTATION);
    expect(tags!.exif).toContain(DATE_TIME_ORIGINAL);
    expect(row!.sizeBytes).toBe(stored!.length);
  });

  it('leaves a photo within the edge at its size, and a PNG larger than it becomes a JPEG', async () => {
    const small = await stage(t, admin, 'small.jpg', await jpegWithGps(1600, 900));
    expect(small.body).toMatchObject({ width: 1600, height: 900 });
    expect((await exifTagsOf(small.stored!))!.ifd0).toContain(ORIENTATION);
    const png = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: { r: 10, g: 120, b: 30 } } })
      .png()
      .toBuffer();
    const wide = await stage(t, admin, 'scan.png', png);
    expect(wide.body).toMatchObject({ width: 1600, height: 533, mimeType: 'image/jpeg' });
    expect(wide.row!.originalKey).toMatch(/\.jpg$/);
  });

  it('keeps the original size only for a super admin who asks', async () => {
    const refused = await stage(t, admin, 'big.jpg', await jpegWithGps(2400, 1800), '?keepOriginal=true');
    expect(refused.status).toBe(403);
    const kept = await stage(t, superAdmin, 'big.jpg', await jpegWithGps(2400, 1800), '?keepOriginal=true');
    expect(kept.body).toMatchObject({ width: 2400, height: 1800 });
    expect((await exifTagsOf(kept.stored!))!.gps).toEqual([]);
    expect((await stage(t, admin, 'x.jpg', await jpegWithGps(64, 48), '?keepOriginal=maybe')).status).toBe(400);
  });

  it('keeps every photo as sent with PHOTO_MAX_EDGE=0', async () => {
    const unlimited = await createTestApp({ photoMaxEdge: 0 });
    try {
      const cookie = await loginAs(unlimited.app, await makeAccount(unlimited.ctx, { role: 'ADMIN' }));
      const { body } = await stage(unlimited, cookie, 'big.jpg', await jpegWithGps(2400, 1800));
      expect(body).toMatchObject({ width: 2400, height: 1800 });
    } finally {
      await unlimited.close();
    }
  });
});
