import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { LANGUAGE_TEXTS } from '../../../common/languages.js';
import { catalogCreateSchema } from '../../../common/schemas/catalog.js';
import { createCatalogService } from '../../../server/modules/content/catalog/service.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { entryBody, stagePhotos } from '../../fixtures/catalog.js';
import { clockTicks, loginAs, makeAccount, type TestAccount } from '../../fixtures/factories.js';
import { makeVariety } from '../../fixtures/varieties.js';

let t: TestApp;
let superA: TestAccount;
let adminCookie: string;
let superCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  superA = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  superCookie = await loginAs(t.app, superA);
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
async function call(method: string, url: string, payload?: unknown, cookie = adminCookie, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as Json) : {}, headers: res.headers };
}

async function makeDisease(name: string, extra: Record<string, unknown> = {}): Promise<Json> {
  const photos = await stagePhotos(t.ctx, 'disease', superA, 1);
  const created = await createCatalogService(t.ctx, CATALOG_KINDS.disease).create(
    catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(name, photos, extra)),
    superA,
    { skipImageMinimum: true },
  );
  return created as unknown as Json;
}
const translate = (collection: string, id: string, lang: string, body: Json, cookie = adminCookie) =>
  call('PUT', `/api/translations/${collection}/${id}/${lang}`, body, cookie);
const publicDisease = async (id: string, query = '', headers: Record<string, string> = {}) => {
  const res = await call('GET', `/api/public/v1/diseases${query}`, undefined, '', headers);
  return { ...res, item: (res.body.items as Json[]).find((d) => d.id === id) ?? {} };
};

describe("the farmers' languages", () => {
  it('keeps languages as managed data: Filipino from the start, others added by super admins, audited', async () => {
    expect((await call('GET', '/api/languages')).body.items).toEqual([{ code: 'fil', name: 'Filipino', enabled: true }]);
    expect((await call('POST', '/api/languages', { code: 'pam', name: 'Kapampangan' })).status).toBe(403);
    const added = await call('POST', '/api/languages', { code: 'pam', name: 'Kapampangan' }, superCookie);
    expect(added.status).toBe(201);
    expect(added.body.items.map((l: Json) => [l.code, l.enabled])).toEqual([
      ['fil', true],
      ['pam', false],
    ]);
    expect((await call('POST', '/api/languages', { code: 'PAM', name: 'Again' }, superCookie)).status).toBe(409);
    expect((await call('POST', '/api/languages', { code: 'en', name: 'English' }, superCookie)).body.error.message).toBe(
      LANGUAGE_TEXTS.errors.english,
    );
    expect((await call('POST', '/api/languages', { code: 'kapampangan', name: 'x' }, superCookie)).status).toBe(400);
    const audit = await t.ctx.db.selectFrom('audit_logs').select(['action', 'documentId']).where('collection', '=', 'languages').execute();
    expect(audit).toEqual([{ action: 'CREATE', documentId: 'pam' }]);
  });

  it('serves each field in the asked language, falling back to English field by field; unknown languages are English', async () => {
    const disease = await makeDisease(`Blast ${Date.now()}`, { symptoms: 'Diamond-shaped lesions.', treatments: 'Spray 2 g per litre.' });
    const saved = await translate('rice_local_diseases', disease.id, 'fil', {
      version: disease.version,
      texts: { symptoms: 'Mga sugat na hugis-diyamante; ñ at é ay buo.' },
    });
    expect(saved.status).toBe(200);
    const fil = await publicDisease(disease.id, '?lang=fil');
    expect(fil.body.language).toBe('fil');
    expect(fil.item).toMatchObject({ symptoms: 'Mga sugat na hugis-diyamante; ñ at é ay buo.', treatments: 'Spray 2 g per litre.' });
    // Only the fields that came in English are named: the others came in the language asked.
    expect(fil.item.fieldLanguages).toMatchObject({ treatments: 'en', name: 'en', cause: 'en' });
    expect(fil.item.fieldLanguages).not.toHaveProperty('symptoms');
    expect(fil.headers['content-language']).toBe('fil');
    expect(String(fil.headers.vary)).toContain('Accept-Language');
    // Accept-Language, Tagalog's code, a region: Filipino.
    expect((await publicDisease(disease.id, '', { 'accept-language': 'tl-PH, en;q=0.5' })).item.symptoms).toContain('hugis-diyamante');
    expect((await publicDisease(disease.id, '', { 'accept-language': 'fil-PH' })).item.symptoms).toContain('hugis-diyamante');
    // Unknown languages are English, never an error; English has no fieldLanguages.
    const unknown = await publicDisease(disease.id, '?lang=xx-YY');
    expect(unknown.status).toBe(200);
    expect(unknown.item.symptoms).toBe('Diamond-shaped lesions.');
    expect(unknown.item.fieldLanguages).toBeUndefined();
    const english = await publicDisease(disease.id);
    expect(english.headers.etag).not.toBe(fil.headers.etag);
  });

  it('marks a translation "English changed since" when the English changes, serves it still, and clears the mark when updated or confirmed', async () => {
    const disease = await makeDisease(`Sheath blight ${Date.now()}`, { symptoms: 'Oval lesions.', cause: 'A fungus.' });
    let version = disease.version;
    await translate('rice_local_diseases', disease.id, 'fil', {
      version,
      texts: { symptoms: 'Hugis-itlog na sugat.', cause: 'Isang fungus.' },
    });
    version += 1;
    const before = await call('GET', `/api/translations/rice_local_diseases/${disease.id}`);
    expect(before.body.fields.find((f: Json) => f.field === 'symptoms').translations.fil).toMatchObject({ stale: false });
    const since = new Date().toISOString();
    await clockTicks();
    const edit = await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(
        disease.name,
        disease.images.map((i: Json) => i.id),
        { symptoms: 'Oval, grey-green lesions.', cause: 'A fungus.' },
      ),
      version,
    });
    expect(edit.status).toBe(200);
    version = edit.body.version;
    const after = (await call('GET', `/api/translations/rice_local_diseases/${disease.id}`)).body;
    const symptoms = after.fields.find((f: Json) => f.field === 'symptoms');
    expect(symptoms.translations.fil).toMatchObject({ stale: true, sourceThen: 'Oval lesions.', text: 'Hugis-itlog na sugat.' });
    expect(after.fields.find((f: Json) => f.field === 'cause').translations.fil.stale).toBe(false);
    expect((await publicDisease(disease.id, '?lang=fil')).item.symptoms).toBe('Hugis-itlog na sugat.');
    const status = await call('GET', '/api/translations/rice_local_diseases/status?lang=fil&filter=stale');
    expect(status.body.items.map((i: Json) => i.recordId)).toContain(disease.id);

    // Confirmed as still right: the mark clears, the text stays; a version of the record.
    const confirmed = await translate('rice_local_diseases', disease.id, 'fil', { version, confirm: ['symptoms'] });
    expect(confirmed.body.fields.find((f: Json) => f.field === 'symptoms').translations.fil).toMatchObject({
      stale: false,
      text: 'Hugis-itlog na sugat.',
    });
    version += 1;
    // A stale one updated clears too; the farmer app's next sync brings the record.
    await call('PUT', `/api/rice_diseases/${disease.id}`, {
      ...entryBody(
        disease.name,
        disease.images.map((i: Json) => i.id),
        { symptoms: 'Grey lesions.', cause: 'A fungus.' },
      ),
      version,
    });
    version += 1;
    expect(
      (await call('GET', `/api/translations/rice_local_diseases/${disease.id}`)).body.fields.find((f: Json) => f.field === 'symptoms')
        .translations.fil.stale,
    ).toBe(true);
    const updated = await translate('rice_local_diseases', disease.id, 'fil', { version, texts: { symptoms: 'Kulay-abong sugat.' } });
    expect(updated.body.fields.find((f: Json) => f.field === 'symptoms').translations.fil.stale).toBe(false);
    const delta = await publicDisease(disease.id, `?lang=fil&updatedSince=${encodeURIComponent(since)}`);
    expect(delta.item.symptoms).toBe('Kulay-abong sugat.');
    // A stale version number is a 409; each translation save is a version that compares field by field.
    expect((await translate('rice_local_diseases', disease.id, 'fil', { version: 1, texts: { cause: 'x' } })).status).toBe(409);
    const versions = (await call('GET', `/api/rice_diseases/${disease.id}/versions`)).body;
    expect(versions.items[0].description).toContain('Symptoms (fil)');
    const compare = (
      await call('GET', `/api/rice_diseases/${disease.id}/versions/compare?from=${versions.items[1].number}&to=${versions.items[0].number}`)
    ).body;
    expect(compare.fields.find((f: Json) => f.key === 'symptoms@fil')).toMatchObject({
      from: 'Hugis-itlog na sugat.',
      to: 'Kulay-abong sugat.',
      changed: true,
    });
  });

  it("translates option values and a variety's location; the console's search finds records by translated text", async () => {
    const variety = await makeVariety(t.ctx, { location: 'Lowland farms', season: ['Dry'] });
    const doc = (await call('GET', '/api/translations/maintenance/rice_varieties_enums', undefined, superCookie)).body;
    expect(
      (await translate('maintenance', 'rice_varieties_enums', 'fil', { version: doc.version, texts: { 'seasons:Dry': 'Tag-araw' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await translate(
          'maintenance',
          'rice_varieties_enums',
          'fil',
          { version: doc.version, texts: { 'seasons:Dry': 'Tag-araw' } },
          superCookie,
        )
      ).status,
    ).toBe(200);
    await translate('rice_seed_varieties', variety.id, 'fil', {
      version: variety.version,
      texts: { location: 'Mabababang bukirin sa Tarlac' },
    });
    const items = (await call('GET', '/api/public/v1/varieties?lang=fil', undefined, '')).body.items as Json[];
    const served = items.find((v) => v.id === variety.id)!;
    expect(served).toMatchObject({ location: 'Mabababang bukirin sa Tarlac', season: ['Tag-araw'], varietyName: variety.varietyName });
    expect(served.fieldLanguages).not.toHaveProperty('location');
    expect(served.fieldLanguages).not.toHaveProperty('season');
    expect(served.fieldLanguages).toMatchObject({ plantingMethod: 'en' });
    const options = (await call('GET', '/api/public/v1/options?lang=fil', undefined, '')).body;
    expect(options.seasons).toContain('Tag-araw');
    // A new translation of a value is served at once, though the lists were read for the answers above.
    const again = (await call('GET', '/api/translations/maintenance/rice_varieties_enums', undefined, superCookie)).body;
    expect(
      (
        await translate(
          'maintenance',
          'rice_varieties_enums',
          'fil',
          { version: again.version, texts: { 'seasons:Dry': 'Tag-init' } },
          superCookie,
        )
      ).status,
    ).toBe(200);
    expect((await call('GET', '/api/public/v1/options?lang=fil', undefined, '')).body.seasons).toContain('Tag-init');
    const retranslated = ((await call('GET', '/api/public/v1/varieties?lang=fil', undefined, '')).body.items as Json[]).find(
      (v) => v.id === variety.id,
    )!;
    expect(retranslated.season).toEqual(['Tag-init']);

    const search = (await call('GET', `/api/varieties?search=${encodeURIComponent('mabababang bukirin')}`)).body;
    expect(search.items.map((v: Json) => v.id)).toContain(variety.id);
    const disease = await makeDisease(`Tungro ${Date.now()}`, { description: 'Yellowing.' });
    await translate('rice_local_diseases', disease.id, 'fil', {
      version: disease.version,
      texts: { description: 'Pagdilaw ng dahon, ñga.' },
    });
    const found = (await call('GET', `/api/rice_diseases?search=${encodeURIComponent('Pagdilaw ng DAHON')}`)).body;
    expect(found.items.map((d: Json) => d.id)).toEqual([disease.id]);
    // Non-ASCII letters match in either case too (SQLite folds only ASCII by itself).
    const accented = (await call('GET', `/api/rice_diseases?search=${encodeURIComponent('DAHON, ÑGA')}`)).body;
    expect(accented.items.map((d: Json) => d.id)).toEqual([disease.id]);
  });

  it('completeness per language and collection counts a new translation, and a stale one', async () => {
    const fil = async () =>
      ((await call('GET', '/api/translations/completeness')).body.items as Json[]).find(
        (i) => i.collection === 'rice_local_pests' && i.lang === 'fil',
      )!;
    const before = await fil();
    const photos = await stagePhotos(t.ctx, 'pest', superA, 1);
    const pest = (await createCatalogService(t.ctx, CATALOG_KINDS.pest).create(
      catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(`Stem borer ${Date.now()}`, photos)),
      superA,
    )) as unknown as Json;
    const added = await fil();
    expect(added.total - before.total).toBe(6 - 1); // name, description, cause, symptoms, treatments
    expect(added.missing - before.missing).toBe(5);
    await translate('rice_local_pests', pest.id, 'fil', { version: pest.version, texts: { cause: 'Uod.' } });
    const translated = await fil();
    expect([translated.translated - added.translated, translated.missing - added.missing, translated.stale - added.stale]).toEqual([
      1, -1, 0,
    ]);
    await call('PUT', `/api/rice_pests/${pest.id}`, {
      ...entryBody(
        pest.name,
        pest.images.map((i: Json) => i.id),
        { cause: 'A moth larva.' },
      ),
      version: pest.version + 1,
    });
    expect((await fil()).stale - translated.stale).toBe(1);
  });

  it('a translation goes to review when review is on for its collection', async () => {
    const disease = await makeDisease(`Bakanae ${Date.now()}`, { treatments: 'Seed treatment.' });
    await call('PUT', '/api/review/settings/rice_local_diseases', { enabled: true }, superCookie);
    const sent = await translate('rice_local_diseases', disease.id, 'fil', {
      version: disease.version,
      texts: { treatments: 'Paggamot sa binhi.' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.review.action).toBe('translate');
    expect((await publicDisease(disease.id, '?lang=fil')).item.treatments).toBe('Seed treatment.');
    const detail = (await call('GET', `/api/review/changes/${sent.body.review.id}`, undefined, superCookie)).body;
    expect(detail.comparison.fields.find((f: Json) => f.key === 'treatments@fil')).toMatchObject({
      from: null,
      to: 'Paggamot sa binhi.',
      changed: true,
    });
    expect((await call('POST', `/api/review/changes/${sent.body.review.id}/approve`, { version: 1 }, superCookie)).status).toBe(200);
    expect((await publicDisease(disease.id, '?lang=fil')).item.treatments).toBe('Paggamot sa binhi.');
    await call('PUT', '/api/review/settings/rice_local_diseases', { enabled: false }, superCookie);
  });

  it("a version restored brings its translations back; an option value's translation and a language in or out of use reach the next sync", async () => {
    const disease = await makeDisease(`Leaf smut ${Date.now()}`, { symptoms: 'Black spots.' });
    await translate('rice_local_diseases', disease.id, 'fil', { version: disease.version, texts: { symptoms: 'Itim na batik.' } });
    await translate('rice_local_diseases', disease.id, 'fil', { version: disease.version + 1, texts: { symptoms: 'Maling salin.' } });
    const versions = (await call('GET', `/api/rice_diseases/${disease.id}/versions`)).body;
    const good = versions.items.find((v: Json) => v.recordVersion === disease.version + 1).number;
    const restored = await call('POST', `/api/rice_diseases/${disease.id}/versions/${good}/restore`, { version: disease.version + 2 });
    expect(restored.status).toBe(200);
    expect((await publicDisease(disease.id, '?lang=fil')).item.symptoms).toBe('Itim na batik.');

    const variety = await makeVariety(t.ctx, { environment: ['Low Irrigated Land'] });
    const since = new Date().toISOString();
    await clockTicks();
    const doc = (await call('GET', '/api/translations/maintenance/rice_varieties_enums', undefined, superCookie)).body;
    expect(
      (
        await translate(
          'maintenance',
          'rice_varieties_enums',
          'fil',
          { version: doc.version, texts: { 'environments:Low Irrigated Land': 'Mababang patubig' } },
          superCookie,
        )
      ).status,
    ).toBe(200);
    const delta = (await call('GET', `/api/public/v1/varieties?lang=fil&updatedSince=${encodeURIComponent(since)}`, undefined, '')).body
      .items as Json[];
    expect(delta.find((v) => v.id === variety.id)?.environment).toEqual(['Mababang patubig']);

    const before = new Date().toISOString();
    await clockTicks();
    expect((await call('PUT', '/api/languages/fil', { name: 'Filipino', enabled: false }, superCookie)).status).toBe(200);
    const english = (await call('GET', `/api/public/v1/diseases?lang=fil&updatedSince=${encodeURIComponent(before)}`, undefined, '')).body;
    expect(english.language).toBeUndefined();
    expect((english.items as Json[]).find((d) => d.id === disease.id)?.symptoms).toBe('Black spots.');
    await call('PUT', '/api/languages/fil', { name: 'Filipino', enabled: true }, superCookie);
  });

  it("an option list's version restored brings its values' translations back (for the values it has), and the next sync carries them", async () => {
    const docUrl = '/api/maintenance/documents/rice_diseases_enums';
    const doc = (await call('GET', docUrl, undefined, superCookie)).body;
    const part = `Flag leaf ${Date.now()}`;
    const added = (
      await call('PUT', docUrl, { version: doc.version, lists: { affectedParts: [...doc.lists.affectedParts, part] } }, superCookie)
    ).body;
    const at = (added.document ?? added).version as number;
    expect(
      (
        await translate(
          'maintenance',
          'rice_diseases_enums',
          'fil',
          { version: at, texts: { [`affectedParts:${part}`]: 'Watawat na dahon' } },
          superCookie,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await translate(
          'maintenance',
          'rice_diseases_enums',
          'fil',
          { version: at + 1, texts: { [`affectedParts:${part}`]: 'Maling salin' } },
          superCookie,
        )
      ).status,
    ).toBe(200);
    const disease = await makeDisease(`Sheath rot ${Date.now()}`, { affectedParts: [part] });
    const versions = (await call('GET', `${docUrl}/versions`, undefined, superCookie)).body.items as Json[];
    const good = versions.find((v) => v.recordVersion === at + 1)!.number;
    const since = new Date().toISOString();
    await clockTicks();
    const restored = await call('POST', `${docUrl}/versions/${good}/restore`, { version: at + 2 }, superCookie);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const served = (await publicDisease(disease.id, `?lang=fil&updatedSince=${encodeURIComponent(since)}`)).item;
    expect(served.affectedParts).toEqual(['Watawat na dahon']);
    expect(served.fieldLanguages).not.toHaveProperty('affectedParts');
    const state = (await call('GET', '/api/translations/maintenance/rice_diseases_enums', undefined, superCookie)).body;
    expect(JSON.stringify(state)).toContain('Watawat na dahon');
    expect(JSON.stringify(state)).not.toContain('Maling salin');
  });
});

describe('a record with nothing to translate yet', () => {
  it('opens with no fields rather than "Not found", and an unknown record is still a 404', async () => {
    const { createVarietiesService } = await import('../../../server/modules/content/varieties/service.js');
    const bare = await createVarietiesService(t.ctx).createStored({ varietyName: `PSB Rc bare ${Date.now()}` }, null);
    const opened = await call('GET', `/api/translations/rice_seed_varieties/${bare.id}`);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ recordId: bare.id, name: bare.varietyName, version: bare.version, fields: [] });
    expect((await call('GET', '/api/translations/rice_seed_varieties/no-such-variety')).status).toBe(404);
  });
});
