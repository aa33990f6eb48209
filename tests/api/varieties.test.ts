import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { varietyInputSchema } from '../../common/schemas/varieties.js';
import { VARIETIES, VARIETY_MESSAGES } from '../../common/varieties.js';
import { VARIETY_ENUMS_ID } from '../../common/schemas/maintenance.js';
import { sqlitePath } from '../../server/db/connection.js';
import { seed, DEMO_VARIETIES_FILE } from '../../server/seed/varieties.js';
import { getVarietyEnums } from '../../server/modules/content/maintenance/index.js';
import { VarietySearchCache } from '../../server/modules/content/varieties/search/cache.js';
import { readCountedStamp, tableStamp } from '../../server/platform/cache/stamps.js';
import type { LiveEvent } from '../../server/platform/writes/events.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { makeVariety, varietyBody } from '../fixtures/varieties.js';

let t: TestApp;
let admin: TestAccount;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAccount(t.ctx, { role: 'ADMIN' });
  cookie = await loginAs(t.app, admin);
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, any>;
const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = { cookie },
) => {
  const res = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  return { status: res.statusCode, body: (res.body ? res.json() : null) as Json };
};
const countRows = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('rice_seed_varieties')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const auditFor = (documentId: string) =>
  t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', documentId).orderBy('seq').execute();

/** The form's verdict on a body: the first message per field, as react-hook-form shows it. */
function formErrors(body: unknown): Record<string, string> {
  const result = varietyInputSchema.safeParse(body);
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return fields;
}

describe('rice varieties: access', () => {
  it('answers 401 to every route without a session', async () => {
    const v = await makeVariety(t.ctx);
    for (const [method, url] of [
      ['GET', '/api/varieties'],
      ['GET', `/api/varieties/${v.id}`],
      ['POST', '/api/varieties'],
      ['PUT', `/api/varieties/${v.id}`],
      ['DELETE', `/api/varieties/${v.id}`],
    ] as const) {
      const res = await call(method, url, method === 'POST' || method === 'PUT' ? varietyBody({ version: 1 }) : undefined, {});
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
    expect((await call('GET', `/api/varieties/${v.id}`)).status).toBe(200);
  });
});

describe('rice varieties: add', () => {
  it('creates with createdAt, version 1 and an audit entry in the same transaction, then publishes', async () => {
    const seen: LiveEvent[] = [];
    const off = t.ctx.events.subscribe((e) => seen.push(e));
    const body = varietyBody({ maturityDays: '118', averageYield: '4.3', maxYield: 7, season: ['Wet', 'Wet'] });
    const res = await call('POST', '/api/varieties', body);
    expect(res.status).toBe(201);
    const v = res.body;
    expect(v).toMatchObject({
      varietyName: body.varietyName,
      maturityDays: 118,
      averageYield: 4.3,
      maxYield: 7,
      season: ['Wet'],
      recommendedInTarlac: true,
      version: 1,
      updatedAt: null,
    });
    expect(Date.parse(v.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    // On PostgreSQL the event travels through LISTEN/NOTIFY, so it may arrive a moment later.
    await vi.waitFor(() => expect(seen).toContainEqual(expect.objectContaining({ topic: 'rice_seed_varieties', id: v.id, op: 'create' })));
    off();

    const [entry] = await auditFor(v.id);
    expect(entry).toMatchObject({
      action: 'CREATE',
      collection: 'rice_seed_varieties',
      documentId: v.id,
      documentName: body.varietyName,
      userId: admin.id,
      userName: admin.fullname,
    });
    expect(entry!.description).toContain(String(body.varietyName));
    const changes = JSON.parse(entry!.changes!);
    expect(changes.before).toBeNull();
    expect(changes.after).toMatchObject({
      varietyName: body.varietyName,
      maturityDays: 118,
      season: ['Wet'],
      environment: ['Low Irrigated Land'],
    });

    expect((await call('GET', `/api/varieties/${v.id}`)).body).toEqual(v);
  });

  it('lets an ADMIN and a super admin manage varieties alike', async () => {
    const boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const bossCookie = await loginAs(t.app, boss);
    const created = await call('POST', '/api/varieties', varietyBody(), { cookie: bossCookie });
    expect(created.status).toBe(201);
    const updated = await call('PUT', `/api/varieties/${created.body.id}`, {
      ...varietyBody({ varietyName: created.body.varietyName }),
      version: 1,
    });
    expect(updated.status).toBe(200);
    expect((await call('DELETE', `/api/varieties/${created.body.id}`, undefined, { cookie: bossCookie })).status).toBe(204);
  });
});

describe('rice varieties: validation (docs/PRODUCT.md section 5), same texts as the form', () => {
  const required: Array<[string, string]> = [
    ['varietyName', 'Variety name is required.'],
    ['releaseName', 'Release name is required.'],
    ['yearRelease', 'Year release is required.'],
    ['breedingCode', 'Breeding code is required.'],
    ['breederOrigin', 'Breeder origin is required.'],
    ['maturityDays', 'Maturity days is required.'],
    ['averageYield', 'Average yield is required.'],
    ['maxYield', 'Maximum yield is required.'],
    ['plantHeight', 'Plant height is required.'],
    ['tillers', 'Number of tillers is required.'],
    ['location', 'Location is required.'],
    ['plantingMethod', 'Planting method is required.'],
    ['season', 'Select at least one season.'],
    ['environment', 'Select at least one environment.'],
  ];

  it.each(required)('a missing or blank %s gives "%s" and adds nothing', async (field, message) => {
    const before = await countRows();
    const blank = Array.isArray(varietyBody()[field]) ? [] : '   ';
    for (const body of [varietyBody({ [field]: undefined }), varietyBody({ [field]: blank }), varietyBody({ [field]: null })]) {
      const res = await call('POST', '/api/varieties', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.fields[field]).toBe(message);
      expect(res.body.error.fields).toEqual(formErrors(body));
    }
    expect(await countRows()).toBe(before);
  });

  it.each([
    ['maturityDays', '12.5'],
    ['maturityDays', '-3'],
    ['maturityDays', 'abc'],
    ['maturityDays', 12.5],
    ['tillers', '1e3'],
    ['tillers', -1],
    ['plantHeight', '100cm'],
    ['plantHeight', true],
  ])('%s = %j must be a whole number', async (field, value) => {
    const body = varietyBody({ [field]: value });
    const res = await call('POST', '/api/varieties', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(VARIETY_MESSAGES.wholeNumber);
    expect(res.body.error.fields).toEqual(formErrors(body));
  });

  it.each([
    ['averageYield', '-1'],
    ['averageYield', 'abc'],
    ['averageYield', '4,3'],
    ['maxYield', -0.5],
    ['maxYield', '1.2.3'],
    ['maxYield', 'Infinity'],
  ])('%s = %j must be a non-negative decimal', async (field, value) => {
    const body = varietyBody({ [field]: value });
    const res = await call('POST', '/api/varieties', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(VARIETY_MESSAGES.decimal);
    expect(res.body.error.fields).toEqual(formErrors(body));
  });

  it('accepts whole numbers and decimals written as text or numbers', async () => {
    const res = await call(
      'POST',
      '/api/varieties',
      varietyBody({ averageYield: '3', maxYield: '.5', maturityDays: ' 105 ', tillers: 0, plantHeight: '0' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ averageYield: 3, maxYield: 0.5, maturityDays: 105, tillers: 0, plantHeight: 0 });
  });

  it('reports every bad field at once and keeps numbers inside what the database stores', async () => {
    const body = varietyBody({ varietyName: '', maturityDays: '99999999999', averageYield: '5000', season: [], location: 'x'.repeat(301) });
    const res = await call('POST', '/api/varieties', body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      varietyName: 'Variety name is required.',
      maturityDays: VARIETY_MESSAGES.tooLarge(100_000),
      averageYield: VARIETY_MESSAGES.tooLarge(1000),
      season: 'Select at least one season.',
      location: VARIETY_MESSAGES.tooLong(300),
    });
    expect(res.body.error.fields).toEqual(formErrors(body));
  });

  it('takes season, planting method, environment and year from the current option lists', async () => {
    const cases: Array<[Json, string, string]> = [
      [{ season: ['Dry', 'Monsoon'] }, 'season', 'Select at least one season.'],
      [{ environment: ['Swamp'] }, 'environment', 'Select at least one environment.'],
      [{ plantingMethod: 'Aerial' }, 'plantingMethod', 'Planting method is required.'],
      [{ yearRelease: '1999' }, 'yearRelease', 'Year release is required.'],
    ];
    const before = await countRows();
    for (const [overrides, field, message] of cases) {
      const res = await call('POST', '/api/varieties', varietyBody(overrides));
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ [field]: message });
    }
    expect(await countRows()).toBe(before);

    // A change of the lists applies at once.
    const doc = await t.ctx.db.selectFrom('maintenance').selectAll().where('id', '=', VARIETY_ENUMS_ID).executeTakeFirstOrThrow();
    const data = JSON.parse(doc.data);
    try {
      await t.ctx.db
        .updateTable('maintenance')
        .set({ data: JSON.stringify({ ...data, seasons: ['Dry', 'Monsoon'], plantingMethods: ['Aerial'] }) })
        .where('id', '=', VARIETY_ENUMS_ID)
        .execute();
      expect((await call('POST', '/api/varieties', varietyBody({ season: ['Monsoon'], plantingMethod: 'Aerial' }))).status).toBe(201);
      const removed = await call('POST', '/api/varieties', varietyBody({ season: ['Wet'], plantingMethod: 'Aerial' }));
      expect(removed.body.error.fields).toEqual({ season: 'Select at least one season.' });
    } finally {
      await t.ctx.db.updateTable('maintenance').set({ data: doc.data }).where('id', '=', VARIETY_ENUMS_ID).execute();
    }
  });

  it('answers junk with its exact status (never a 5xx) and changes nothing', async () => {
    const v = await makeVariety(t.ctx);
    // Each refusal has its exact status: a 4xx that changes is a change of behaviour too.
    const junk: Array<[string, string, unknown, number]> = [
      ['POST', '/api/varieties', [], 400],
      ['POST', '/api/varieties', 'not json', 400],
      ['POST', '/api/varieties', { varietyName: { $gt: '' } }, 400],
      ['POST', '/api/varieties', varietyBody({ season: 'Dry' }), 400],
      ['POST', '/api/varieties', varietyBody({ season: [1, 2] }), 400],
      ['PUT', `/api/varieties/${v.id}`, varietyBody(), 400],
      ['PUT', `/api/varieties/${v.id}`, { ...varietyBody(), version: 'latest' }, 400],
      ['PUT', `/api/varieties/${v.id}`, { ...varietyBody(), version: 99999999999999 }, 409],
      ['PUT', '/api/varieties/does-not-exist', { ...varietyBody(), version: 1 }, 404],
      ['GET', '/api/varieties?page=abc', undefined, 400],
      ['GET', '/api/varieties?page=-1', undefined, 400],
      ['GET', `/api/varieties?search=${'a'.repeat(500)}`, undefined, 400],
      ['GET', '/api/varieties?search=%25_%5C', undefined, 200],
      ['GET', `/api/varieties/${'x'.repeat(300)}`, undefined, 414],
      ['DELETE', '/api/varieties/%00', undefined, 400],
    ];
    for (const [method, url, payload, status] of junk) {
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { cookie, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(status);
    }
    expect((await call('GET', `/api/varieties/${v.id}`)).body.version).toBe(1);
    expect((await call('GET', '/api/varieties?search=%25_%5C')).body.total).toBe(0);
  });

  it('keeps the OpenAPI document buildable with these schemas', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/api/varieties', '/api/varieties/{id}']));
  });
});

describe('rice varieties: edit and optimistic concurrency', () => {
  it('sets updatedAt and version + 1, and audits only the changed fields', async () => {
    const v = await makeVariety(t.ctx);
    const res = await call('PUT', `/api/varieties/${v.id}`, {
      ...varietyBody({ varietyName: v.varietyName, releaseName: v.releaseName, breedingCode: v.breedingCode }),
      maturityDays: 120,
      location: 'Camiling',
      version: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 2, maturityDays: 120, location: 'Camiling', createdAt: v.createdAt });
    expect(res.body.updatedAt).toEqual(expect.any(String));
    const entries = await auditFor(v.id);
    expect(entries.map((e) => e.action)).toEqual(['CREATE', 'UPDATE']);
    expect(entries[1]).toMatchObject({ collection: 'rice_seed_varieties', documentName: v.varietyName, userId: admin.id });
    expect(JSON.parse(entries[1]!.changes!)).toEqual({
      before: { maturityDays: 112, location: 'Province-wide' },
      after: { maturityDays: 120, location: 'Camiling' },
    });
  });

  it('answers 409 with the current record to a stale version, changes nothing, and accepts an overwrite', async () => {
    const v = await makeVariety(t.ctx);
    const base = varietyBody({ varietyName: v.varietyName });
    expect((await call('PUT', `/api/varieties/${v.id}`, { ...base, location: 'Paniqui', version: 1 })).status).toBe(200);

    const stale = await call('PUT', `/api/varieties/${v.id}`, { ...base, location: 'Gerona', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    expect(stale.body.error.currentVersion).toBe(2);
    expect(stale.body.error.current).toMatchObject({ id: v.id, location: 'Paniqui', version: 2 });
    expect((await call('GET', `/api/varieties/${v.id}`)).body.location).toBe('Paniqui');
    expect((await auditFor(v.id)).length).toBe(2);

    const overwrite = await call('PUT', `/api/varieties/${v.id}`, {
      ...base,
      location: 'Gerona',
      version: stale.body.error.currentVersion,
    });
    expect(overwrite.status).toBe(200);
    expect(overwrite.body).toMatchObject({ location: 'Gerona', version: 3 });
  });

  it('keeps a stored year that predates the year list, but does not accept a new one outside it', async () => {
    const svc = (await import('../../server/modules/content/varieties/service.js')).createVarietiesService(t.ctx);
    const old = await svc.createStored({ varietyName: `PSB Rc ${Date.now()}`, yearRelease: '2000' }, null);
    const keep = await call('PUT', `/api/varieties/${old.id}`, {
      ...varietyBody({ varietyName: old.varietyName, yearRelease: '2000' }),
      version: old.version,
    });
    expect(keep.status).toBe(200);
    const other = await call('PUT', `/api/varieties/${old.id}`, {
      ...varietyBody({ varietyName: old.varietyName, yearRelease: '1998' }),
      version: keep.body.version,
    });
    expect(other.body.error.fields).toEqual({ yearRelease: 'Year release is required.' });
  });
});

describe('rice varieties: a record that lacks fields is edited in one step', () => {
  const stored = async (overrides: Json = {}) => {
    const svc = (await import('../../server/modules/content/varieties/service.js')).createVarietiesService(t.ctx);
    return svc.createStored({ varietyName: `NSIC Rc ${Date.now()}${Math.random().toString(36).slice(2, 6)}`, ...overrides }, null);
  };
  /** The form's body for a stored variety, as the edit form sends it: what it lacks stays empty. */
  const asStored = (v: Json): Json => ({
    ...v,
    releaseName: v.releaseName ?? '',
    yearRelease: v.yearRelease ?? '',
    breedingCode: v.breedingCode ?? '',
    breederOrigin: v.breederOrigin ?? '',
    maturityDays: v.maturityDays ?? '',
    averageYield: v.averageYield ?? '',
    maxYield: v.maxYield ?? '',
    plantHeight: v.plantHeight ?? '',
    tillers: v.tillers ?? '',
    location: v.location ?? '',
    plantingMethod: v.plantingMethod ?? '',
  });
  const put = (v: Json, changes: Json) => {
    const { id: _id, createdAt: _c, updatedAt: _u, ...body } = asStored(v);
    return call('PUT', `/api/varieties/${v.id}`, { ...body, ...changes });
  };

  it('saves a one-field fix while the fields it lacked stay empty, and audits only that field', async () => {
    const v = await stored({ location: 'Paniqui', yearRelease: '2011', season: ['Wet'], averageYield: 5.1 });
    const res = await put(v, { location: 'Gerona' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      location: 'Gerona',
      breedingCode: null,
      plantHeight: null,
      tillers: null,
      environment: [],
      version: 2,
    });
    const [, update] = await auditFor(v.id);
    expect(JSON.parse(update!.changes!)).toEqual({ before: { location: 'Paniqui' }, after: { location: 'Gerona' } });
  });

  it('still checks what is filled in, and refuses emptying a field the record has', async () => {
    const v = await stored({ location: 'Paniqui', maturityDays: 110 });
    const bad = await put(v, { plantHeight: 'tall' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ plantHeight: VARIETY_MESSAGES.wholeNumber });
    const emptied = await put(v, { location: '', maturityDays: '' });
    expect(emptied.status).toBe(400);
    expect(emptied.body.error.fields).toEqual({ location: 'Location is required.', maturityDays: 'Maturity days is required.' });
    expect((await call('GET', `/api/varieties/${v.id}`)).body).toMatchObject({ location: 'Paniqui', maturityDays: 110, version: 1 });
  });

  it('asks a new variety for everything, as before', async () => {
    const res = await call('POST', '/api/varieties', { ...varietyBody(), breedingCode: '', tillers: '' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['breedingCode', 'tillers']);
  });

  it('keeps option values the record holds that the lists no longer (or never) had, and refuses new ones', async () => {
    const v = await stored({ location: 'Moncada', yearRelease: '1997', season: ['Wet', 'Monsoon'], plantingMethod: 'Aerial' });
    const kept = await put(v, { location: 'Tarlac City' });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ yearRelease: '1997', season: ['Wet', 'Monsoon'], plantingMethod: 'Aerial' });
    const added = await put(kept.body, { environment: ['Swamp'], version: kept.body.version });
    expect(added.body.error.fields).toEqual({ environment: 'Select at least one environment.' });
  });

  it('lists the records that need completing, each with what it lacks, until they are complete', async () => {
    const v = await stored({ location: 'Anao', yearRelease: '2011', season: ['Wet'], averageYield: 4.9 });
    const complete = await makeVariety(t.ctx);
    const incomplete = async () => {
      const all: Json[] = [];
      for (let page = 1; ; page += 1) {
        const res = await call('GET', `/api/varieties/incomplete?page=${page}`);
        expect(res.status).toBe(200);
        all.push(...res.body.items);
        if (page >= res.body.pageCount) return { items: all, total: res.body.total };
      }
    };
    const before = await incomplete();
    expect(before.items).toHaveLength(before.total);
    expect(before.items.find((i) => i.id === v.id)).toEqual({
      id: v.id,
      varietyName: v.varietyName,
      missing: [
        'releaseName',
        'breedingCode',
        'breederOrigin',
        'maturityDays',
        'maxYield',
        'plantHeight',
        'tillers',
        'plantingMethod',
        'environment',
      ],
    });
    expect(before.items.some((i) => i.id === complete.id)).toBe(false);
    const { id: _id, createdAt: _c, updatedAt: _u, ...body } = varietyBody({ varietyName: v.varietyName });
    expect((await call('PUT', `/api/varieties/${v.id}`, { ...body, version: v.version })).status).toBe(200);
    const after = await incomplete();
    expect(after.items.some((i) => i.id === v.id)).toBe(false);
    expect(after.total).toBe(before.total - 1);
  });

  it('applies the same rules to a change sent for review and to a version restored', async () => {
    const v = await stored({ location: 'Capas' });
    const superCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    const edited = await put(v, { location: 'Bamban' });
    expect(edited.status).toBe(200);
    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/varieties/${v.id}/versions/1/restore`,
      headers: { cookie: superCookie },
      payload: { version: edited.body.version },
    });
    expect(restored.statusCode).toBe(200);
    expect((await call('GET', `/api/varieties/${v.id}`)).body).toMatchObject({ location: 'Capas', breedingCode: null });
  });
});

describe('rice varieties: a second record of a name is saved only when the user confirms it', () => {
  it('refuses an exact duplicate name (trimmed, any case) with the other record named, and saves it when confirmed', async () => {
    const first = await makeVariety(t.ctx, { varietyName: `NSIC Rc Ñ${Date.now()}` });
    const before = await countRows();
    const again = await call('POST', '/api/varieties', varietyBody({ varietyName: `  ${first.varietyName.toUpperCase()} ` }));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      message: VARIETIES.duplicate.exists(first.varietyName),
      fields: { varietyName: VARIETIES.duplicate.exists(first.varietyName) },
      reason: 'duplicate_name',
      otherId: first.id,
    });
    expect(await countRows()).toBe(before);
    const taken = await call('GET', `/api/varieties/name-taken?name=${encodeURIComponent(first.varietyName.toLowerCase())}`);
    expect(taken.body).toEqual({ taken: { id: first.id, varietyName: first.varietyName } });
    expect((await call('GET', `/api/varieties/name-taken?name=${encodeURIComponent(first.varietyName)}&except=${first.id}`)).body).toEqual({
      taken: null,
    });
    const confirmed = await call('POST', '/api/varieties', {
      ...varietyBody({ varietyName: first.varietyName }),
      allowDuplicateName: true,
    });
    expect(confirmed.status).toBe(201);
    expect(await countRows()).toBe(before + 1);
  });

  it('saves one of six parallel adds of one new name and refuses the others', async () => {
    const name = `NSIC Rc Parallel ${Date.now()}`;
    const before = await countRows();
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call('POST', '/api/varieties', varietyBody({ varietyName: i % 2 ? name.toLowerCase() : name }))),
    );
    expect(saves.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await countRows()).toBe(before + 1);
  });

  it('lets a record keep its own name, and refuses a rename to another live one (a deleted one does not count)', async () => {
    const a = await makeVariety(t.ctx);
    const b = await makeVariety(t.ctx);
    const { varietyName: _n, ...rest } = varietyBody();
    expect((await call('PUT', `/api/varieties/${a.id}`, { ...rest, varietyName: a.varietyName, version: a.version })).status).toBe(200);
    const renamed = await call('PUT', `/api/varieties/${a.id}`, { ...rest, varietyName: b.varietyName, version: a.version + 1 });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.otherId).toBe(b.id);
    expect((await call('DELETE', `/api/varieties/${b.id}`)).status).toBe(204);
    expect((await call('PUT', `/api/varieties/${a.id}`, { ...rest, varietyName: b.varietyName, version: a.version + 1 })).status).toBe(200);
  });
});

describe('rice varieties: soft delete', () => {
  it('hides the record from reads, lists and counts, keeps the row, and audits it', async () => {
    const v = await makeVariety(t.ctx, { varietyName: `Deletable ${Date.now()}` });
    const seen: LiveEvent[] = [];
    const off = t.ctx.events.subscribe((e) => seen.push(e));
    const listed = async () => (await call('GET', `/api/varieties?search=${encodeURIComponent(v.varietyName)}`)).body.total;
    const dashboard = async () => (await call('GET', '/api/dashboard/counts')).body.varieties as number;
    expect(await listed()).toBe(1);
    const countBefore = await dashboard();

    expect((await call('DELETE', `/api/varieties/${v.id}`)).status).toBe(204);
    await vi.waitFor(() => expect(seen).toContainEqual(expect.objectContaining({ topic: 'rice_seed_varieties', id: v.id, op: 'delete' })));
    off();
    expect(await listed()).toBe(0);
    expect(await dashboard()).toBe(countBefore - 1);
    expect((await call('GET', `/api/varieties/${v.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/varieties/${v.id}`)).status).toBe(404);
    expect((await call('PUT', `/api/varieties/${v.id}`, { ...varietyBody({ varietyName: v.varietyName }), version: 2 })).status).toBe(404);

    const row = await t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', v.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ isDeleted: 1, deletedBy: admin.id });
    expect(row.deletedAt).toEqual(expect.any(String));
    const entries = await auditFor(v.id);
    expect(entries.map((e) => e.action)).toEqual(['CREATE', 'DELETE']);
    expect(entries[1]).toMatchObject({ collection: 'rice_seed_varieties', documentName: v.varietyName, userId: admin.id });
    const changes = JSON.parse(entries[1]!.changes!);
    expect(changes.before).toMatchObject({ varietyName: v.varietyName });
    expect(changes.after).toMatchObject({ isDeleted: true, deletedBy: admin.id });
  });
});

describe('rice varieties: search and paging', () => {
  it('searches six fields case-insensitively on the server, and the search survives paging', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const a = await makeVariety(t.ctx, { varietyName: `${tag.toUpperCase()} Name` });
    const b = await makeVariety(t.ctx, { releaseName: `Mabango ${tag}` });
    const c = await makeVariety(t.ctx, { location: `Peñaranda ${tag.toUpperCase()}` });
    const d = await makeVariety(t.ctx, { breedingCode: `IR ${tag}-5` });
    const e = await makeVariety(t.ctx, { breederOrigin: `PhilRice ${tag}` });
    const search = async (term: string, page = 1) =>
      (await call('GET', `/api/varieties?search=${encodeURIComponent(term)}&page=${page}`)).body;
    const found = await search(tag.toUpperCase());
    expect(found.items.map((v: Json) => v.id).sort()).toEqual([a, b, c, d, e].map((v) => v.id).sort());
    expect((await search('PEÑARANDA ' + tag)).items.map((v: Json) => v.id)).toEqual([c.id]);

    // The year release, too (a year no other test uses).
    const doc = await t.ctx.db.selectFrom('maintenance').selectAll().where('id', '=', VARIETY_ENUMS_ID).executeTakeFirstOrThrow();
    const data = JSON.parse(doc.data);
    await t.ctx.db
      .updateTable('maintenance')
      .set({ data: JSON.stringify({ ...data, yearReleases: [...data.yearReleases, '2091'] }) })
      .where('id', '=', VARIETY_ENUMS_ID)
      .execute();
    const y = await makeVariety(t.ctx, { yearRelease: '2091' });
    expect((await search('2091')).items.map((v: Json) => v.id)).toEqual([y.id]);

    // 25 matches: two pages of 20 and 5, newest first. Rows made within one millisecond
    // would tie on createdAt (then ordered by id), so each gets its own explicit time.
    const many = `pg${Date.now().toString(36)}`;
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 25; i += 1) {
      const made = await makeVariety(t.ctx, { location: `${many} ${i}` });
      await t.ctx.db
        .updateTable('rice_seed_varieties')
        .set({ createdAt: new Date(base + i * 1000).toISOString() })
        .where('id', '=', made.id)
        .execute();
    }
    const p1 = await search(many, 1);
    const p2 = await search(many, 2);
    expect(p1).toMatchObject({ total: 25, page: 1, pageSize: 20, pageCount: 2 });
    expect(p1.items).toHaveLength(20);
    expect(p2.items).toHaveLength(5);
    expect(p1.items[0].location).toBe(`${many} 24`);
    expect(p2.items.at(-1).location).toBe(`${many} 0`);
    expect(new Set([...p1.items, ...p2.items].map((v: Json) => v.id)).size).toBe(25);
    // A page past the end is the last page.
    expect(await search(many, 9)).toMatchObject({ page: 2, pageCount: 2 });
    expect((await search('no such variety anywhere')).items).toEqual([]);
  });

  it('finds rows other writers insert or rename straight in the table (the database keeps the search text)', async () => {
    const id = `raw-${Date.now()}`;
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values({
        id,
        varietyName: `Raw Import ${id}`,
        location: 'Moncada',
        season: '[]',
        environment: '[]',
        createdAt: new Date().toISOString(),
      })
      .execute();
    const found = async (term: string) =>
      (await call('GET', `/api/varieties?search=${encodeURIComponent(term)}`)).body.items.map((v: Json) => v.id);
    expect(await found(`raw import ${id}`)).toEqual([id]);
    await t.ctx.db
      .updateTable('rice_seed_varieties')
      .set({ varietyName: `Renamed ${id}` })
      .where('id', '=', id)
      .execute();
    // The table's stamp moved with the row: the old text's cached answer is gone at once.
    expect(await found(`RENAMED ${id}`)).toEqual([id]);
    expect(await found(`raw import ${id}`)).toEqual([]);
  });

  it('never serves a page from before a write (service writes, and other connections on SQLite)', async () => {
    const tag = `cache${Date.now().toString(36)}`;
    const list = async () => (await call('GET', `/api/varieties?search=${tag}`)).body.total;
    expect(await list()).toBe(0);
    const v = await makeVariety(t.ctx, { location: tag });
    expect(await list()).toBe(1);
    await call('DELETE', `/api/varieties/${v.id}`);
    expect(await list()).toBe(0);
    if (t.engine === 'sqlite') {
      // Another process (e.g. an import command) writes the same database file.
      const other = new SQLite(sqlitePath(t.ctx.config.dataDir));
      other
        .prepare(
          `insert into rice_seed_varieties (id, varietyName, location, season, environment, createdAt, searchText) values (?, ?, ?, '[]', '[]', ?, ?)`,
        )
        .run(`ext-${tag}`, 'External', tag, new Date().toISOString(), `external\n\n\n${tag}\n\n`);
      other.close();
      expect(await list()).toBe(1);
    }
  });
});

describe('rice varieties: the search cache', () => {
  it('keeps a cached search across writes that cannot change it, and only those', async () => {
    const tag = `kc${Date.now().toString(36)}`;
    const x = await makeVariety(t.ctx, { varietyName: `${tag} alpha`, location: 'Anao' });
    const list = async (term: string) => (await call('GET', `/api/varieties?search=${encodeURIComponent(term)}`)).body;
    expect((await list(`${tag} alpha`)).items.map((v: Json) => v.id)).toEqual([x.id]);
    expect((await list(`${tag} beta`)).total).toBe(0);
    // A field that is shown but not searched changes: the search that shows the row follows.
    const put = async (overrides: Json, version: number) =>
      call('PUT', `/api/varieties/${x.id}`, { ...varietyBody({ location: 'Anao', ...overrides }), version });
    expect((await put({ varietyName: `${tag} alpha`, maturityDays: 131 }, 1)).status).toBe(200);
    expect((await list(`${tag} alpha`)).items[0].maturityDays).toBe(131);
    // Renamed: it leaves the old term's results and joins the new one's.
    expect((await put({ varietyName: `${tag} beta` }, 2)).status).toBe(200);
    expect((await list(`${tag} alpha`)).total).toBe(0);
    expect((await list(`${tag} beta`)).items.map((v: Json) => v.id)).toEqual([x.id]);
    // The unfiltered list shows every change.
    expect((await put({ varietyName: `${tag} beta`, location: 'Ramos' }, 3)).status).toBe(200);
    expect((await list('')).items.find((v: Json) => v.id === x.id).location).toBe('Ramos');
  });

  it('drops exactly the entries a write can affect, and never stores a load that overlapped one', async () => {
    const cache = new VarietySearchCache(t.ctx.db);
    let loads = 0;
    const load = (value: string) => async () => {
      loads += 1;
      return value;
    };
    await cache.get('a', 'alpha', load('A1'));
    await cache.get('all', '', load('ALL1'));
    expect(await cache.get('a', 'alpha', load('A2'))).toBe('A1');
    expect(loads).toBe(2);

    cache.invalidateTexts(['nsic rc 1\nbeta\n2019']);
    expect(await cache.get('a', 'alpha', load('A3'))).toBe('A1');
    expect(await cache.get('all', '', load('ALL2'))).toBe('ALL2');
    cache.invalidateTexts(['x\nalphabet soup']);
    expect(await cache.get('a', 'alpha', load('A4'))).toBe('A4');

    // A write lands while a load is under way: its result is returned but not kept.
    let finish!: () => void;
    const slow = cache.get(
      'b',
      'bravo',
      () =>
        new Promise<string>((resolve) => {
          finish = () => resolve('B-old');
        }),
    );
    await vi.waitFor(() => expect(finish).toBeTypeOf('function')); // the load has started
    cache.invalidateTexts(['bravo']);
    finish();
    expect(await slow).toBe('B-old');
    expect(await cache.get('b', 'bravo', load('B-new'))).toBe('B-new');

    // A row written in the database by anyone (here plain SQL, as another instance or the
    // import command would) drops only what its texts can change.
    const tag = `nt${Date.now().toString(36)}`;
    cache.invalidate();
    expect(await cache.get('a', 'alpha', load('A5'))).toBe('A5');
    await cache.get('b', 'bravo', load('B-3'));
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values({ id: `${tag}-1`, varietyName: `${tag} bravo`, season: '[]', environment: '[]', createdAt: new Date().toISOString() })
      .execute();
    expect(await cache.get('a', 'alpha', load('A6'))).toBe('A5');
    expect(await cache.get('b', 'bravo', load('B-4'))).toBe('B-4');
    await t.ctx.db
      .updateTable('rice_seed_varieties')
      .set({ varietyName: `${tag} alphorn` })
      .where('id', '=', `${tag}-1`)
      .execute();
    expect(await cache.get('b', 'bravo', load('B-5'))).toBe('B-5'); // it left bravo's results
    expect(await cache.get('a', 'alpha', load('A7'))).toBe('A5'); // 'alphorn' does not hold 'alpha'
    await t.ctx.db.deleteFrom('rice_seed_varieties').where('id', '=', `${tag}-1`).execute();
    expect(await cache.get('a', 'alpha', load('A8'))).toBe('A5');
    expect(await cache.get('all', '', load('ALL3'))).toBe('ALL3');

    // More rows than the database keeps notes of: everything goes. On PostgreSQL the stamp moves
    // once for the whole transaction.
    const stampBefore = await readCountedStamp(t.ctx.db, tableStamp('rice_seed_varieties'));
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values(
        Array.from({ length: 300 }, (_, i) => ({
          id: `${tag}-many-${i}`,
          varietyName: `${tag} zulu ${i}`,
          season: '[]',
          environment: '[]',
          createdAt: new Date().toISOString(),
        })),
      )
      .execute();
    expect(await cache.get('a', 'alpha', load('A9'))).toBe('A9');
    const stampAfter = await readCountedStamp(t.ctx.db, tableStamp('rice_seed_varieties'));
    if (t.engine === 'postgres') expect(stampAfter.seq).toBe(stampBefore.seq + 1);
    else expect(stampAfter.seq).toBeGreaterThanOrEqual(stampBefore.seq + 300);
  });
});

describe('rice varieties: demo seed', () => {
  it('loads the demo varieties without inventing values, and a second run adds nothing', async () => {
    const own = await createTestApp();
    try {
      const lines: string[] = [];
      const first = await seed(own.ctx, (l) => lines.push(l));
      const demo = JSON.parse(fs.readFileSync(DEMO_VARIETIES_FILE, 'utf8')).varieties as Json[];
      expect(first).toEqual({ added: demo.length, skipped: 0 });
      expect(await seed(own.ctx, () => undefined)).toEqual({ added: 0, skipped: demo.length });
      const rows = await own.ctx.db.selectFrom('rice_seed_varieties').selectAll().execute();
      expect(rows).toHaveLength(demo.length);
      const sparse = demo.find((d) => d.averageYield === undefined && d.season === undefined)!;
      const stored = rows.find((r) => r.varietyName === sparse.varietyName)!;
      expect(stored).toMatchObject({ averageYield: null, season: '[]' });
      const audits = await own.ctx.db.selectFrom('audit_logs').select('action').where('collection', '=', 'rice_seed_varieties').execute();
      expect(audits).toHaveLength(demo.length);
      // Every year the demo varieties hold is on the year list, added in one audited change.
      const years = [
        ...new Set(
          demo
            .map((d) => d.yearRelease)
            .filter((y) => y !== undefined && y !== null)
            .map(String),
        ),
      ];
      expect((await getVarietyEnums(own.ctx.db)).yearReleases).toEqual(expect.arrayContaining(years));
      const listChanges = await own.ctx.db.selectFrom('audit_logs').select('description').where('collection', '=', 'maintenance').execute();
      expect(listChanges.filter((a) => a.description?.includes('years of stored varieties'))).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('works from a copy of the project data (no ../shared needed)', () => {
    expect(DEMO_VARIETIES_FILE.startsWith(path.resolve(import.meta.dirname, '..', '..'))).toBe(true);
    expect(fs.existsSync(DEMO_VARIETIES_FILE)).toBe(true);
  });
});
