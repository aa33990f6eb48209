import { parse as parseCsv } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog.js';
import { catalogRepository } from '../../server/modules/content/catalog/repository.js';
import { newId } from '../../server/platform/support/clock.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { makeVariety } from '../fixtures/varieties.js';

let t: TestApp;
let superCookie: string;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  superCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie = superCookie) => t.app.inject({ method: 'GET', url, headers: { cookie } });

/** A CSV body's lines as cells. */
const csvLines = (body: string): string[][] => parseCsv(body.replace(/^\ufeff/, ''), { relax_column_count: true });

async function addEntry(
  collection: 'rice_local_pests' | 'rice_local_diseases',
  name: string,
  createdAt: string,
  extra: Record<string, unknown> = {},
) {
  await catalogRepository.insert(t.ctx.db, collection, {
    id: newId(),
    name,
    scientificName: 'Testus',
    description: 'Leaves turn orange',
    cause: null,
    symptoms: null,
    treatments: null,
    mainImageUrl: null,
    localName: null,
    isDeleted: 0,
    createdAt,
    updatedAt: null,
    deletedAt: null,
    deletedBy: null,
    ...extra,
  } as never);
}

describe('exports', () => {
  it('exports the varieties list as searched, newest first, as CSV and XLSX, across batches', async () => {
    const tag = `Ex${Date.now().toString(36)}`;
    const names: string[] = [];
    for (let i = 0; i < 3; i += 1) names.unshift((await makeVariety(t.ctx, { varietyName: `${tag} ${i}` })).varietyName);
    await makeVariety(t.ctx, { varietyName: 'Not in the search' });
    const csv = await get(`/api/varieties/export?search=${tag}`, adminCookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csvLines(csv.body);
    expect(lines[0]!.slice(0, 3)).toEqual(['Variety name', 'Release name', 'Year release']);
    expect(lines.slice(1).map((l) => l[0])).toEqual(names);

    const xlsx = await get(`/api/varieties/export?format=xlsx&search=${tag}`, adminCookie);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const sheet = await readSheet(xlsx.rawPayload);
    expect(sheet.slice(1).map((r) => r[0])).toEqual(names);
    expect(sheet[1]![5]).toBe(112);
    expect(sheet[1]![14]).toBe('Yes');
  });

  it('reads a long list in batches without losing or repeating a row when times are equal', async () => {
    const createdAt = new Date().toISOString();
    const tag = `Same${Date.now().toString(36)}`;
    for (let i = 0; i < 1203; i += 1) await addEntry('rice_local_pests', `${tag} ${String(i).padStart(4, '0')}`, createdAt);
    const res = await get(`/api/rice_pests/export?search=${tag}`);
    const rows = csvLines(res.body).slice(1);
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r[0])).size).toBe(1203);
  });

  it("exports pests and diseases with the dialog's fields and photo counts, not photos", async () => {
    const tag = `Blast${Date.now().toString(36)}`;
    await addEntry('rice_local_diseases', `${tag} leaf`, new Date().toISOString(), { affectedParts: JSON.stringify(['Leaf', 'Node']) });
    const res = await get(`/api/rice_diseases/export?search=${tag.toLowerCase()}`, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="rice-diseases.csv"');
    const [header, row] = csvLines(res.body);
    expect(header).toEqual([
      'Name',
      'Scientific Name',
      'Local Name',
      'Affected Parts',
      'Training class',
      'Not a rice plant',
      'Description',
      'Cause',
      'Symptoms',
      'Treatments',
      'Images',
      'Created Date',
      'Last Updated',
    ]);
    expect(row!.slice(0, 6)).toEqual([`${tag} leaf`, 'Testus', '', 'Leaf; Node', 'No', 'No']);
    expect(row![10]).toBe('0');
    const pests = await get(`/api/${CATALOG_KINDS.pest.route}/export?format=xlsx&search=nothing-matches-this`);
    const sheet = await readSheet(pests.rawPayload);
    expect(sheet).toHaveLength(1);
    expect(sheet[0]).not.toContain('Affected Parts');
  });

  it('exports accounts for super admins only, without secrets or contact numbers', async () => {
    const account = await makeAccount(t.ctx, { role: 'ADMIN', fullname: 'Export Person' });
    await t.ctx.db.updateTable('accounts').set({ contactNo: '09171234567' }).where('id', '=', account.id).execute();
    expect((await get('/api/accounts/export', adminCookie)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/accounts/export' })).statusCode).toBe(401);
    const res = await get('/api/accounts/export?search=export%20person');
    expect(res.statusCode).toBe(200);
    const lines = csvLines(res.body);
    expect(lines[0]).toEqual(['Full Name', 'Username', 'Email', 'Role', 'Status', 'Two-step sign-in', 'Last Login', 'Created Date']);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.slice(0, 5)).toEqual(['Export Person', account.username, account.email, 'admin', 'Active']);
    expect(res.body).not.toContain('09171234567');
    expect(res.body).not.toMatch(/\$2[aby]\$/);
  });

  it('refuses an unknown format with a 400', async () => {
    const res = await get('/api/varieties/export?format=pdf', adminCookie);
    expect(res.statusCode).toBe(400);
  });
});
