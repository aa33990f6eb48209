import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_TEXTS } from '../../../common/review.js';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { catalogCreateSchema } from '../../../common/schemas/catalog.js';
import { createCatalogService } from '../../../server/modules/content/catalog/service.js';
import { publishDue } from '../../../server/modules/publishing/review/publishing.js';
import { outboxMailsTo } from '../../fixtures/settings.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { entryBody, stagePhotos } from '../../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../../fixtures/factories.js';

let t: TestApp;
let author: TestAccount;
let superA: TestAccount;
let adminCookie: string;
let superCookie: string;
let superBCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  author = await makeAccount(t.ctx, { role: 'ADMIN' });
  superA = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  adminCookie = await loginAs(t.app, author);
  superCookie = await loginAs(t.app, superA);
  superBCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
async function call(method: string, url: string, payload?: unknown, cookie = adminCookie): Promise<{ status: number; body: Json }> {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : {} };
}
const setReview = (collection: string, enabled: boolean) => call('PUT', `/api/review/settings/${collection}`, { enabled }, superCookie);
const publicDisease = async (id: string): Promise<Json> =>
  ((await call('GET', '/api/public/v1/diseases')).body.items as Json[]).find((d) => d.id === id) ?? {};

/** A published disease with one photo (the service's own create: the add form asks for 800). */
async function makeDisease(name: string): Promise<Json> {
  const photos = await stagePhotos(t.ctx, 'disease', superA, 1);
  const kind = CATALOG_KINDS.disease;
  const created = await createCatalogService(t.ctx, kind).create(
    catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(name, photos, { treatments: 'Spray 2 g per litre.' })),
    superA,
    { skipImageMinimum: true },
  );
  return created as unknown as Json;
}

describe('review before publishing: diseases', () => {
  it("keeps an ADMIN's edit from the farmer app until a second account approves it", async () => {
    const disease = await makeDisease(`Blast ${Math.random().toString(36).slice(2, 7)}`);
    expect((await setReview('rice_local_diseases', true)).status).toBe(200);

    const edit = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(
        disease.name,
        disease.images.map((i: Json) => i.id),
        { treatments: 'Spray 20 g per litre.' },
      ),
      version: disease.version,
    });
    expect(edit.status).toBe(202);
    expect(edit.body.review).toMatchObject({ state: 'pending', action: 'update', recordId: disease.id, baseVersion: disease.version });
    expect(edit.body.message).toBe(REVIEW_TEXTS.sentForReview);
    expect((await publicDisease(disease.id)).treatments).toBe('Spray 2 g per litre.');
    expect((await call('GET', `/api/rice_diseases/${disease.id}`)).body.version).toBe(disease.version);

    const changeId = edit.body.review.id;
    const detail = (await call('GET', `/api/review/changes/${changeId}`, undefined, superCookie)).body;
    expect(detail.comparison.fields.find((f: Json) => f.key === 'treatments')).toMatchObject({
      from: 'Spray 2 g per litre.',
      to: 'Spray 20 g per litre.',
      changed: true,
    });
    expect(detail.preview.published.treatments).toBe('Spray 2 g per litre.');
    expect(detail.preview.proposed.treatments).toBe('Spray 20 g per litre.');
    expect(detail.can).toMatchObject({ approve: true, reject: true });

    // An ADMIN holds no review permission (a super admin's own change is refused by name below).
    expect((await call('POST', `/api/review/changes/${changeId}/approve`, { version: 1 })).status).toBe(403);
    const approved = await call('POST', `/api/review/changes/${changeId}/approve`, { version: 1, comment: 'Dose checked.' }, superCookie);
    expect(approved.status).toBe(200);
    expect(approved.body.change.state).toBe('published');
    expect((await publicDisease(disease.id)).treatments).toBe('Spray 20 g per litre.');

    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['action', 'userId'])
      .where('documentId', '=', disease.id)
      .where('action', 'in', ['SUBMIT', 'APPROVE', 'PUBLISH', 'UPDATE'])
      .orderBy('timestamp')
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['APPROVE', 'PUBLISH', 'SUBMIT', 'UPDATE']);
    expect(audit.find((a) => a.action === 'UPDATE')!.userId).toBe(author.id);
    expect(audit.find((a) => a.action === 'APPROVE')!.userId).toBe(superA.id);
  });

  it('refuses self-approval, and a break-glass publish without a reason', async () => {
    const disease = await makeDisease(`Sheath ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const edit = await call(
      'PUT',
      `/api/rice_diseases/${disease.id}`,
      {
        ...entryBody(
          disease.name,
          disease.images.map((i: Json) => i.id),
          { symptoms: 'Lesions.' },
        ),
        version: disease.version,
      },
      superCookie,
    );
    expect(edit.status).toBe(202);
    const id = edit.body.review.id;
    const self = await call('POST', `/api/review/changes/${id}/approve`, { version: 1 }, superCookie);
    expect(self.status).toBe(403);
    expect(self.body.error.message).toBe(REVIEW_TEXTS.errors.selfApprove);
    const noReason = await call('POST', `/api/review/changes/${id}/publish`, { version: 1 }, superCookie);
    expect(noReason.status).toBe(400);
    expect((await call('POST', `/api/review/changes/${id}/publish`, { version: 1, reason: 'short' }, superCookie)).status).toBe(400);
    expect(
      (await call('POST', `/api/review/changes/${id}/publish`, { version: 1, reason: 'A typo in a dose, field offices are calling.' }))
        .status,
    ).toBe(403);
    const glass = await call(
      'POST',
      `/api/review/changes/${id}/publish`,
      { version: 1, reason: 'A typo in a dose, field offices are calling.' },
      superCookie,
    );
    expect(glass.status).toBe(200);
    expect(glass.body.change).toMatchObject({ state: 'published', breakGlassReason: 'A typo in a dose, field offices are calling.' });
    expect((await publicDisease(disease.id)).symptoms).toBe('Lesions.');
  });

  it('publishes once when 20 approvals arrive together', async () => {
    const disease = await makeDisease(`Tungro ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const edit = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(
        disease.name,
        disease.images.map((i: Json) => i.id),
        { cause: 'Leafhoppers.' },
      ),
      version: disease.version,
    });
    const id = edit.body.review.id;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', `/api/review/changes/${id}/approve`, { version: 1 }, i % 2 ? superCookie : superBCookie),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select('action')
      .where('documentId', '=', disease.id)
      .where('action', 'in', ['APPROVE', 'PUBLISH', 'UPDATE'])
      .execute();
    expect(entries.map((e) => e.action).sort()).toEqual(['APPROVE', 'PUBLISH', 'UPDATE']);
    expect((await call('GET', `/api/rice_diseases/${disease.id}`)).body.version).toBe(disease.version + 1);
    expect((await call('GET', `/api/review/changes/${id}`, undefined, superCookie)).body.change).toMatchObject({
      state: 'published',
      version: 2,
    });
  });

  it('refuses to publish over a newer published state (409); a rebase keeps what was published in between', async () => {
    const disease = await makeDisease(`Bakanae ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const images = disease.images.map((i: Json) => i.id);
    const edit = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(disease.name, images, { cause: 'Fungus.' }),
      version: disease.version,
    });
    const id = edit.body.review.id;
    // Another change is published first (break glass by a super admin: review is on).
    await setReview('rice_local_diseases', false);
    expect(
      (
        await call(
          'PUT',
          `/api/rice_diseases/${disease.id}`,
          { ...entryBody(disease.name, images, { description: 'Newer.' }), version: disease.version },
          superCookie,
        )
      ).status,
    ).toBe(200);
    await setReview('rice_local_diseases', true);
    const refused = await call('POST', `/api/review/changes/${id}/approve`, { version: 1 }, superCookie);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(REVIEW_TEXTS.errors.baseMoved);
    expect((await call('GET', `/api/review/changes/${id}`, undefined, superCookie)).body.change.state).toBe('pending');
    const rebased = await call('POST', `/api/review/changes/${id}/rebase`, { version: 1 });
    expect(rebased.status).toBe(200);
    expect(rebased.body.change).toMatchObject({ state: 'pending', baseVersion: disease.version + 1 });
    expect((await call('POST', `/api/review/changes/${id}/approve`, { version: rebased.body.change.version }, superCookie)).status).toBe(
      200,
    );
    const now = await publicDisease(disease.id);
    expect(now.cause).toBe('Fungus.');
    expect(now.description).toBe('Newer.');
  });

  it('sends a rejected change back; the author edits and resubmits it; a second author is refused', async () => {
    const disease = await makeDisease(`Smut ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const images = disease.images.map((i: Json) => i.id);
    const first = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(disease.name, images, { treatments: 'Spray 5 kg.' }),
      version: disease.version,
    });
    const id = first.body.review.id;
    expect((await call('POST', `/api/review/changes/${id}/reject`, { version: 1, comment: '' }, superCookie)).status).toBe(400);
    const rejected = await call('POST', `/api/review/changes/${id}/reject`, { version: 1, comment: 'Dose is per hectare.' }, superCookie);
    expect(rejected.body.change).toMatchObject({ state: 'rejected', comment: 'Dose is per hectare.' });
    expect((await call('GET', '/api/review/count')).body.returned).toBeGreaterThanOrEqual(1);

    const other = await makeAccount(t.ctx, { role: 'ADMIN' });
    const otherCookie = await loginAs(t.app, other);
    const clash = await call(
      'PUT',
      `/api/rice_diseases/${disease.id}`,
      { ...entryBody(disease.name, images, { treatments: 'Other.' }), version: disease.version },
      otherCookie,
    );
    expect(clash.status).toBe(409);

    const again = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(disease.name, images, { treatments: 'Spray 5 kg per hectare.' }),
      version: disease.version,
    });
    expect(again.status).toBe(202);
    expect(again.body.review).toMatchObject({ id, state: 'pending' });
    const approved = await call('POST', `/api/review/changes/${id}/approve`, { version: again.body.review.version }, superCookie);
    expect(approved.status).toBe(200);
    expect((await publicDisease(disease.id)).treatments).toBe('Spray 5 kg per hectare.');
  });

  it('a reviewer can close a change sent back to an author, freeing the record; photos it holds cannot be discarded', async () => {
    const disease = await makeDisease(`Brown spot ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const added = await stagePhotos(t.ctx, 'disease', author, 1);
    const images = [...disease.images.map((i: Json) => i.id), ...added];
    const sent = await call('PUT', `/api/rice_diseases/${disease.id}`, { ...entryBody(disease.name, images), version: disease.version });
    const id = sent.body.review.id;
    const discard = await call('POST', '/api/rice_diseases/images/discard', { ids: added });
    expect(discard.body).toEqual({ removed: 0 });
    await call('POST', `/api/review/changes/${id}/reject`, { version: 1, comment: 'Not this photo.' }, superCookie);
    const other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    const clash = await call(
      'PUT',
      `/api/rice_diseases/${disease.id}`,
      {
        ...entryBody(
          disease.name,
          disease.images.map((i: Json) => i.id),
        ),
        version: disease.version,
      },
      other,
    );
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toContain('already has an open change');
    const closed = await call('POST', `/api/review/changes/${id}/withdraw`, { version: 2 }, superCookie);
    expect(closed.body.change.state).toBe('withdrawn');
    expect(
      (
        await call(
          'PUT',
          `/api/rice_diseases/${disease.id}`,
          {
            ...entryBody(
              disease.name,
              disease.images.map((i: Json) => i.id),
              { cause: 'Fungus.' },
            ),
            version: disease.version,
          },
          other,
        )
      ).status,
    ).toBe(202);
    // Released: the author may discard the photo now.
    expect((await call('POST', '/api/rice_diseases/images/discard', { ids: added })).body).toEqual({ removed: 1 });
  });

  it('a scheduled publish the record refuses becomes failed, and its author hears of it', async () => {
    const disease = await makeDisease(`False smut ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const images = disease.images.map((i: Json) => i.id);
    const sent = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(disease.name, images, { cause: 'Ustilaginoidea.' }),
      version: disease.version,
    });
    const id = sent.body.review.id;
    const at = new Date(Date.now() + 1_500).toISOString();
    expect((await call('POST', `/api/review/changes/${id}/approve`, { version: 1, publishAt: at }, superCookie)).status).toBe(200);
    // Someone publishes over its base first (review off for a moment).
    await setReview('rice_local_diseases', false);
    await call(
      'PUT',
      `/api/rice_diseases/${disease.id}`,
      { ...entryBody(disease.name, images, { symptoms: 'Green balls.' }), version: disease.version },
      superCookie,
    );
    await setReview('rice_local_diseases', true);
    await expect
      .poll(
        async () => {
          await publishDue(t.ctx);
          return (await call('GET', `/api/review/changes/${id}`, undefined, superCookie)).body.change.state;
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe('failed');
    const failed = (await call('GET', `/api/review/changes/${id}`)).body;
    expect(failed.change.publishError).toBe(REVIEW_TEXTS.errors.baseMoved);
    expect(failed.can.rebase).toBe(true);
    await expect.poll(() => outboxMailsTo(t.ctx, author.email!).join('\n')).toContain('could not be published at its scheduled time');
    expect((await publicDisease(disease.id)).cause).not.toBe('Ustilaginoidea.');
  });

  it("a super admin who sent a change and was made an admin publishes with an admin's rights", async () => {
    const disease = await makeDisease(`Bacterial streak ${Math.random().toString(36).slice(2, 7)}`);
    await setReview('rice_local_diseases', true);
    const sender = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const senderCookie = await loginAs(t.app, sender);
    const sent = await call(
      'PUT',
      `/api/rice_diseases/${disease.id}`,
      {
        ...entryBody(
          disease.name,
          disease.images.map((i: Json) => i.id),
          { isTrainingClass: true },
        ),
        version: disease.version,
      },
      senderCookie,
    );
    expect(sent.status).toBe(202);
    await t.ctx.db.updateTable('accounts').set({ role: 'ADMIN' }).where('id', '=', sender.id).execute();
    const approved = await call('POST', `/api/review/changes/${sent.body.review.id}/approve`, { version: 1 }, superCookie);
    expect(approved.status).toBe(403);
    expect((await call('GET', `/api/rice_diseases/${disease.id}`)).body.isTrainingClass).toBe(false);
  });
});

describe('review before publishing: a new pest', () => {
  it("publishes an approved add without taking the author's later draft with it", async () => {
    await setReview('rice_local_pests', true);
    const photos = await stagePhotos(t.ctx, 'pest', author, 1);
    const name = `Stem borer ${Math.random().toString(36).slice(2, 7)}`;
    const added = await call('POST', '/api/rice_pests', { ...entryBody(name, photos), localName: '', affectedParts: [] });
    expect(added.status).toBe(202);
    expect(added.body.review).toMatchObject({ action: 'create', recordId: null, state: 'pending' });
    // Meanwhile the author starts another pest in the add form.
    const draft = { fields: { name: 'Rice bug, half typed' }, photos: [] };
    expect((await call('PUT', '/api/rice_pests/draft', draft)).status).toBe(200);

    const approved = await call(
      'POST',
      `/api/review/changes/${added.body.review.id}/approve`,
      { version: added.body.review.version },
      superCookie,
    );
    expect(approved.status).toBe(200);
    expect(approved.body.change.state).toBe('published');
    expect(((await call('GET', `/api/rice_pests?search=${encodeURIComponent(name)}`)).body.items as Json[]).map((p) => p.name)).toEqual([
      name,
    ]);
    expect((await call('GET', '/api/rice_pests/draft')).body?.fields?.name).toBe('Rice bug, half typed');
    await setReview('rice_local_pests', false);
  });
});
