import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { catalogCreateSchema } from '../../../common/schemas/catalog.js';
import { REVIEW_COLLECTIONS } from '../../../common/review.js';
import { createCatalogService } from '../../../server/modules/content/catalog/service.js';
import { photoRuntime } from '../../../server/modules/content/photos/variants.js';
import { publishDue } from '../../../server/modules/publishing/review/publishing.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { entryBody, stagePhotos } from '../../fixtures/catalog.js';
import { clockTicks, loginAs, makeAccount, type TestAccount } from '../../fixtures/factories.js';
import { outboxMailsTo } from '../../fixtures/settings.js';
import { csvOf, postSheet, VARIETY_HEADER, varietyRow } from '../../fixtures/spreadsheets.js';
import { makeVariety, varietyBody } from '../../fixtures/varieties.js';

let t: TestApp;
let author: TestAccount;
let reviewer: TestAccount;
let adminCookie: string;
let superCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  author = await makeAccount(t.ctx, { role: 'ADMIN' });
  reviewer = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  adminCookie = await loginAs(t.app, author);
  superCookie = await loginAs(t.app, reviewer);
  for (const collection of REVIEW_COLLECTIONS) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/review/settings/${collection}`,
      headers: { cookie: superCookie },
      payload: { enabled: true },
    });
    expect(res.statusCode).toBe(200);
  }
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
const approve = (id: string, version = 1) => call('POST', `/api/review/changes/${id}/approve`, { version }, superCookie);
const publicVariety = async (id: string): Promise<Json | undefined> =>
  ((await call('GET', '/api/public/v1/varieties')).body.items as Json[]).find((v) => v.id === id);

describe('review covers every save of every collection', () => {
  it('settings: each turn is audited, and read back', async () => {
    const settings = (await call('GET', '/api/review/settings')).body.items as Json[];
    expect(settings.every((s) => s.enabled)).toBe(true);
    expect((await call('PUT', '/api/review/settings/maintenance', { enabled: false })).status).toBe(403);
    const audited = await t.ctx.db.selectFrom('audit_logs').select('documentId').where('collection', '=', 'review_settings').execute();
    expect(audited.map((a) => a.documentId).sort()).toEqual([...REVIEW_COLLECTIONS].sort());
  });

  it('varieties: add, edit and delete wait; the app syncs each by its publish time', async () => {
    const added = await call('POST', '/api/varieties', varietyBody({ varietyName: `NSIC Rc ${Date.now()}` }));
    expect(added.status).toBe(202);
    expect(added.body.review).toMatchObject({ action: 'create', recordId: null, state: 'pending' });
    // Reviewers hear of it (outbox without SMTP).
    await expect.poll(() => outboxMailsTo(t.ctx, reviewer.email!).join('\n')).toContain('sent a change for review');
    const before = new Date().toISOString();
    await clockTicks();
    expect((await approve(added.body.review.id)).status).toBe(200);
    const synced = (await call('GET', `/api/public/v1/varieties?updatedSince=${encodeURIComponent(before)}`)).body.items as Json[];
    const created = synced.find((v) => v.varietyName === added.body.review.recordName);
    expect(created).toBeDefined();
    await expect.poll(() => outboxMailsTo(t.ctx, author.email!).join('\n')).toContain('approved your change');

    const variety = await makeVariety(t.ctx, { location: 'Capas' });
    const edit = await call('PUT', `/api/varieties/${variety.id}`, {
      ...varietyBody({ varietyName: variety.varietyName, location: 'Gerona' }),
      version: variety.version,
    });
    expect(edit.status).toBe(202);
    expect((await publicVariety(variety.id))?.location).toBe('Capas');
    const detail = (await call('GET', `/api/review/changes/${edit.body.review.id}`, undefined, superCookie)).body;
    expect(detail.comparison.fields.find((f: Json) => f.key === 'location')).toMatchObject({ from: 'Capas', to: 'Gerona', changed: true });
    expect(detail.preview.proposed.location).toBe('Gerona');
    const since = new Date().toISOString();
    await clockTicks();
    await approve(edit.body.review.id);
    const delta = (await call('GET', `/api/public/v1/varieties?updatedSince=${encodeURIComponent(since)}`)).body.items as Json[];
    expect(delta.map((v) => v.id)).toEqual([variety.id]);

    const del = await call('DELETE', `/api/varieties/${variety.id}`);
    expect(del.status).toBe(202);
    expect(await publicVariety(variety.id)).toBeDefined();
    await approve(del.body.review.id);
    expect(await publicVariety(variety.id)).toBeUndefined();
  });

  it('a spreadsheet import waits as one change with its rows, and is decided again when published', async () => {
    const name = `PSB Rc ${Date.now()}`;
    const res = await postSheet(
      t.app,
      adminCookie,
      '/api/varieties/import',
      'new.csv',
      csvOf([VARIETY_HEADER, varietyRow({ 'Variety name': name })]),
    );
    expect(res.status).toBe(202);
    expect(res.body.review).toMatchObject({ action: 'import', recordName: 'new.csv', summary: { new: 1, update: 0, error: 0 } });
    const detail = (await call('GET', `/api/review/changes/${res.body.review.id}`, undefined, superCookie)).body;
    expect(detail.importRows, JSON.stringify(detail.importRows)).toEqual([expect.objectContaining({ name, status: 'new' })]);
    expect(((await call('GET', '/api/public/v1/varieties')).body.items as Json[]).some((v) => v.varietyName === name)).toBe(false);
    expect((await approve(res.body.review.id)).status).toBe(200);
    expect(((await call('GET', '/api/public/v1/varieties')).body.items as Json[]).some((v) => v.varietyName === name)).toBe(true);
    const audit = await t.ctx.db.selectFrom('audit_logs').select('action').where('documentName', '=', 'new.csv').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['APPROVE', 'IMPORT', 'PUBLISH', 'SUBMIT']);
  });

  it('option lists the app shows wait; the security questions do not', async () => {
    const doc = (await call('GET', '/api/maintenance/documents/rice_varieties_enums', undefined, superCookie)).body;
    const season = `Ikatlo ${'abcdefghij'[Date.now() % 10]}`;
    const added = await call('POST', '/api/maintenance/documents/rice_varieties_enums/lists/seasons', { value: season }, superCookie);
    expect(added.status, JSON.stringify(added.body)).toBe(202);
    expect((await call('GET', '/api/maintenance/documents/rice_varieties_enums', undefined, superCookie)).body.version).toBe(doc.version);
    const detail = (await call('GET', `/api/review/changes/${added.body.review.id}`, undefined, superCookie)).body;
    expect(detail.comparison.fields.find((f: Json) => f.key === 'seasons')).toMatchObject({
      changed: true,
      to: expect.arrayContaining([season]),
    });
    expect((await call('GET', '/api/public/v1/options')).body.seasons).not.toContain(season);
    // Its author may not approve it; another super admin does.
    expect((await approve(added.body.review.id)).status).toBe(403);
    const other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    expect((await call('POST', `/api/review/changes/${added.body.review.id}/approve`, { version: 1 }, other)).status).toBe(200);
    expect((await call('GET', '/api/public/v1/options')).body.seasons).toContain(season);

    // Two adds in a row by one author: one change holding both.
    const [one, two] = [`Tag-ulan ${season.slice(-1)}`, `Tag-init ${season.slice(-1)}`];
    const first = await call('POST', '/api/maintenance/documents/rice_varieties_enums/lists/seasons', { value: one }, superCookie);
    const second = await call('POST', '/api/maintenance/documents/rice_varieties_enums/lists/seasons', { value: two }, superCookie);
    expect(second.body.review.id).toBe(first.body.review.id);
    const both = (await call('GET', `/api/review/changes/${second.body.review.id}`, undefined, superCookie)).body;
    expect(both.comparison.fields.find((f: Json) => f.key === 'seasons').to).toEqual(expect.arrayContaining([one, two]));
    // Removing it again while it waits changes nothing, and never reaches the published lists.
    const again = await call(
      'DELETE',
      `/api/maintenance/documents/rice_varieties_enums/lists/seasons?value=${encodeURIComponent(season + 'x')}`,
      undefined,
      superCookie,
    );
    expect([200, 202]).toContain(again.status);
    const latest = (await call('GET', `/api/review/changes/${first.body.review.id}`, undefined, superCookie)).body.change;
    expect(latest.state).toBe('pending');
    expect(
      (await call('POST', `/api/review/changes/${first.body.review.id}/withdraw`, { version: latest.version }, superCookie)).status,
    ).toBe(200);

    const questions = await call(
      'POST',
      '/api/maintenance/documents/accounts_enums/lists/securityQuestions',
      { value: `What was your first carabao's name ${Date.now() % 1000}?` },
      superCookie,
    );
    expect(questions.status).toBe(200);
  });

  it('a restore from the trash and a version restore wait too', async () => {
    const variety = await makeVariety(t.ctx, { location: 'Paniqui' });
    await t.app.inject({
      method: 'PUT',
      url: '/api/review/settings/rice_seed_varieties',
      headers: { cookie: superCookie },
      payload: { enabled: false },
    });
    await call('PUT', `/api/varieties/${variety.id}`, {
      ...varietyBody({ varietyName: variety.varietyName, location: 'Moncada' }),
      version: variety.version,
    });
    await call('DELETE', `/api/varieties/${variety.id}`);
    await t.app.inject({
      method: 'PUT',
      url: '/api/review/settings/rice_seed_varieties',
      headers: { cookie: superCookie },
      payload: { enabled: true },
    });

    const restore = await call('POST', `/api/trash/rice_seed_varieties/${variety.id}/restore`, undefined, superCookie);
    expect(restore.status).toBe(202);
    expect(await publicVariety(variety.id)).toBeUndefined();
    const other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    expect((await call('POST', `/api/review/changes/${restore.body.review.id}/approve`, { version: 1 }, other)).status).toBe(200);
    expect((await publicVariety(variety.id))?.location).toBe('Moncada');

    const current = (await call('GET', `/api/varieties/${variety.id}`)).body;
    const back = await call('POST', `/api/varieties/${variety.id}/versions/1/restore`, { version: current.version });
    expect(back.status).toBe(202);
    expect(back.body.review.action).toBe('version_restore');
    const detail = (await call('GET', `/api/review/changes/${back.body.review.id}`, undefined, superCookie)).body;
    expect(detail.comparison.fields.find((f: Json) => f.key === 'location')).toMatchObject({ from: 'Moncada', to: 'Paniqui' });
    expect((await approve(back.body.review.id)).status).toBe(200);
    expect((await publicVariety(variety.id))?.location).toBe('Paniqui');
  });

  it('a scheduled publish fires once its time has come, and not before', async () => {
    const variety = await makeVariety(t.ctx, { location: 'Bamban' });
    const edit = await call('PUT', `/api/varieties/${variety.id}`, {
      ...varietyBody({ varietyName: variety.varietyName, location: 'Concepcion' }),
      version: variety.version,
    });
    const id = edit.body.review.id;
    expect(
      (
        await call(
          'POST',
          `/api/review/changes/${id}/approve`,
          { version: 1, publishAt: new Date(Date.now() - 60_000).toISOString() },
          superCookie,
        )
      ).status,
    ).toBe(400);
    const at = new Date(Date.now() + 2_000).toISOString().replace('Z', '+00:00');
    const approved = await call('POST', `/api/review/changes/${id}/approve`, { version: 1, publishAt: at }, superCookie);
    expect(approved.body.change).toMatchObject({ state: 'approved', scheduledAt: new Date(at).toISOString() });
    expect(await publishDue(t.ctx)).toBe(0);
    expect((await publicVariety(variety.id))?.location).toBe('Bamban');
    // The scheduler's run (every instance, every few seconds) once the time has come.
    await expect
      .poll(
        async () => {
          await publishDue(t.ctx);
          return (await publicVariety(variety.id))?.location;
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe('Concepcion');
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select('action')
      .where('documentId', '=', variety.id)
      .where('action', 'in', ['SCHEDULE', 'PUBLISH'])
      .execute();
    expect(entries.map((e) => e.action).sort()).toEqual(['PUBLISH', 'SCHEDULE']);
  });

  it('photos of a pending disease edit are held, shown to reviewers, and in the training set only when asked', async () => {
    await photoRuntime(t.ctx).queue.idle();
    const kind = CATALOG_KINDS.disease;
    const first = await stagePhotos(t.ctx, 'disease', reviewer, 1);
    const disease = await createCatalogService(t.ctx, kind).create(
      catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(`Leaf scald ${Date.now()}`, first)),
      reviewer,
      { skipImageMinimum: true },
    );
    const added = await stagePhotos(t.ctx, 'disease', author, 2);
    await photoRuntime(t.ctx).queue.idle();
    const edit = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(disease.name, [...first, ...added]),
      version: disease.version,
    });
    expect(edit.status).toBe(202);
    // The staged clean-up keeps them however old they are.
    expect(await photoRuntime(t.ctx).cleanupStaged(0, Date.now() + 86_400_000)).toBe(0);
    const detail = (await call('GET', `/api/review/changes/${edit.body.review.id}`, undefined, superCookie)).body;
    expect(detail.comparison.photos).toMatchObject({ fromCount: 1, toCount: 3 });
    const thumb = detail.comparison.photos.added.items[0].thumbUrl as string;
    expect((await t.app.inject({ method: 'GET', url: thumb, headers: { cookie: superCookie } })).statusCode).toBe(200);

    const zip = (pending: boolean) =>
      t.app.inject({
        method: 'GET',
        url: `/api/training-sets/diseases?diseaseId=${disease.id}&layout=flat${pending ? '&pending=true' : ''}`,
        headers: { cookie: superCookie },
      });
    expect((await zip(false)).headers['x-photo-count']).toBe('1');
    expect((await zip(true)).headers['x-photo-count']).toBe('3');
    const health = async (pending: boolean) =>
      ((await call('GET', `/api/dataset-health${pending ? '?pending=true' : ''}`, undefined, superCookie)).body.diseases as Json[]).find(
        (d) => d.id === disease.id,
      )?.photos;
    expect(await health(false)).toBe(1);
    expect(await health(true)).toBe(3);
  });

  it("a new pest sent for review ends its author's draft then, and its publish keeps a newer draft", async () => {
    const draft = (name: string) => call('PUT', '/api/rice_pests/draft', { fields: { name }, photos: [] });
    const photos = await stagePhotos(t.ctx, 'pest', author, 1);
    expect((await draft('Rice bug')).status).toBe(200);
    const sent = await call('POST', '/api/rice_pests', entryBody(`Rice bug ${Date.now()}`, photos));
    expect(sent.status).toBe(202);
    expect((await call('GET', '/api/rice_pests/draft')).body).toBeNull();
    await draft('Golden apple snail');
    expect((await approve(sent.body.review.id)).status).toBe(200);
    expect((await call('GET', '/api/rice_pests/draft')).body).toMatchObject({ fields: { name: 'Golden apple snail' } });
    const pests = (await call('GET', '/api/public/v1/pests')).body.items as Json[];
    expect(pests.some((p) => p.name === sent.body.review.recordName)).toBe(true);
  });

  it('an import is refused with errors that stop it, refuses records with an open change, and is decided again by a rebase', async () => {
    const broken = await postSheet(
      t.app,
      adminCookie,
      '/api/varieties/import',
      'broken.csv',
      csvOf([VARIETY_HEADER, varietyRow({ 'Maturity days': 'soon' })]),
    );
    expect(broken.status).toBe(400);

    const variety = await makeVariety(t.ctx, { location: 'Tarlac City' });
    const file = () => csvOf([VARIETY_HEADER, varietyRow({ 'Variety name': variety.varietyName, Location: 'Capas' })]);
    const sent = await postSheet(t.app, adminCookie, '/api/varieties/import', 'update.csv', file());
    expect(sent.status).toBe(202);
    expect(sent.body.review.summary).toMatchObject({ update: 1 });
    const rows = (await call('GET', `/api/review/changes/${sent.body.review.id}`, undefined, superCookie)).body.importRows as Json[];
    expect(rows[0]).toMatchObject({ status: 'update', values: expect.objectContaining({ location: 'Capas' }) });
    // An edit of the variety waiting for review holds it: an import that would update it is refused.
    const other = await makeVariety(t.ctx, { location: 'Moncada' });
    const edit = await call('PUT', `/api/varieties/${other.id}`, {
      ...varietyBody({ varietyName: other.varietyName, location: 'Paniqui' }),
      version: other.version,
    });
    expect(edit.status).toBe(202);
    const blocked = await postSheet(
      t.app,
      adminCookie,
      '/api/varieties/import',
      'other.csv',
      csvOf([VARIETY_HEADER, varietyRow({ 'Variety name': other.varietyName, Location: 'Capas' })]),
    );
    expect(blocked.status).toBe(409);

    // The variety changes before the import is approved: 409, then a rebase decides it again.
    await t.app.inject({
      method: 'PUT',
      url: '/api/review/settings/rice_seed_varieties',
      headers: { cookie: superCookie },
      payload: { enabled: false },
    });
    await call(
      'PUT',
      `/api/varieties/${variety.id}`,
      { ...varietyBody({ varietyName: variety.varietyName, location: 'Gerona' }), version: variety.version },
      superCookie,
    );
    await t.app.inject({
      method: 'PUT',
      url: '/api/review/settings/rice_seed_varieties',
      headers: { cookie: superCookie },
      payload: { enabled: true },
    });
    const refused = await approve(sent.body.review.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('Bring the change up to date');
    const rebased = await call('POST', `/api/review/changes/${sent.body.review.id}/rebase`, { version: 1 });
    expect(rebased.status).toBe(200);
    expect((await approve(sent.body.review.id, rebased.body.change.version)).status).toBe(200);
    expect((await publicVariety(variety.id))?.location).toBe('Capas');
  });
});
