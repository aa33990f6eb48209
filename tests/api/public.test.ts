import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { clockTicks } from '../fixtures/factories.js';

let t: TestApp;
const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

beforeAll(async () => {
  t = await createTestApp({ publicCorsOrigins: ['https://app.palayan.example'] });
});
afterAll(async () => {
  await t.close();
});

async function variety(id: string, name: string, recommended: boolean, extra: Record<string, unknown> = {}) {
  await t.ctx.db
    .insertInto('rice_seed_varieties')
    .values({
      id,
      varietyName: name,
      season: '["Dry","Wet"]',
      environment: '["Rainfed Lowland"]',
      recommendedInTarlac: recommended ? 1 : 0,
      isDeleted: 0,
      createdAt: iso(-60_000),
      ...extra,
    })
    .execute();
}

async function pestWithImages(id: string, name: string) {
  await t.ctx.db
    .insertInto('rice_local_pests')
    .values({ id, name, scientificName: 'Scotinophara coarctata', isDeleted: 0, createdAt: iso(-60_000) })
    .execute();
  for (const [position, status] of [
    [0, 'ready'],
    [1, 'pending'],
  ] as const) {
    const imageId = `${id}-img${position}`;
    const base = `rice_pests/${name}/${position}_${imageId}`;
    await t.ctx.storage.put(`${base}.jpg`, Buffer.from(`original ${imageId}`));
    if (status === 'ready') {
      await t.ctx.storage.put(`${base}_display.jpg`, Buffer.from(`display ${imageId}`));
      await t.ctx.storage.put(`${base}_thumb.jpg`, Buffer.from(`thumb ${imageId}`));
    }
    await t.ctx.db
      .insertInto('catalog_images')
      .values({
        id: imageId,
        collection: 'rice_local_pests',
        entryId: id,
        position,
        status,
        originalKey: `${base}.jpg`,
        displayKey: status === 'ready' ? `${base}_display.jpg` : null,
        thumbKey: status === 'ready' ? `${base}_thumb.jpg` : null,
        externalUrl: null,
        mimeType: 'image/jpeg',
        sizeBytes: 10,
        width: 800,
        height: 600,
        originalName: 'a.jpg',
        sha256: null,
        uploadedBy: null,
        createdAt: iso(-60_000),
        linkedAt: iso(-60_000),
      })
      .execute();
  }
  // A staged photo (not yet saved with any entry) must never be published.
  await t.ctx.db
    .insertInto('catalog_images')
    .values({
      id: `${id}-staged`,
      collection: 'rice_local_pests',
      entryId: null,
      position: 0,
      status: 'ready',
      originalKey: 'x.jpg',
      displayKey: 'x_display.jpg',
      thumbKey: 'x_thumb.jpg',
      externalUrl: null,
      mimeType: 'image/jpeg',
      sizeBytes: 1,
      width: 1,
      height: 1,
      originalName: 'x.jpg',
      sha256: null,
      uploadedBy: null,
      createdAt: iso(),
      linkedAt: null,
    })
    .execute();
}

describe('public content API (no session)', () => {
  it('lists live varieties, filterable by recommendedInTarlac, with no session and no bookkeeping fields', async () => {
    await variety('v1', 'NSIC Rc 222', true);
    await variety('v2', 'NSIC Rc 160', false);
    await variety('v3', 'Gone', true, { isDeleted: 1, deletedAt: iso(-30_000) });
    const all = await t.app.inject({ url: '/api/public/v1/varieties' });
    expect(all.statusCode).toBe(200);
    expect(
      all
        .json()
        .items.map((v: { id: string }) => v.id)
        .sort(),
    ).toEqual(['v1', 'v2']);
    expect(all.json().items[0]).not.toHaveProperty('isDeleted');
    expect(all.json().items[0]).not.toHaveProperty('version');
    const recommended = await t.app.inject({ url: '/api/public/v1/varieties?recommendedInTarlac=true' });
    expect(recommended.json().items).toEqual([expect.objectContaining({ id: 'v1', season: ['Dry', 'Wet'], recommendedInTarlac: true })]);
    expect((await t.app.inject({ url: '/api/public/v1/varieties?recommendedInTarlac=maybe' })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/public/v1/varieties?updatedSince=yesterday' })).statusCode).toBe(400);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await t.app.inject({ url: '/api/public/v1/varieties' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({ url: '/api/public/v1/varieties', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A phone's HTTP client asks for gzip: an answer over 1 KB goes out compressed, with the same tag, and still 304.
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({ id: 'd-etag', name: 'Tungro', description: 'Yellow-orange leaves. '.repeat(80), isDeleted: 0, createdAt: iso(-60_000) })
      .execute();
    const plain = await t.app.inject({ url: '/api/public/v1/diseases' });
    const zipped = await t.app.inject({ url: '/api/public/v1/diseases', headers: { 'accept-encoding': 'gzip' } });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(
      (
        await t.app.inject({
          url: '/api/public/v1/diseases',
          headers: { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string },
        })
      ).statusCode,
    ).toBe(304);
    // The tag leaves the sync cursor out: a later answer with the same content has the same tag.
    await clockTicks();
    const later = await t.app.inject({ url: '/api/public/v1/varieties' });
    expect(later.json().serverTime).not.toBe(first.json().serverTime);
    expect(later.headers.etag).toBe(etag);
    await t.ctx.db.updateTable('rice_seed_varieties').set({ maxYield: 9.9 }).where('id', '=', 'v2').execute();
    expect((await t.app.inject({ url: '/api/public/v1/varieties' })).headers.etag).not.toBe(etag);
  });

  it('returns only what changed since updatedSince, with deletions', async () => {
    const first = (await t.app.inject({ url: '/api/public/v1/varieties' })).json();
    await clockTicks();
    await t.ctx.db.updateTable('rice_seed_varieties').set({ maxYield: 7.5, updatedAt: iso() }).where('id', '=', 'v2').execute();
    await t.ctx.db.updateTable('rice_seed_varieties').set({ isDeleted: 1, deletedAt: iso() }).where('id', '=', 'v1').execute();
    const delta = (await t.app.inject({ url: `/api/public/v1/varieties?updatedSince=${encodeURIComponent(first.serverTime)}` })).json();
    expect(delta.items).toEqual([expect.objectContaining({ id: 'v2', maxYield: 7.5 })]);
    expect(delta.deleted).toEqual(['v1']);
    const quiet = (await t.app.inject({ url: `/api/public/v1/varieties?updatedSince=${encodeURIComponent(delta.serverTime)}` })).json();
    expect(quiet).toMatchObject({ items: [], deleted: [] });
  });

  it('offers pests with display and thumbnail URLs only, never originals or staged photos', async () => {
    await pestWithImages('p1', 'Rice black bug');
    const res = await t.app.inject({ url: '/api/public/v1/pests' });
    const body = res.json();
    expect(body.items).toHaveLength(1);
    const pest = body.items[0];
    expect(pest.images).toEqual([
      {
        id: 'p1-img0',
        displayUrl: '/api/public/v1/images/p1-img0/display',
        thumbnailUrl: '/api/public/v1/images/p1-img0/thumbnail',
        width: 800,
        height: 600,
      },
    ]);
    expect(pest.mainImage.id).toBe('p1-img0');
    expect(res.body).not.toContain('original');
    expect(res.body).not.toContain('staged');
    // The cursor waits for the photo still being processed.
    expect(body.serverTime <= iso(-59_000)).toBe(true);

    const display = await t.app.inject({ url: pest.images[0].displayUrl });
    expect(display.statusCode).toBe(200);
    expect(display.body).toBe('display p1-img0');
    expect(display.headers['cache-control']).toContain('public');
    expect((await t.app.inject({ url: '/api/public/v1/images/p1-img0/original' })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/public/v1/images/p1-img1/display' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/public/v1/images/p1-staged/thumbnail' })).statusCode).toBe(404);
    // A deleted pest's photos stop being served.
    await t.ctx.db.updateTable('rice_local_pests').set({ isDeleted: 1, deletedAt: iso() }).where('id', '=', 'p1').execute();
    expect((await t.app.inject({ url: '/api/public/v1/images/p1-img0/display' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/public/v1/pests' })).json().items).toEqual([]);
  });

  it('serves the option lists, sets CORS for configured origins only, and contains no secrets', async () => {
    const options = await t.app.inject({ url: '/api/public/v1/options', headers: { origin: 'https://app.palayan.example' } });
    expect(options.json().seasons).toEqual(['Dry', 'Wet']);
    expect(options.headers['access-control-allow-origin']).toBe('https://app.palayan.example');
    const other = await t.app.inject({ url: '/api/public/v1/options', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/public/v1/pests',
      headers: { origin: 'https://app.palayan.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    for (const path of ['varieties', 'pests', 'diseases', 'options']) {
      const body = (await t.app.inject({ url: `/api/public/v1/${path}` })).body;
      expect(body).not.toMatch(/\$2[aby]\$|password|securityAnswer|currentSession/);
    }
  });

  it('is in the OpenAPI document and rate-limited', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/public/v1/varieties', '/api/public/v1/pests', '/api/public/v1/diseases', '/api/public/v1/options']),
    );
    const limited = await createTestApp({ publicRateLimitPerMinute: 2 });
    try {
      const codes = [];
      for (let i = 0; i < 3; i += 1) codes.push((await limited.app.inject({ url: '/api/public/v1/options' })).statusCode);
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
