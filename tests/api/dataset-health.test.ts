import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_TEXTS, PHOTO_REMOVAL_TEXTS } from '../../common/dataset.js';
import { photoRuntime } from '../../server/modules/content/photos/variants.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

const H = '9c3e71a0f25b48d6';
const flip = (hex: string, bits: number) => (BigInt(`0x${hex}`) ^ ((1n << BigInt(bits)) - 1n)).toString(16).padStart(16, '0');
const OTHER = 'f0f0f0f00f0f0f0f';

let n = 0;
async function disease(id: string, name: string, photos: Array<Record<string, unknown>>, deleted = false) {
  await t.ctx.db
    .insertInto('rice_local_diseases')
    .values({
      id,
      name,
      scientificName: null,
      isDeleted: deleted ? 1 : 0,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n++)).toISOString(),
    })
    .execute();
  for (const [position, values] of photos.entries()) {
    await t.ctx.db
      .insertInto('catalog_images')
      .values({
        id: `${id}-${position}`,
        collection: 'rice_local_diseases',
        entryId: id,
        position,
        status: 'ready',
        originalKey: `rice_disease/${id}/${position}.jpg`,
        displayKey: null,
        thumbKey: `rice_disease/_variants/${id}-${position}_thumb.jpg`,
        externalUrl: null,
        mimeType: 'image/jpeg',
        sizeBytes: 100,
        width: 1024,
        height: 768,
        originalName: null,
        sha256: `sha-${id}-${position}`,
        uploadedBy: null,
        createdAt: new Date(Date.UTC(2026, 0, 2, 0, 0, position)).toISOString(),
        linkedAt: null,
        sharpness: 300,
        brightness: 120,
        entropy: 7.1,
        ...values,
      })
      .execute();
  }
}

describe('dataset health', () => {
  beforeAll(async () => {
    // Hashes far (over 14 bits) from one another and from H, OTHER and the tungro photo's.
    const fresh = (i: number) => ({ phash: ['0123456789abcdef', 'fedcba9876543210', '5a5a5a5aa5a5a5a5', 'c0ffee00deadbeef'][i - 1] });
    await disease('blast', 'Rice blast', [
      { phash: H },
      { phash: flip(H, 4) },
      { phash: flip(H, 7) }, // one picture three times, re-encoded
      { phash: OTHER, sha256: 'same-bytes' },
      { phash: OTHER, sha256: 'same-bytes' }, // the same file twice
      { ...fresh(1), sharpness: 12.5 },
      { ...fresh(2), brightness: 20 },
      { ...fresh(3), width: 200, height: 150 },
      { phash: null, sharpness: null, brightness: null, entropy: null }, // not checked yet
    ]);
    await disease('tungro', 'Tungro', [{ phash: 'aaaaaaaa55555555' }, { ...fresh(4) }]);
    await disease('blight', 'Sheath blight', [{ phash: flip('aaaaaaaa55555555', 2) }]);
    await disease('gone', 'Deleted one', [{ phash: H }], true);
  });

  it('counts photos per disease with their share and the imbalance, and groups copies by kind', async () => {
    const res = await t.app.inject({ url: '/api/dataset-health', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const health = res.json();
    expect(health.diseases).toEqual([
      { id: 'blast', name: 'Rice blast', photos: 9, share: 9 / 12, fingerprinted: 8 },
      { id: 'tungro', name: 'Tungro', photos: 2, share: 2 / 12, fingerprinted: 2 },
      { id: 'blight', name: 'Sheath blight', photos: 1, share: 1 / 12, fingerprinted: 1 },
    ]);
    expect(health.imbalance).toBeCloseTo(1 / 9);
    expect(health.totals).toEqual({ photos: 12, fingerprinted: 11, exact: 2, near: 3, conflicts: 2, flagged: 3 });
    expect(health.clusters.map((c: { kind: string; cluster: string }) => [c.kind, c.cluster])).toEqual([
      ['conflict', 'blight-0'],
      ['exact', 'blast-3'],
      ['near', 'blast-0'],
    ]);
    const near = health.clusters[2];
    expect(near.photos.map((p: { id: string; distance: number }) => [p.id, p.distance])).toEqual([
      ['blast-0', 0],
      ['blast-1', 4],
      ['blast-2', 7],
    ]);
    expect(near.photos[0].thumbUrl).toMatch(/^\/api\/files\/rice_disease\//);
    expect(health.flagged.map((f: { id: string; flags: string[] }) => [f.id, f.flags])).toEqual([
      ['blast-5', ['blurry']],
      ['blast-6', ['dark']],
      ['blast-7', ['too_small']],
    ]);
  });

  it('writes every group and flagged photo to a CSV, for super admins only', async () => {
    const res = await t.app.inject({ url: '/api/dataset-health/report.csv', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(DATASET_TEXTS.csvColumns.join(','));
    expect(lines).toHaveLength(1 + 2 + 2 + 3 + 3);
    expect(lines.find((l) => l.startsWith('quality,,blast-5,'))).toContain(',blurry,12.5,');
    const admin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    for (const url of ['/api/dataset-health', '/api/dataset-health/report.csv']) {
      expect((await t.app.inject({ url, headers: { cookie: admin } })).statusCode).toBe(403);
    }
  });

  it("takes a photo out of its disease and puts it back, each audited, the disease's version and main image following", async () => {
    const post = (url: string, payload?: unknown, who = cookie) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: who }, ...(payload ? { payload: payload as object } : {}) });
    const version = async () =>
      Number(
        (await t.ctx.db.selectFrom('rice_local_diseases').select('version').where('id', '=', 'blast').executeTakeFirstOrThrow()).version,
      );
    const before = await version();
    const removed = await post('/api/dataset-health/photos/blast-0/remove', { diseaseId: 'blast' });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await version()).toBe(before + 1);
    const disease = await t.ctx.db
      .selectFrom('rice_local_diseases')
      .select('mainImageUrl')
      .where('id', '=', 'blast')
      .executeTakeFirstOrThrow();
    expect(disease.mainImageUrl).toBe('/api/files/rice_disease/blast/1.jpg');
    const health = (await t.app.inject({ url: '/api/dataset-health', headers: { cookie } })).json();
    expect(health.diseases[0]).toMatchObject({ id: 'blast', photos: 8 });
    expect(health.removed).toEqual([expect.objectContaining({ id: 'blast-0', diseaseId: 'blast', diseaseName: 'Rice blast' })]);
    // Kept: the staged-photo clean-up passes it over.
    await photoRuntime(t.ctx).cleanupStaged(0);
    expect(await t.ctx.db.selectFrom('catalog_images').select('id').where('id', '=', 'blast-0').execute()).toHaveLength(1);

    // Refused: a photo not in that disease, the only photo of a disease, another role.
    expect((await post('/api/dataset-health/photos/blast-0/remove', { diseaseId: 'blast' })).statusCode).toBe(404);
    const last = await post('/api/dataset-health/photos/blight-0/remove', { diseaseId: 'blight' });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.message).toBe(PHOTO_REMOVAL_TEXTS.lastPhoto);
    const admin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    expect((await post('/api/dataset-health/photos/blast-2/remove', { diseaseId: 'blast' }, admin)).statusCode).toBe(403);

    const back = await post('/api/dataset-health/photos/blast-0/put-back');
    expect(back.statusCode, back.body).toBe(204);
    const row = await t.ctx.db.selectFrom('catalog_images').selectAll().where('id', '=', 'blast-0').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ entryId: 'blast', position: 9, removedFrom: null });
    expect((await post('/api/dataset-health/photos/blast-0/put-back')).statusCode).toBe(404);
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['action', 'description'])
      .where('documentId', '=', 'blast')
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['UPDATE', 'RESTORE']);
    expect(entries[0]!.description).toBe(PHOTO_REMOVAL_TEXTS.audit.removed('Rice blast'));
  });

  it("where the diseases' changes need review, a remove and a put back wait as pending changes: approved by another super admin, or published without review with a reason", async () => {
    // With display copies: the farmer app's list shows photos that have them.
    await disease(
      'rot',
      'Sheath rot',
      ['1111111100000000', '0000000011111111', '0f0f0f0f0f0f0f0f'].map((phash, i) => ({
        phash,
        displayKey: `rice_disease/_variants/rot-${i}_display.jpg`,
      })),
    );
    const other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    const post = (url: string, payload?: unknown, who = cookie) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: who }, ...(payload ? { payload: payload as object } : {}) });
    const linked = async () =>
      (await t.ctx.db.selectFrom('catalog_images').select('id').where('entryId', '=', 'rot').orderBy('position').execute()).map(
        (r) => r.id,
      );
    const publicPhotos = async () => {
      const items = (await t.app.inject({ url: '/api/public/v1/diseases' })).json().items as Array<{ id: string; images: unknown[] }>;
      return items.find((d) => d.id === 'rot')!.images.length;
    };
    const photosBefore = await publicPhotos();
    expect(photosBefore).toBe(3);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/review/settings/rice_local_diseases',
          headers: { cookie },
          payload: { enabled: true },
        })
      ).statusCode,
    ).toBe(200);
    try {
      const removed = await post('/api/dataset-health/photos/rot-0/remove', { diseaseId: 'rot' });
      expect(removed.statusCode, removed.body).toBe(202);
      expect(removed.json().review).toMatchObject({ action: 'remove_photo', recordId: 'rot', state: 'pending' });
      // Nothing changed for the farmer app, nor in the training set.
      expect(await linked()).toEqual(['rot-0', 'rot-1', 'rot-2']);
      expect(await publicPhotos()).toBe(photosBefore);
      // Its checks ran when it was sent: the last photo of a disease, or a photo not in it, is refused at once.
      expect((await post('/api/dataset-health/photos/rot-9/remove', { diseaseId: 'rot' })).statusCode).toBe(404);
      // A second one of the same disease would replace the first, waiting change: refused.
      const second = await post('/api/dataset-health/photos/rot-1/remove', { diseaseId: 'rot' });
      expect(second.statusCode).toBe(409);
      expect(second.json().error.message).toBe(PHOTO_REMOVAL_TEXTS.ownPending);
      const approved = await post(`/api/review/changes/${removed.json().review.id}/approve`, { version: 1 }, other);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await linked()).toEqual(['rot-1', 'rot-2']);
      expect(await publicPhotos()).toBe(2);

      const back = await post('/api/dataset-health/photos/rot-0/put-back');
      expect(back.statusCode, back.body).toBe(202);
      expect(await linked()).toEqual(['rot-1', 'rot-2']);
      const id = back.json().review.id;
      expect((await post(`/api/review/changes/${id}/publish`, { version: 1 })).statusCode).toBe(400);
      const glass = await post(`/api/review/changes/${id}/publish`, { version: 1, reason: 'The model team needs this photo back today.' });
      expect(glass.statusCode, glass.body).toBe(200);
      expect(glass.json().change).toMatchObject({ state: 'published', breakGlassReason: 'The model team needs this photo back today.' });
      expect(await linked()).toEqual(['rot-1', 'rot-2', 'rot-0']);
    } finally {
      await t.app.inject({
        method: 'PUT',
        url: '/api/review/settings/rice_local_diseases',
        headers: { cookie },
        payload: { enabled: false },
      });
    }
  });
});
