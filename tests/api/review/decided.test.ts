import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { catalogCreateSchema } from '../../../common/schemas/catalog.js';
import { createCatalogService } from '../../../server/modules/content/catalog/service.js';
import { publishDue } from '../../../server/modules/publishing/review/publishing.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { entryBody, stagePhotos } from '../../fixtures/catalog.js';
import { loginAs, makeAccount, type TestAccount } from '../../fixtures/factories.js';

/**
 * A decided change keeps the comparison its reviewer decided on: once approved, sent back or
 * published, its page compares the published state and the proposal as they were then, not the
 * record as it is now (which, once published, is the proposal itself). And the next change a
 * reviewer may decide after one.
 */
let t: TestApp;
let superA: TestAccount;
let adminCookie: string;
let superCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  const author = await makeAccount(t.ctx, { role: 'ADMIN' });
  superA = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  adminCookie = await loginAs(t.app, author);
  superCookie = await loginAs(t.app, superA);
  await call('PUT', '/api/review/settings/rice_local_diseases', { enabled: true }, superCookie);
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

let n = 0;
async function makeDisease(): Promise<Json> {
  n += 1;
  const photos = await stagePhotos(t.ctx, 'disease', superA, 1);
  return (await createCatalogService(t.ctx, CATALOG_KINDS.disease).create(
    catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(`Blast ${n} ${Date.now()}`, photos, { treatments: 'Spray 2 g per litre.' })),
    superA,
    { skipImageMinimum: true },
  )) as unknown as Json;
}

/** The ADMIN's edit of the disease's treatment, sent for review: the change's id. */
async function sendEdit(disease: Json, treatments: string, version = disease.version as number): Promise<{ id: string; version: number }> {
  const edit = await call('PUT', `/api/rice_diseases/${disease.id}`, {
    ...entryBody(
      disease.name,
      disease.images.map((i: Json) => i.id),
      { treatments },
    ),
    version,
  });
  expect(edit.status, JSON.stringify(edit.body)).toBe(202);
  return { id: edit.body.review.id, version: edit.body.review.version };
}

const detailOf = async (id: string) => (await call('GET', `/api/review/changes/${id}`, undefined, superCookie)).body;
const treatmentsRow = (detail: Json) => detail.comparison.fields.find((f: Json) => f.key === 'treatments');

describe('a decided change keeps what was decided', () => {
  it('an approved and published change compares the states its reviewer saw, even after the record moves on', async () => {
    const disease = await makeDisease();
    const change = await sendEdit(disease, 'Spray 20 g per litre.');
    expect((await detailOf(change.id)).decided).toBeNull();

    const approved = await call('POST', `/api/review/changes/${change.id}/approve`, { version: change.version }, superCookie);
    expect(approved.status).toBe(200);
    expect(approved.body.change.state).toBe('published');
    expect(approved.body.decided).toMatchObject({ decision: 'approved', kept: true, at: approved.body.change.publishedAt });
    expect(treatmentsRow(approved.body)).toMatchObject({ from: 'Spray 2 g per litre.', to: 'Spray 20 g per litre.', changed: true });
    expect(approved.body.preview.published.treatments).toBe('Spray 2 g per litre.');
    expect(approved.body.preview.proposed.treatments).toBe('Spray 20 g per litre.');

    // A later edit, published by another change: this one's page still shows its own decision.
    const later = await sendEdit(disease, 'Spray 30 g per litre.', disease.version + 1);
    expect((await call('POST', `/api/review/changes/${later.id}/approve`, { version: later.version }, superCookie)).status).toBe(200);
    const kept = await detailOf(change.id);
    expect(treatmentsRow(kept)).toMatchObject({ from: 'Spray 2 g per litre.', to: 'Spray 20 g per litre.', changed: true });
    expect(kept.publishedVersion).toBe(disease.version + 2);
  });

  it('a change sent back shows what was sent back; its resubmission is compared live again', async () => {
    const disease = await makeDisease();
    const change = await sendEdit(disease, 'Spray 5 kg.');
    const rejected = await call(
      'POST',
      `/api/review/changes/${change.id}/reject`,
      { version: change.version, comment: 'Per hectare?' },
      superCookie,
    );
    expect(rejected.body.decided).toMatchObject({ decision: 'rejected', kept: true, at: rejected.body.change.reviewedAt });
    expect(treatmentsRow(rejected.body)).toMatchObject({ from: 'Spray 2 g per litre.', to: 'Spray 5 kg.' });

    const again = await sendEdit(disease, 'Spray 5 kg per hectare.');
    expect(again.id).toBe(change.id);
    const resubmitted = await detailOf(change.id);
    expect(resubmitted.decided).toBeNull();
    expect(treatmentsRow(resubmitted)).toMatchObject({ from: 'Spray 2 g per litre.', to: 'Spray 5 kg per hectare.' });
    expect((await call('POST', `/api/review/changes/${change.id}/withdraw`, { version: resubmitted.change.version })).status).toBe(200);
  });

  it('a scheduled publish keeps what its approval saw; a publish without review keeps its own', async () => {
    const disease = await makeDisease();
    const change = await sendEdit(disease, 'Spray 7 g per litre.');
    const publishAt = new Date(Date.now() + 3_600_000).toISOString();
    const approved = await call('POST', `/api/review/changes/${change.id}/approve`, { version: change.version, publishAt }, superCookie);
    expect(approved.body.change.state).toBe('approved');
    expect(approved.body.decided).toMatchObject({ decision: 'approved', kept: true });
    const at = approved.body.decided.at as string;
    await t.ctx.db
      .updateTable('pending_changes')
      .set({ scheduledAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', change.id)
      .execute();
    expect(await publishDue(t.ctx)).toBe(1);
    const published = await detailOf(change.id);
    expect(published.change.state).toBe('published');
    expect(published.decided).toEqual({ decision: 'approved', kept: true, at });
    expect(treatmentsRow(published)).toMatchObject({ from: 'Spray 2 g per litre.', to: 'Spray 7 g per litre.', changed: true });

    const other = await makeDisease();
    const urgent = await sendEdit(other, 'Do not spray.');
    const glass = await call(
      'POST',
      `/api/review/changes/${urgent.id}/publish`,
      { version: urgent.version, reason: 'A wrong dose is in the app now.' },
      superCookie,
    );
    expect(glass.status).toBe(200);
    expect(glass.body.decided).toMatchObject({ decision: 'publishedWithoutReview', kept: true });
    expect(treatmentsRow(glass.body)).toMatchObject({ from: 'Spray 2 g per litre.', to: 'Do not spray.' });
  });

  it('a change published before its states were kept shows no comparison rather than the record against itself', async () => {
    const disease = await makeDisease();
    const change = await sendEdit(disease, 'Spray 9 g per litre.');
    expect((await call('POST', `/api/review/changes/${change.id}/approve`, { version: change.version }, superCookie)).status).toBe(200);
    await t.ctx.db.updateTable('pending_changes').set({ decided: null }).where('id', '=', change.id).execute();
    const detail = await detailOf(change.id);
    expect(detail.decided).toMatchObject({ decision: 'approved', kept: false });
    expect(detail.comparison).toBeNull();
    expect(detail.preview).toBeNull();
  });
});

describe('the next change to decide', () => {
  it("gives the next pending change in the queue's order, never the reviewer's own, then none", async () => {
    // Nothing of the tests above waits any more.
    const open = await t.ctx.db.selectFrom('pending_changes').select('id').where('state', '=', 'pending').execute();
    expect(open).toEqual([]);
    const [a, b, c] = [await makeDisease(), await makeDisease(), await makeDisease()];
    const first = await sendEdit(a, 'First.');
    const own = await call(
      'PUT',
      `/api/rice_diseases/${b.id}`,
      {
        ...entryBody(
          b.name,
          b.images.map((i: Json) => i.id),
          { treatments: 'Own.' },
        ),
        version: b.version,
      },
      superCookie,
    );
    expect(own.status).toBe(202);
    const third = await sendEdit(c, 'Third.');

    const next = async (after: string, cookie = superCookie) =>
      call('GET', `/api/review/next?after=${encodeURIComponent(after)}`, undefined, cookie);
    expect((await next(first.id)).body).toEqual({ next: { id: third.id, recordName: c.name } });
    // From the last, the queue starts again at the oldest.
    expect((await next(third.id)).body.next.id).toBe(first.id);
    expect((await call('POST', `/api/review/changes/${first.id}/approve`, { version: first.version }, superCookie)).status).toBe(200);
    expect((await next(first.id)).body.next.id).toBe(third.id);
    expect((await call('POST', `/api/review/changes/${third.id}/approve`, { version: third.version }, superCookie)).status).toBe(200);
    expect((await next(third.id)).body).toEqual({ next: null });
    // An unknown change: the queue from its start.
    expect((await next('no-such-change')).body).toEqual({ next: null });

    // Only reviewers ask; the query is checked.
    expect((await next(first.id, adminCookie)).status).toBe(403);
    expect((await call('GET', '/api/review/next', undefined, superCookie)).status).toBe(400);
  });
});
