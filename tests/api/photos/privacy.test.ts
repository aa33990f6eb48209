import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { photoRuntime } from '../../../server/modules/content/photos/variants.js';
import { cleanStoredLocations } from '../../../server/modules/content/photos/backfill/locations.js';
import * as gifPrivacy from '../../../server/db/migrations/195_gif_privacy.js';
import { readStored } from '../../../server/platform/storage/stored-files.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { exifTagsOf, jpegWithGps, PHONE_EXIF, uploadPhoto } from '../../fixtures/catalog.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

const ARTIST = Buffer.from(PHONE_EXIF.IFD0.Artist);
const SERIAL = Buffer.from(PHONE_EXIF.IFD2.BodySerialNumber);
const picture = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 140, b: 30 } } });

/** A PNG with the phone's EXIF (eXIf) and an XMP packet naming a place (iTXt), as some editors save. */
async function pngWithGps(): Promise<Buffer> {
  const png = await picture().withExif(PHONE_EXIF).png().toBuffer();
  const data = Buffer.concat([
    Buffer.from('XML:com.adobe.xmp\0\0\0\0\0'),
    Buffer.from('<x:xmpmeta><exif:GPSLatitude>15,28.53N</exif:GPSLatitude></x:xmpmeta>'),
  ]);
  const chunk = Buffer.alloc(8 + data.length + 4);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('iTXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(data, zlib.crc32('iTXt')) >>> 0, 8 + data.length);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

/** An extension block: introducer, label, then the data as sub-blocks of at most 255 bytes. */
function gifExtension(label: number, first: Buffer | null, data: Buffer): Buffer {
  const blocks: Buffer[] = [Buffer.from([0x21, label])];
  if (first) blocks.push(Buffer.from([first.length]), first);
  for (let at = 0; at < data.length; at += 255) {
    const part = data.subarray(at, at + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat([...blocks, Buffer.from([0])]);
}

const GIF_XMP_GPS = '<x:xmpmeta><exif:GPSLatitude>15,28.53N</exif:GPSLatitude></x:xmpmeta>';
const GIF_COMMENT = 'Taken at the farm of Juan dela Cruz';

/** Three frames that loop, as sharp writes them (with the NETSCAPE2.0 looping extension). */
async function animatedGif(): Promise<Buffer> {
  const [width, height, frames] = [20, 15, 3];
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let i = 0; i < width * height * frames; i += 1) raw.set([Math.floor(i / (width * height)) * 100, (i % width) * 12, 60], i * 3);
  return sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
    .gif({ loop: 0, delay: [100, 120, 140] })
    .toBuffer();
}

/**
 * That GIF with an XMP packet naming a place (as Photoshop writes it: "XMP DataXMP", the packet,
 * then the 258-byte magic trailer that ends the sub-blocks), a comment, a plain text extension,
 * and a phone's JPEG after the trailer.
 */
async function gifWithGps(): Promise<Buffer> {
  const gif = await animatedGif();
  const afterColourTable = 13 + (gif[10]! & 0x80 ? 3 * (1 << ((gif[10]! & 7) + 1)) : 0);
  const magic = Buffer.from([1, ...Array.from({ length: 256 }, (_, i) => 255 - i)]);
  const xmp = Buffer.concat([Buffer.from([0x21, 0xff, 11]), Buffer.from('XMP DataXMP'), Buffer.from(GIF_XMP_GPS), magic, Buffer.from([0])]);
  const comment = gifExtension(0xfe, null, Buffer.from(GIF_COMMENT));
  const plainText = gifExtension(0x01, Buffer.from([0, 0, 0, 0, 20, 0, 15, 0, 8, 8, 1, 0]), Buffer.from(PHONE_EXIF.IFD0.Artist));
  const icc = gifExtension(0xff, Buffer.from('ICCRGBG1012'), Buffer.from(`profile by ${PHONE_EXIF.IFD2.BodySerialNumber}`));
  const lastFrame = gif.lastIndexOf(Buffer.from([0x21, 0xf9]));
  return Buffer.concat([
    gif.subarray(0, afterColourTable),
    xmp,
    comment,
    icc,
    gif.subarray(afterColourTable, lastFrame),
    plainText,
    comment,
    gif.subarray(lastFrame),
    await jpegWithGps(16, 12),
  ]);
}

async function expectCleanGif(stored: Buffer, original: Buffer, what: string): Promise<void> {
  await expectNoLocation(stored, what);
  for (const text of ['XMP DataXMP', 'ICCRGBG1', GIF_COMMENT, 'Exif'])
    expect(stored.includes(Buffer.from(text)), `${what}: ${text}`).toBe(false);
  expect(stored.includes(Buffer.from('NETSCAPE2.0')), what).toBe(true);
  expect(stored.at(-1), what).toBe(0x3b);
  const [before, after] = [await sharp(original, { animated: true }).metadata(), await sharp(stored, { animated: true }).metadata()];
  expect({ pages: after.pages, loop: after.loop, delay: after.delay, width: after.width, height: after.height }, what).toEqual({
    pages: 3,
    loop: 0,
    delay: [100, 120, 140],
    width: before.width,
    height: before.height,
  });
  const pixels = (photo: Buffer) => sharp(photo, { animated: true }).raw().toBuffer();
  expect((await pixels(stored)).equals(await pixels(original)), what).toBe(true);
}

async function storedRow(id: string) {
  return t.ctx.db.selectFrom('catalog_images').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function expectNoLocation(photo: Buffer, what: string): Promise<void> {
  const tags = await exifTagsOf(photo);
  expect(tags?.gps ?? [], what).toEqual([]);
  expect(tags?.ifd0 ?? [], what).not.toContain(0x8825);
  expect(tags?.ifd0 ?? [], what).not.toContain(0x013b); // Artist
  expect(photo.includes(ARTIST), what).toBe(false);
  expect(photo.includes(SERIAL), what).toBe(false);
  expect(photo.includes(Buffer.from('GPSLatitude')), what).toBe(false);
  const meta = await sharp(photo).metadata();
  expect(meta.xmp, what).toBeUndefined();
  expect(meta.iptc, what).toBeUndefined();
}

describe('no location in any stored photo', () => {
  it('stores uploaded JPEG, PNG and WebP photos without GPS or identifying EXIF, their pictures unchanged, camera and capture time kept', async () => {
    const phoneJpeg = await jpegWithGps(64, 48);
    // Phones append further pictures (depth maps, previews) after the main one, each with its own EXIF.
    const jpeg = Buffer.concat([phoneJpeg, await jpegWithGps(16, 12)]);
    const uploads: Array<[string, Buffer, string]> = [
      ['farm.jpg', jpeg, 'image/jpeg'],
      ['farm.png', await pngWithGps(), 'image/png'],
      ['farm.webp', await picture().withExif(PHONE_EXIF).webp({ lossless: true }).toBuffer(), 'image/webp'],
    ];
    for (const [name, body, type] of uploads) {
      expect((await exifTagsOf(body))?.gps.length, name).toBeGreaterThan(0);
      const res = await uploadPhoto(t.app, cookie, CATALOG_KINDS.disease, name, body, type);
      expect(res.statusCode, res.body).toBe(201);
      const row = await storedRow(res.json().id);
      const stored = await readStored(t.ctx.storage, row.originalKey!);
      await expectNoLocation(stored, name);
      expect(row).toMatchObject({
        locationCleaned: 1,
        cameraMake: 'PalaYan Test Camera',
        sizeBytes: stored.length,
        sha256: crypto.createHash('sha256').update(stored).digest('hex'),
      });
      expect(res.json().sha256).toBe(row.sha256);
      // The picture itself is not re-encoded: the same pixels (the appended one of the JPEG is gone).
      expect((await sharp(stored).raw().toBuffer()).equals(await sharp(body).raw().toBuffer()), name).toBe(true);
      expect((await exifTagsOf(stored))!.ifd0, name).toContain(0x010f);
    }
    const jpegRow = await t.ctx.db
      .selectFrom('catalog_images')
      .selectAll()
      .where('originalName', '=', 'farm.jpg')
      .executeTakeFirstOrThrow();
    expect(jpegRow).toMatchObject({ takenAt: '2026-07-01T08:30:12+08:00', cameraModel: 'Field Phone 7' });
    expect((await readStored(t.ctx.storage, jpegRow.originalKey!)).length).toBeLessThan(phoneJpeg.length);

    // The variants carry no EXIF at all.
    await photoRuntime(t.ctx).queue.idle();
    for (const row of await t.ctx.db.selectFrom('catalog_images').selectAll().where('originalName', 'like', 'farm.%').execute()) {
      for (const key of [row.displayKey, row.thumbKey]) {
        expect(key, row.originalName!).toBeTruthy();
        expect((await sharp(await readStored(t.ctx.storage, key!)).metadata()).exif, key!).toBeUndefined();
      }
    }
  });

  it('stores an uploaded GIF without its XMP, comments, other application extensions or what follows the trailer, its frames unchanged; so does the training ZIP', async () => {
    const gif = await gifWithGps();
    expect(gif.includes(Buffer.from('GPSLatitude'))).toBe(true);
    const res = await uploadPhoto(t.app, cookie, CATALOG_KINDS.disease, 'farm.gif', gif, 'image/gif');
    expect(res.statusCode, res.body).toBe(201);
    const row = await storedRow(res.json().id);
    const stored = await readStored(t.ctx.storage, row.originalKey!);
    await expectCleanGif(stored, gif, 'uploaded GIF');
    expect(row).toMatchObject({
      mimeType: 'image/gif',
      locationCleaned: 1,
      sizeBytes: stored.length,
      sha256: crypto.createHash('sha256').update(stored).digest('hex'),
    });

    // The uploaded GIF saved on a disease, and one stored before GIFs were cleaned (migration 195 marks it not cleaned).
    const diseaseId = `gif-${Date.now()}`;
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({ id: diseaseId, name: `GIF blight ${Date.now()}`, scientificName: null, isDeleted: 0, createdAt: new Date().toISOString() })
      .execute();
    await t.ctx.db
      .updateTable('catalog_images')
      .set({ entryId: diseaseId, linkedAt: new Date().toISOString() })
      .where('id', '=', row.id)
      .execute();
    const legacyKey = `rice_disease/${diseaseId}/legacy.gif`;
    await t.ctx.storage.put(legacyKey, gif);
    await t.ctx.db
      .insertInto('catalog_images')
      .values({
        id: `${diseaseId}-legacy`,
        collection: 'rice_local_diseases',
        entryId: diseaseId,
        position: 1,
        status: 'ready',
        originalKey: legacyKey,
        displayKey: null,
        thumbKey: null,
        externalUrl: null,
        mimeType: 'image/gif',
        sizeBytes: gif.length,
        width: 20,
        height: 15,
        originalName: 'legacy.gif',
        locationCleaned: 1,
        sha256: crypto.createHash('sha256').update(gif).digest('hex'),
        uploadedBy: null,
        createdAt: new Date().toISOString(),
        linkedAt: new Date().toISOString(),
      })
      .execute();
    await gifPrivacy.up(t.ctx.db);
    expect((await storedRow(`${diseaseId}-legacy`)).locationCleaned).toBe(0);
    expect((await storedRow(row.id)).locationCleaned).toBe(0);

    const zip = await t.app.inject({ url: `/api/training-sets/diseases?diseaseId=${diseaseId}&layout=flat`, headers: { cookie } });
    expect(zip.statusCode).toBe(200);
    for (const text of ['GPSLatitude', 'XMP DataXMP', GIF_COMMENT, PHONE_EXIF.IFD0.Artist, PHONE_EXIF.IFD2.BodySerialNumber]) {
      expect(zip.rawPayload.includes(Buffer.from(text)), text).toBe(false);
    }
    expect(zip.rawPayload.includes(stored)).toBe(true);
    const metadata = zip.rawPayload.toString('latin1');
    expect(metadata).toContain(`,${diseaseId}-legacy,`);

    // migrate-photos --strip-location cleans the one stored before; the clean upload is left as it is.
    expect(await cleanStoredLocations(t.ctx)).toMatchObject({ total: 2, changed: 1, unreadable: 0 });
    await expectCleanGif(await readStored(t.ctx.storage, (await storedRow(`${diseaseId}-legacy`)).originalKey!), gif, 'legacy GIF');
    expect(await readStored(t.ctx.storage, row.originalKey!)).toEqual(stored);
  });

  it('cleans photos stored before (migrate-photos --strip-location), resumably; the training set never ships a location, even before', async () => {
    const diseaseId = `privacy-${Date.now()}`;
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({
        id: diseaseId,
        name: `Privacy blight ${Date.now()}`,
        scientificName: null,
        isDeleted: 0,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const legacy = await jpegWithGps(48, 36);
    const rows = [
      { id: `${diseaseId}-a`, body: legacy },
      { id: `${diseaseId}-b`, body: Buffer.from('not a photo at all, but stored as one long ago') },
    ];
    for (const [position, r] of rows.entries()) {
      const key = `rice_disease/${diseaseId}/${r.id}.jpg`;
      await t.ctx.storage.put(key, r.body);
      await t.ctx.db
        .insertInto('catalog_images')
        .values({
          id: r.id,
          collection: 'rice_local_diseases',
          entryId: diseaseId,
          position,
          status: 'ready',
          originalKey: key,
          displayKey: null,
          thumbKey: null,
          externalUrl: null,
          mimeType: 'image/jpeg',
          sizeBytes: r.body.length,
          width: 48,
          height: 36,
          originalName: `${r.id}.jpg`,
          sha256: crypto.createHash('sha256').update(r.body).digest('hex'),
          uploadedBy: null,
          createdAt: new Date().toISOString(),
          linkedAt: new Date().toISOString(),
        })
        .execute();
    }

    // Before the command: the ZIP cleans the old photo on the way out and leaves out what it cannot read.
    const zip = await t.app.inject({ url: `/api/training-sets/diseases?diseaseId=${diseaseId}&layout=flat`, headers: { cookie } });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.includes(ARTIST)).toBe(false);
    expect(zip.rawPayload.includes(SERIAL)).toBe(false);
    const metadata = zip.rawPayload.toString('latin1');
    expect(metadata).toContain(`,${rows[0]!.id},`);
    expect(metadata).not.toContain(`,${rows[1]!.id},`);
    expect(metadata).toContain(',2026-07-01T08:30:12+08:00,PalaYan Test Camera,Field Phone 7');

    const seen: number[] = [];
    const report = await cleanStoredLocations(t.ctx, (p) => seen.push(p.done));
    expect(report).toMatchObject({ total: 2, done: 2, changed: 1, unreadable: 1 });
    expect(seen.at(-1)).toBe(2);
    const cleaned = await storedRow(rows[0]!.id);
    const stored = await readStored(t.ctx.storage, cleaned.originalKey!);
    await expectNoLocation(stored, 'cleaned legacy photo');
    expect((await sharp(stored).raw().toBuffer()).equals(await sharp(legacy).raw().toBuffer())).toBe(true);
    expect(cleaned).toMatchObject({
      locationCleaned: 1,
      takenAt: '2026-07-01T08:30:12+08:00',
      cameraMake: 'PalaYan Test Camera',
      sizeBytes: stored.length,
      sha256: crypto.createHash('sha256').update(stored).digest('hex'),
    });
    // The unreadable one is left as it was and found again by the next run; the rest is done.
    expect((await storedRow(rows[1]!.id)).locationCleaned).toBe(0);
    expect(await cleanStoredLocations(t.ctx)).toMatchObject({ total: 1, changed: 0, unreadable: 1 });
    expect((await storedRow(rows[0]!.id)).sha256).toBe(cleaned.sha256);
  });
});
