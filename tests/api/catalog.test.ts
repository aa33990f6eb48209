import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { UPLOAD_TEXTS } from '../../common/catalog-texts.js';
import type { CatalogEntryDetail, CatalogList, StagedImage } from '../../common/schemas/catalog.js';
import type { LiveEvent } from '../../server/platform/writes/events.js';
import { photoRuntime } from '../../server/modules/content/photos/variants.js';
import { createCatalogService } from '../../server/modules/content/catalog/service.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { cleanPhoto } from '../../server/modules/content/photos/pixels/photo-privacy.js';
import { entryBody, exifTagsOf, jpegWithGps, stagePhotos, tinyPng, uploadPhoto } from '../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';

const pest = CATALOG_KINDS.pest;
const disease = CATALOG_KINDS.disease;

let t: TestApp;
let user: TestAccount;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await makeAccount(t.ctx, { fullname: 'Maria Santos' });
  cookie = await loginAs(t.app, user);
});
afterAll(async () => {
  await t.close();
});

function filesRoot(): string {
  return path.join(t.ctx.config.dataDir, 'files');
}

async function stageViaHttp(count: number, kind = pest, who = cookie): Promise<StagedImage[]> {
  const out: StagedImage[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await uploadPhoto(t.app, who, kind, `photo_${i}.png`, await tinyPng(16));
    expect(res.statusCode, res.body).toBe(201);
    out.push(res.json());
  }
  return out;
}

async function createPest(name: string, imageCount = 2): Promise<CatalogEntryDetail> {
  const staged = await stageViaHttp(imageCount);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/rice_pests',
    headers: { cookie },
    payload: entryBody(
      name,
      staged.map((s) => s.id),
    ),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function auditOf(documentId: string) {
  return t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', documentId).orderBy('seq').execute();
}

describe('catalog: pests and diseases', () => {
  it('needs a session for every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/rice_pests'],
      ['GET', '/api/rice_diseases/x'],
      ['POST', '/api/rice_pests/images'],
      ['DELETE', '/api/rice_pests/x'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/rice_diseases',
      payload: entryBody(
        'Tungro',
        Array.from({ length: 800 }, (_, i) => `id${i}`),
      ),
    });
    expect(create.statusCode).toBe(401);
    const upload = await uploadPhoto(t.app, '', pest, 'a.png', await tinyPng());
    expect(upload.statusCode).toBe(401);
  });

  it('creates a pest from three uploaded photos: originals without location metadata, SPEC storage layout, first image is main', async () => {
    // Stored as uploaded, except the phone photo's location and identifying metadata.
    const photos = [await tinyPng(20), cleanPhoto(await jpegWithGps(), 'image/jpeg').body, await tinyPng(24)];
    const uploads = [photos[0]!, await jpegWithGps(), photos[2]!];
    const names = ['first.png', 'field shot.jpg', 'third.png'];
    const staged: StagedImage[] = [];
    for (const [i, photo] of photos.entries()) {
      const res = await uploadPhoto(t.app, cookie, pest, names[i]!, uploads[i]!, i === 1 ? 'image/jpeg' : 'image/png');
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json<StagedImage>();
      expect(body.sha256).toBe(crypto.createHash('sha256').update(photo).digest('hex'));
      expect(body.sizeBytes).toBe(photo.length);
      staged.push(body);
    }
    expect(staged[1]!.mimeType).toBe('image/jpeg');
    expect([staged[0]!.width, staged[0]!.height]).toEqual([20, 20]);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody(
        '  Rice bug  ',
        staged.map((s) => s.id),
        { scientificName: '  Leptocorisa oratorius ', cause: '' },
      ),
    });
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json<CatalogEntryDetail>();
    expect(entry.name).toBe('Rice bug');
    expect(entry.scientificName).toBe('Leptocorisa oratorius');
    expect(entry.cause).toBe('');
    expect(entry.images.map((i) => i.id)).toEqual(staged.map((s) => s.id));
    expect(entry.mainImageUrl).toBe(entry.images[0]!.url);
    expect(entry.version).toBe(1);

    for (const [i, image] of entry.images.entries()) {
      const key = decodeURIComponent(image.url!.replace('/api/files/', ''));
      expect(key).toMatch(new RegExp(`^rice_pests/Rice bug/\\d{13}_${i}_`));
      const served = await t.app.inject({ url: image.url!, headers: { cookie } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toContain('immutable');
      expect(served.rawPayload.equals(photos[i]!)).toBe(true);
    }
    expect(path.basename(decodeURIComponent(entry.images[1]!.url!))).toMatch(/_1_field shot\.jpg$/);

    // Thumbnails arrive from the background queue; the original keeps its camera but no position, the variants no EXIF.
    await photoRuntime(t.ctx).queue.idle();
    const after = (await t.app.inject({ url: `/api/rice_pests/${entry.id}`, headers: { cookie } })).json<CatalogEntryDetail>();
    expect(after.images.every((i) => i.status === 'ready' && i.thumbUrl && i.displayUrl)).toBe(true);
    const original = await exifTagsOf((await t.app.inject({ url: after.images[1]!.url!, headers: { cookie } })).rawPayload);
    expect(original).toMatchObject({ ifd0: expect.arrayContaining([0x010f]), gps: [] });
    for (const url of [after.images[1]!.thumbUrl!, after.images[1]!.displayUrl!]) {
      const variant = await t.app.inject({ url, headers: { cookie } });
      expect(variant.statusCode).toBe(200);
      const meta = await sharp(variant.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.format).toBe('jpeg');
    }
    const list = (await t.app.inject({ url: '/api/rice_pests', headers: { cookie } })).json<CatalogList>();
    const card = list.items.find((i) => i.id === entry.id)!;
    expect(card.imageCount).toBe(3);
    expect(card.mainThumbUrl).toBe(after.images[0]!.thumbUrl);
    expect(card.mainImageStatus).toBe('ready');

    const audit = await auditOf(entry.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'CREATE',
      collection: 'rice_local_pests',
      documentName: 'Rice bug',
      userId: user.id,
      userName: 'Maria Santos',
    });
    expect(JSON.parse(audit[0]!.changes!).after).toMatchObject({ name: 'Rice bug', imageCount: 3 });
  });

  it('enforces the pest form rules with the SPEC texts', async () => {
    const noName = await t.app.inject({ method: 'POST', url: '/api/rice_pests', headers: { cookie }, payload: entryBody('   ', ['x']) });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.fields.name).toBe(pest.texts.nameRequired);

    const none = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody('Golden apple snail', []),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields.imageIds).toBe('Please upload at least 1 image for new pests.');

    const ids = await stagePhotos(t.ctx, 'pest', user, 11);
    const eleven = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody('Golden apple snail', ids),
    });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error.fields.imageIds).toBe('You can upload a maximum of 10 images.');

    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody('Golden apple snail', [ids[0], ids[0]]),
    });
    expect(dup.statusCode).toBe(400);

    const ten = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody('Golden apple snail', ids.slice(0, 10)),
    });
    expect(ten.statusCode, ten.body).toBe(201);
    expect(ten.json().images).toHaveLength(10);
  });

  it('refuses non-images and disguised files by their bytes, and stores nothing for them', async () => {
    const before = await t.ctx.db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: Array<[string, Buffer, string, number, string]> = [
      ['notes.jpg', Buffer.from('just some text, not a photo at all'.repeat(10)), 'image/jpeg', 415, UPLOAD_TEXTS.notImage],
      ['page.png', Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'image/png', 415, UPLOAD_TEXTS.notImage],
      [
        'logo.svg',
        Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'image/svg+xml',
        415,
        UPLOAD_TEXTS.svgRefused,
      ],
      [
        'icon.png',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'),
        'image/png',
        415,
        UPLOAD_TEXTS.svgRefused,
      ],
      [
        'IMG_0001.HEIC',
        Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(600)]),
        'image/heic',
        415,
        UPLOAD_TEXTS.heicNotConverted,
      ],
      [
        'broken.png',
        Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), crypto.randomBytes(2000)]),
        'image/png',
        415,
        UPLOAD_TEXTS.unreadable,
      ],
      ['program.gif', Buffer.concat([Buffer.from('MZ'), crypto.randomBytes(1000)]), 'image/gif', 415, UPLOAD_TEXTS.notImage],
      ['empty.jpg', Buffer.alloc(0), 'image/jpeg', 415, UPLOAD_TEXTS.notImage],
    ];
    for (const [name, bytes, type, status, message] of cases) {
      const res = await uploadPhoto(t.app, cookie, pest, name, bytes, type);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().error.message, name).toBe(message);
    }
    const after = await t.ctx.db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const stagedDir = path.join(filesRoot(), 'rice_pests', '_staged');
    const leftovers = fs.existsSync(stagedDir)
      ? fs.readdirSync(stagedDir, { recursive: true }).filter((f) => /notes|page|logo|icon|IMG_0001|broken|program|empty/.test(String(f)))
      : [];
    expect(leftovers).toEqual([]);

    // A real PNG named .jpg is accepted, and stored with the extension of what it really is.
    const png = await tinyPng(10);
    const res = await uploadPhoto(t.app, cookie, pest, 'holiday.jpg', png, 'image/jpeg');
    expect(res.statusCode).toBe(201);
    expect(res.json().mimeType).toBe('image/png');
    const row = await t.ctx.db.selectFrom('catalog_images').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(row.originalKey).toMatch(/\/holiday\.png$/);

    // Not multipart at all.
    const json = await t.app.inject({ method: 'POST', url: '/api/rice_pests/images', headers: { cookie }, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
  });

  it('refuses a file over the size cap with 413', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(25 * 1024 * 1024 + 10)]);
    const res = await uploadPhoto(t.app, cookie, pest, 'huge.jpg', big, 'image/jpeg');
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(UPLOAD_TEXTS.tooLarge);
    const stagedDir = path.join(filesRoot(), 'rice_pests', '_staged');
    const leftovers = fs.existsSync(stagedDir)
      ? fs.readdirSync(stagedDir, { recursive: true }).filter((f) => String(f).includes('huge'))
      : [];
    expect(leftovers).toEqual([]);
  });

  it('keeps path-like file names and entry names inside the storage folder', async () => {
    const root = filesRoot();
    const names = ['../../../../tmp/evil.png', '..\\..\\windows\\evil.png', '/etc/passwd.png', '..', 'a/../../b.png', '.hidden.png'];
    const ids: string[] = [];
    for (const name of names) {
      const res = await uploadPhoto(t.app, cookie, pest, name, await tinyPng(6));
      expect(res.statusCode, name).toBe(201);
      ids.push(res.json().id);
    }
    // And straight through the service, where no multipart parser strips anything.
    const service = createCatalogService(t.ctx, pest);
    for (const name of ['../../../../../escape.png', '..', '../']) {
      const png = await tinyPng(6);
      ids.push(
        (
          await service.stage(
            (async function* () {
              yield png;
            })(),
            { filename: name, uploadedBy: user.id },
          )
        ).id,
      );
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests',
      headers: { cookie },
      payload: entryBody('../../../outside', ids.slice(0, 10)),
    });
    expect(res.statusCode, res.body).toBe(201);
    const rows = await t.ctx.db.selectFrom('catalog_images').selectAll().where('id', 'in', ids).execute();
    for (const row of rows) {
      const full = path.resolve(root, row.originalKey!);
      expect(full.startsWith(path.join(root, 'rice_pests') + path.sep)).toBe(true);
      expect(fs.existsSync(full)).toBe(true);
      expect(row.originalKey!.split('/').every((seg) => seg !== '..' && seg !== '.' && seg !== '')).toBe(true);
    }
    expect(fs.existsSync(path.resolve(root, '..', 'escape.png'))).toBe(false);
    expect(fs.existsSync('/tmp/evil.png')).toBe(false);
  });

  it('edits: keeps existing photos, adds, removes and reorders; the first image is main', async () => {
    const entry = await createPest('Brown planthopper', 3);
    const [a, b, c] = entry.images.map((i) => i.id) as [string, string, string];

    // Text-only edit: the photos stay.
    const edit1 = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Brown planthopper', [a, b, c]), description: 'Updated text', version: 1 },
    });
    expect(edit1.statusCode, edit1.body).toBe(200);
    expect(edit1.json().images.map((i: { id: string }) => i.id)).toEqual([a, b, c]);
    expect(edit1.json().version).toBe(2);

    // Remove b, add a new one first.
    const [fresh] = await stageViaHttp(1);
    const edit2 = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Brown planthopper', [fresh!.id, a, c]), version: 2 },
    });
    expect(edit2.statusCode, edit2.body).toBe(200);
    const body = edit2.json<CatalogEntryDetail>();
    expect(body.images.map((i) => i.id)).toEqual([fresh!.id, a, c]);
    expect(body.images.map((i) => i.position)).toEqual([0, 1, 2]);
    expect(body.mainImageUrl).toBe(body.images[0]!.url);
    // The removed photo leaves the entry; its file stays for the version that holds it.
    const removed = await t.ctx.db.selectFrom('catalog_images').selectAll().where('id', '=', b).executeTakeFirst();
    expect(removed).toMatchObject({ entryId: null, retiredFrom: entry.id });
    const bKey = decodeURIComponent(entry.images[1]!.url!.replace('/api/files/', ''));
    expect(fs.existsSync(path.join(filesRoot(), bKey))).toBe(true);

    // Removing every photo is refused; so is an old version (with the current record).
    const empty = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Brown planthopper', []), version: 3 },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.imageIds).toBe(UPLOAD_TEXTS.keepOneImage);
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Lost update', [a]), version: 2 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('VERSION_CONFLICT');
    expect(stale.json().error.current.version).toBe(3);
    expect(stale.json().error.current.name).toBe('Brown planthopper');
    const still = (await t.app.inject({ url: `/api/rice_pests/${entry.id}`, headers: { cookie } })).json<CatalogEntryDetail>();
    expect(still.images).toHaveLength(3);

    const audit = await auditOf(entry.id);
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    expect(JSON.parse(audit[2]!.details!)).toEqual({ imagesAdded: 1, imagesRemoved: 1 });
  });

  it("never links another user's staged photo, or one staged for the other collection", async () => {
    const other = await makeAccount(t.ctx);
    const otherCookie = await loginAs(t.app, other);
    const [theirs] = await stageViaHttp(1, pest, otherCookie);
    const [forDisease] = await stageViaHttp(1, disease);
    for (const id of [theirs!.id, forDisease!.id, 'no-such-image']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/rice_pests',
        headers: { cookie },
        payload: entryBody('Whorl maggot', [id]),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.imageIds).toBe(UPLOAD_TEXTS.stagedMissing);
    }
    const created = await t.ctx.db.selectFrom('rice_local_pests').selectAll().where('name', '=', 'Whorl maggot').execute();
    expect(created).toEqual([]);
    const stillStaged = await t.ctx.db
      .selectFrom('catalog_images')
      .select(['entryId', 'originalKey'])
      .where('id', '=', theirs!.id)
      .executeTakeFirstOrThrow();
    expect(stillStaged.entryId).toBeNull();
    expect(stillStaged.originalKey).toContain('/_staged/');
    expect(fs.existsSync(path.join(filesRoot(), stillStaged.originalKey!))).toBe(true);
  });

  it('soft-deletes: hidden from list, detail and search, kept in the table, audited once', async () => {
    const entry = await createPest('Rice black bug', 1);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/rice_pests/${entry.id}`, headers: { cookie } });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/rice_pests/${entry.id}`, headers: { cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/rice_pests/${entry.id}`, headers: { cookie } })).statusCode).toBe(404);
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Rice black bug', [entry.images[0]!.id]), version: 1 },
    });
    expect(update.statusCode).toBe(404);
    const list = (await t.app.inject({ url: '/api/rice_pests?search=black', headers: { cookie } })).json<CatalogList>();
    expect(list.items.find((i) => i.id === entry.id)).toBeUndefined();
    const row = await t.ctx.db.selectFrom('rice_local_pests').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ isDeleted: 1, deletedBy: user.id });
    expect(row.deletedAt).toBeTruthy();
    const audit = await auditOf(entry.id);
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'DELETE']);
    expect(audit[1]).toMatchObject({ collection: 'rice_local_pests', documentName: 'Rice black bug' });
    // Photos are kept (training data), still linked to the deleted entry.
    expect(await t.ctx.db.selectFrom('catalog_images').select('id').where('entryId', '=', entry.id).execute()).toHaveLength(1);
  });

  it('searches on the server, case-insensitively, by name and scientific name, in pages', async () => {
    await createPest('Yellow stem borer', 1);
    const byName = (await t.app.inject({ url: '/api/rice_pests?search=STEM%20bor', headers: { cookie } })).json<CatalogList>();
    expect(byName.items.map((i) => i.name)).toEqual(['Yellow stem borer']);
    const bySci = (await t.app.inject({ url: '/api/rice_pests?search=leptocorisa', headers: { cookie } })).json<CatalogList>();
    expect(bySci.items.map((i) => i.name)).toContain('Rice bug');
    const wildcard = (await t.app.inject({ url: '/api/rice_pests?search=%25', headers: { cookie } })).json<CatalogList>();
    expect(wildcard.items).toEqual([]);
    const page = (await t.app.inject({ url: '/api/rice_pests?limit=2&offset=1', headers: { cookie } })).json<CatalogList>();
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(4);
    expect((await t.app.inject({ url: '/api/rice_pests?limit=5000', headers: { cookie } })).statusCode).toBe(400);
  });

  it('publishes live events on create, update, delete and when thumbnails are ready', async () => {
    const events: LiveEvent[] = [];
    const unsubscribe = t.ctx.events.subscribe((e) => events.push(e));
    try {
      // Photos still waiting for their variants when the entry is saved (staged through a
      // stopped queue: otherwise whether they finish before the save is a race).
      const quiet = { ...t.ctx };
      await photoRuntime(quiet).stop();
      const ids = await stagePhotos(quiet, 'pest', user, 2);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/rice_pests',
        headers: { cookie },
        payload: entryBody('Rice leaffolder', ids),
      });
      expect(res.statusCode, res.body).toBe(201);
      const entry = res.json<CatalogEntryDetail>();
      expect(entry.images.map((i) => i.status)).toEqual(['pending', 'pending']);
      // A sweep queues nothing while the queue is still busy with earlier tests' photos: let it drain first.
      await photoRuntime(t.ctx).queue.idle();
      await photoRuntime(t.ctx).sweep();
      await photoRuntime(t.ctx).queue.idle();
      photoRuntime(t.ctx).flushEvents();
      await t.app.inject({ method: 'DELETE', url: `/api/rice_pests/${entry.id}`, headers: { cookie } });
      // PostgreSQL delivers through LISTEN/NOTIFY, after the request has answered.
      const mine = () => events.filter((e) => e.id === entry.id);
      await expect.poll(() => mine().map((e) => e.op)).toEqual(expect.arrayContaining(['create', 'images', 'delete']));
      expect(mine().every((e) => e.topic === 'rice_local_pests')).toBe(true);
    } finally {
      unsubscribe();
    }
  });

  it('discards own staged photos on request and cleans up the ones never saved after a day', async () => {
    const staged = await stageViaHttp(3);
    const discard = await t.app.inject({
      method: 'POST',
      url: '/api/rice_pests/images/discard',
      headers: { cookie },
      payload: { ids: [staged[0]!.id] },
    });
    expect(discard.json()).toEqual({ removed: 1 });
    await photoRuntime(t.ctx).queue.idle();
    const linked = await createPest('Rice field rat', 1);

    const runtime = photoRuntime(t.ctx);
    // Nothing is a day old yet.
    expect(await runtime.cleanupStaged()).toBe(0);
    const rows = await t.ctx.db.selectFrom('catalog_images').selectAll().where('id', 'in', [staged[1]!.id, staged[2]!.id]).execute();
    expect(rows).toHaveLength(2);
    const removed = await runtime.cleanupStaged(24 * 3600_000, Date.now() + 25 * 3600_000);
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(
      await t.ctx.db.selectFrom('catalog_images').select('id').where('entryId', 'is', null).where('retiredFrom', 'is', null).execute(),
    ).toEqual([]);
    // Their thumbnails were made (the queue is idle), and go with them.
    for (const row of rows) {
      expect(row.thumbKey, row.id).not.toBeNull();
      expect(fs.existsSync(path.join(filesRoot(), row.originalKey!))).toBe(false);
      expect(fs.existsSync(path.join(filesRoot(), row.thumbKey!))).toBe(false);
    }
    // Saved photos are untouched.
    const kept = (await t.app.inject({ url: `/api/rice_pests/${linked.id}`, headers: { cookie } })).json<CatalogEntryDetail>();
    expect((await t.app.inject({ url: kept.images[0]!.url!, headers: { cookie } })).statusCode).toBe(200);
  });
});

describe('catalog: a second entry of a name is saved only when the user confirms it', () => {
  it('refuses a pest named as a live one (trimmed, any case) with the other named, saves it when confirmed, and asks again on an edit while the other has it', async () => {
    const name = `Rice Bug ${crypto.randomUUID().slice(0, 6)}`;
    const first = await createPest(name);
    const post = async (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/rice_pests', headers: { cookie }, payload: body });
    const staged = await stageViaHttp(2);
    const again = await post(
      entryBody(
        ` ${name.toLowerCase()} `,
        staged.map((s) => s.id),
      ),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      fields: { name: `A pest with this name exists: ${name}.` },
      reason: 'duplicate_name',
      otherId: first.id,
    });
    const taken = await t.app.inject({
      method: 'GET',
      url: `/api/rice_pests/name-taken?name=${encodeURIComponent(name.toUpperCase())}`,
      headers: { cookie },
    });
    expect(taken.json()).toEqual({ taken: { id: first.id, name } });
    // The same name among diseases is another kind's: not a duplicate.
    const inDiseases = await t.app.inject({
      method: 'GET',
      url: `/api/rice_diseases/name-taken?name=${encodeURIComponent(name)}`,
      headers: { cookie },
    });
    expect(inDiseases.json()).toEqual({ taken: null });
    const confirmed = await post({
      ...entryBody(
        name,
        staged.map((s) => s.id),
      ),
      allowDuplicateName: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${first.id}`,
      headers: { cookie },
      payload: {
        ...entryBody(
          name,
          first.images.map((i) => i.id),
        ),
        version: first.version,
      },
    });
    expect(kept.statusCode, kept.body).toBe(409); // the confirmed second one now has the name too
    expect(kept.json().error.otherId).toBe(confirmed.json().id);
  });

  it('saves one of four parallel adds of one new name and refuses the others', async () => {
    const name = `Stem Borer ${crypto.randomUUID().slice(0, 6)}`;
    const sets = [];
    for (let i = 0; i < 4; i += 1) sets.push(await stageViaHttp(2));
    const saves = await Promise.all(
      sets.map((staged) =>
        t.app.inject({
          method: 'POST',
          url: '/api/rice_pests',
          headers: { cookie },
          payload: entryBody(
            name,
            staged.map((s) => s.id),
          ),
        }),
      ),
    );
    expect(saves.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });
});

describe('catalog: the list sorted', () => {
  it('sorts by name, photo count, last updated or when added, each way, and refuses an order it does not know', async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const b = await createPest(`Sorted ${tag} b`, 3);
    const a = await createPest(`sorted ${tag} A`, 1);
    const c = await createPest(`Sorted ${tag} C`, 2);
    const list = async (query: string) => {
      const res = await t.app.inject({
        url: `/api/rice_pests?search=${encodeURIComponent(`sorted ${tag}`)}&${query}`,
        headers: { cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: Array<{ id: string }> }>().items.map((i) => i.id);
    };
    expect(await list('sort=name')).toEqual([a.id, b.id, c.id]);
    expect(await list('sort=name&dir=desc')).toEqual([c.id, b.id, a.id]);
    expect(await list('sort=photos')).toEqual([b.id, c.id, a.id]);
    expect(await list('sort=photos&dir=asc')).toEqual([a.id, c.id, b.id]);
    expect(await list('')).toEqual([c.id, a.id, b.id]);
    expect(await list('sort=added&dir=asc')).toEqual([b.id, a.id, c.id]);
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_pests/${b.id}`,
      headers: { cookie },
      payload: {
        ...entryBody(
          b.name,
          b.images.map((i) => i.id),
        ),
        description: 'Edited last',
        version: b.version,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await list('sort=updated'))[0]).toBe(b.id);
    for (const bad of ['sort=colour', 'dir=up']) {
      const refused = await t.app.inject({ url: `/api/rice_pests?${bad}`, headers: { cookie } });
      expect(refused.statusCode, bad).toBe(400);
    }
  });
});
