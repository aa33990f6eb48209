import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../../common/collections.js';
import { LANGUAGE_TEXTS } from '../../../common/languages.js';
import { REVIEW_TEXTS } from '../../../common/review.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';
import { sheetUpload } from '../../fixtures/spreadsheets.js';

let t: TestApp;
let author: string;
let authorId: string;
let reviewer: string;
beforeAll(async () => {
  t = await createTestApp();
  const account = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  authorId = account.id;
  author = await loginAs(t.app, account);
  reviewer = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
async function call(method: string, url: string, payload?: unknown, cookie = author) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as Json) : {} };
}
async function upload(path: 'import' | 'import/preview', xml: string) {
  const body = sheetUpload('palayan-fil.xlf', Buffer.from(xml, 'utf8'));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/translations/${path}?lang=fil`,
    payload: body.payload,
    headers: { ...body.headers, cookie: author },
  });
  return { status: res.statusCode, body: res.json() as Json };
}
const exported = async () =>
  (await t.app.inject({ url: '/api/translations/export?lang=fil&format=xliff', headers: { cookie: author } })).body;
/** Fills the targets of the units whose English holds `tag`; the others stay as exported. */
const fill = (xml: string, tag: string, text: (source: string) => string) =>
  xml.replace(/<source>([^<]*)<\/source>(\s*<target>[^<]*<\/target>)?/g, (m, source: string) =>
    source.includes(tag) ? `<source>${source}</source><target>${text(source)}</target>` : m,
  );
const filipino = (collection: string, tag: string) =>
  t.ctx.db
    .selectFrom('translations')
    .select(['recordId', 'field', 'text'])
    .where('collection', '=', collection)
    .where('lang', '=', 'fil')
    .where('text', 'like', `%${tag}%`)
    .orderBy('recordId')
    .orderBy('field')
    .execute();

/** A pest and a disease stored directly, each with its farmer-facing English. */
async function store(tag: string): Promise<{ pest: string; disease: string }> {
  const now = new Date().toISOString();
  const row = (id: string, kind: string) => ({
    id,
    name: `${kind} ${tag}`,
    description: `${kind} description ${tag}`,
    cause: `${kind} cause ${tag}`,
    symptoms: `${kind} symptoms ${tag}`,
    treatments: `${kind} treatments ${tag}`,
    createdAt: now,
    updatedAt: now,
  });
  await t.ctx.db
    .insertInto('rice_local_pests')
    .values(row(`pest-${tag}`, 'Pest'))
    .execute();
  await t.ctx.db
    .insertInto('rice_local_diseases')
    .values(row(`disease-${tag}`, 'Disease'))
    .execute();
  return { pest: `pest-${tag}`, disease: `disease-${tag}` };
}

describe("a translators' file while review is on", () => {
  it('sends the changes of reviewed collections for review, writes the others at once, and publishes on approval', async () => {
    const tag = `fr${Date.now()}`;
    const { pest } = await store(tag);
    expect((await call('PUT', '/api/review/settings/rice_local_pests', { enabled: true })).status).toBe(200);
    const xml = fill(await exported(), tag, (s) => `${s} (sa Filipino: ñ)`);

    const preview = await upload('import/preview', xml);
    expect(preview.body.counts).toMatchObject({ changed: 10, error: 0 });
    expect(preview.body.forReview).toEqual([COLLECTIONS.rice_local_pests.label]);

    // Another account's open change of the pest refuses the whole file: its disease part is not written either.
    const record = (await call('GET', `/api/translations/rice_local_pests/${pest}`, undefined, reviewer)).body;
    const held = await call(
      'PUT',
      `/api/translations/rice_local_pests/${pest}/fil`,
      { version: record.version, texts: { name: 'Uod' }, confirm: [] },
      reviewer,
    );
    expect(held.status).toBe(202);
    const refused = await upload('import', xml);
    expect(refused.status).toBe(409);
    expect(await filipino('rice_local_diseases', tag)).toHaveLength(0);
    expect((await call('POST', `/api/review/changes/${held.body.review.id}/withdraw`, { version: 1 }, reviewer)).status).toBe(200);

    const done = await upload('import', xml);
    expect(done.status).toBe(200);
    expect(done.body.changed).toBe(5);
    expect(done.body.forReview).toEqual([
      { id: expect.any(String), collection: 'rice_local_pests', label: COLLECTIONS.rice_local_pests.label, units: 5 },
    ]);
    expect(await filipino('rice_local_diseases', tag)).toHaveLength(5);
    expect(await filipino('rice_local_pests', tag)).toHaveLength(0);

    const id = done.body.forReview[0].id as string;
    const detail = (await call('GET', `/api/review/changes/${id}`, undefined, reviewer)).body;
    expect(detail.change).toMatchObject({ action: 'translate_file', state: 'pending', collection: 'rice_local_pests' });
    expect(detail.comparison).toBeNull();
    expect(detail.importRows).toHaveLength(5);
    expect(detail.importRowCount).toBe(5);
    expect(detail.importRows.find((r: Json) => r.changed[0] === 'Symptoms')).toMatchObject({
      name: `Pest ${tag}`,
      status: 'new',
      values: { english: `Pest symptoms ${tag}`, published: '', proposed: `Pest symptoms ${tag} (sa Filipino: ñ)` },
    });

    const approved = await call('POST', `/api/review/changes/${id}/approve`, { version: 1 }, reviewer);
    expect(approved.status).toBe(200);
    expect(approved.body.change.state).toBe('published');
    expect((await filipino('rice_local_pests', tag)).find((r) => r.field === 'symptoms')?.text).toBe(
      `Pest symptoms ${tag} (sa Filipino: ñ)`,
    );
    expect((await call('GET', `/api/rice_pests/${pest}/versions`)).body.items).toHaveLength(1);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select('description')
      .where('collection', '=', 'translations')
      .where('description', 'like', '%(reviewed)%')
      .execute();
    expect(audit).toHaveLength(1);
    await call('PUT', '/api/review/settings/rice_local_pests', { enabled: false });
  });

  it("refuses to publish a file's change over a translation changed since (409), and a rebase decides it again", async () => {
    const tag = `rb${Date.now()}`;
    const { pest } = await store(tag);
    await call('PUT', '/api/review/settings/rice_local_pests', { enabled: true });
    const sent = await upload(
      'import',
      fill(await exported(), tag, (s) => (s.startsWith('Pest') ? `${s} (fil)` : '')),
    );
    const id = sent.body.forReview[0].id as string;
    expect(sent.body.forReview[0].units).toBe(5);

    // The editor's translation of the pest's cause is reviewed and published first.
    const record = (await call('GET', `/api/translations/rice_local_pests/${pest}`)).body;
    const edit = await call('PUT', `/api/translations/rice_local_pests/${pest}/fil`, {
      version: record.version,
      texts: { cause: 'Sanhi na iba.' },
      confirm: [],
    });
    expect(edit.status).toBe(202);
    expect((await call('POST', `/api/review/changes/${edit.body.review.id}/approve`, { version: 1 }, reviewer)).status).toBe(200);

    const refused = await call('POST', `/api/review/changes/${id}/approve`, { version: 1 }, reviewer);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(REVIEW_TEXTS.errors.baseMoved);
    expect(await filipino('rice_local_pests', `${tag} (fil)`)).toHaveLength(0);

    const rebased = await call('POST', `/api/review/changes/${id}/rebase`, { version: 1 });
    expect(rebased.status).toBe(200);
    const rows = (await call('GET', `/api/review/changes/${id}`, undefined, reviewer)).body.importRows as Json[];
    expect(rows.find((r) => r.changed[0] === 'Cause')).toMatchObject({
      status: 'updated',
      values: { published: 'Sanhi na iba.', proposed: `Pest cause ${tag} (fil)` },
    });
    expect((await call('POST', `/api/review/changes/${id}/approve`, { version: rebased.body.change.version }, reviewer)).status).toBe(200);
    expect(await filipino('rice_local_pests', `${tag} (fil)`)).toHaveLength(5);

    // A file whose one change the console made meanwhile: its rebase has nothing left to propose.
    const next = await upload(
      'import',
      fill(await exported(), tag, (s) => (s.startsWith('Pest cause') ? 'Sanhi: uod.' : s.startsWith('Pest') ? `${s} (fil)` : '')),
    );
    expect(next.body.forReview[0].units).toBe(1);
    const same = await call('PUT', `/api/translations/rice_local_pests/${pest}/fil`, {
      version: record.version + 2,
      texts: { cause: 'Sanhi: uod.' },
      confirm: [],
    });
    expect((await call('POST', `/api/review/changes/${same.body.review.id}/approve`, { version: 1 }, reviewer)).status).toBe(200);
    const nothing = await call('POST', `/api/review/changes/${next.body.forReview[0].id}/rebase`, { version: 1 });
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.message).toBe(LANGUAGE_TEXTS.import.nothingLeft);
    await call('PUT', '/api/review/settings/rice_local_pests', { enabled: false });
  });

  it('does not publish option values for an author who is no longer a super admin', async () => {
    await call('PUT', '/api/review/settings/maintenance', { enabled: true });
    const xml = await exported();
    const ids = [...xml.matchAll(/<unit id="([^"]+)"/g)].map((m) => m[1]!);
    const option = ids.find((id) => Buffer.from(id, 'base64url').toString('utf8').startsWith('maintenance/'))!;
    const file = xml.replace(
      new RegExp(`(<unit id="${option}"[\\s\\S]*?<source>[^<]*</source>)(\\s*<target>[^<]*</target>)?`),
      '$1<target>Halagang isinalin</target>',
    );
    const sent = await upload('import', file);
    expect(sent.body.forReview).toEqual([expect.objectContaining({ collection: 'maintenance', units: 1 })]);
    await t.ctx.db.updateTable('accounts').set({ role: 'ADMIN' }).where('id', '=', authorId).execute();
    const refused = await call('POST', `/api/review/changes/${sent.body.forReview[0].id}/approve`, { version: 1 }, reviewer);
    expect(refused.status).toBe(403);
    expect(await filipino('maintenance', 'Halagang isinalin')).toHaveLength(0);
    await t.ctx.db.updateTable('accounts').set({ role: 'SYSTEM_ADMIN' }).where('id', '=', authorId).execute();
    await call('PUT', '/api/review/settings/maintenance', { enabled: false }, reviewer);
  });
});
