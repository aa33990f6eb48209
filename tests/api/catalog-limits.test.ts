import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import type { CatalogEntryDetail, StagedImage } from '../../common/schemas/catalog.js';
import { photoRuntime } from '../../server/modules/content/photos/variants.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { entryBody, seedStagedPhotos, tinyPng, uploadPhoto } from '../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';

let t: TestApp;
let user: TestAccount;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await makeAccount(t.ctx);
  cookie = await loginAs(t.app, user);
});
afterAll(async () => {
  await t.close();
});

/**
 * `count` staged photos: all but the last `uploaded` written straight to the photo table and
 * storage, those last ones sent through the upload route, so each limit is met at its boundary
 * by photos uploaded as the browser sends them.
 */
async function photos(count: number, uploaded: number): Promise<string[]> {
  const ids = await seedStagedPhotos(t.ctx, 'disease', user, count - uploaded);
  for (let n = count - uploaded; n < count; n += 1) {
    const res = await uploadPhoto(t.app, cookie, CATALOG_KINDS.disease, `leaf_${n}.png`, await tinyPng(4));
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json<StagedImage>().id);
  }
  return ids;
}

describe('disease image limits (docs/PRODUCT.md section 5: fewer than 800 blocks, at most 2000)', () => {
  it('refuses 799 and accepts exactly 800 photos for a new disease', async () => {
    const ids = await photos(800, 1);
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/rice_diseases',
      headers: { cookie },
      payload: entryBody('Rice blast', ids.slice(0, 799)),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.imageIds).toBe('Please upload at least 800 image for new diseases.');
    expect(await t.ctx.db.selectFrom('rice_local_diseases').select('id').execute()).toEqual([]);

    const exact = await t.app.inject({
      method: 'POST',
      url: '/api/rice_diseases',
      headers: { cookie },
      payload: entryBody('Rice blast', ids),
    });
    expect(exact.statusCode, exact.body).toBe(201);
    const entry = exact.json<CatalogEntryDetail>();
    expect(entry.images).toHaveLength(800);
    expect(entry.images[0]!.url).toMatch(/^\/api\/files\/rice_disease\/Rice%20blast\/\d{13}_0_leaf_0\.png$/);
    expect(entry.images[799]!.url).toMatch(/_799_leaf_799\.png$/);

    // On edit, new photos are optional and the minimum does not apply to existing entries.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_diseases/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Rice blast', ids.slice(0, 10)), version: 1 },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().images).toHaveLength(10);
  });

  it('accepts exactly 2000 and refuses 2001 photos', async () => {
    const ids = await photos(2001, 2);
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/rice_diseases',
      headers: { cookie },
      payload: entryBody('Bacterial leaf blight', ids),
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.fields.imageIds).toBe('You can upload a maximum of 2000 images.');

    const max = await t.app.inject({
      method: 'POST',
      url: '/api/rice_diseases',
      headers: { cookie },
      payload: entryBody('Bacterial leaf blight', ids.slice(0, 2000)),
    });
    expect(max.statusCode, max.body).toBe(201);
    const entry = max.json<CatalogEntryDetail>();
    expect(entry.images).toHaveLength(2000);

    // The edit limit is the same maximum: 2000 plus the one left over is refused.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/rice_diseases/${entry.id}`,
      headers: { cookie },
      payload: { ...entryBody('Bacterial leaf blight', ids), version: 1 },
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error.fields.imageIds).toBe('You can upload a maximum of 2000 images.');

    await photoRuntime(t.ctx).queue.idle();
    const ready = await t.ctx.db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('entryId', '=', entry.id)
      .where('status', '=', 'ready')
      .executeTakeFirstOrThrow();
    expect(Number(ready.n)).toBe(2000);
    const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', entry.id).execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.changes!).after.imageCount).toBe(2000);
  }, 180_000);
});
