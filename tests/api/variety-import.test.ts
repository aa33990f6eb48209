import { Readable } from 'node:stream';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMPORT_TEXTS, SPREADSHEET_LIMITS } from '../../common/spreadsheets.js';
import type { LiveEvent } from '../../server/platform/writes/events.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { tinyPng } from '../fixtures/catalog.js';
import { csvOf, guardedCsvOf, postSheet, VARIETY_HEADER, varietyRow, xlsxOf, type SheetCell } from '../fixtures/spreadsheets.js';
import { makeVariety } from '../fixtures/varieties.js';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

const PREVIEW = '/api/varieties/import/preview';
const IMPORT = '/api/varieties/import';
const F = IMPORT_TEXTS.file;
const live = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('rice_seed_varieties')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('isDeleted', '=', 0)
        .executeTakeFirstOrThrow()
    ).n,
  );
const audits = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('audit_logs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const byName = (name: string) =>
  t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('varietyName', '=', name).where('isDeleted', '=', 0).execute();
const nameOf = (row: SheetCell[]) => String(row[0]);

/** Three good rows and two with errors: the example file. */
function mixedRows() {
  const good = [varietyRow(), varietyRow(), varietyRow()];
  const bad = [varietyRow({ 'Maturity days': 'about 110' }), varietyRow({ Season: 'Summer', 'Average yield': '' })];
  return { good, bad, rows: [VARIETY_HEADER, good[0]!, bad[0]!, good[1]!, bad[1]!, good[2]!] };
}

describe('variety import: dry run', () => {
  it('reads every row, tells new from error with row, column and message, and writes nothing', async () => {
    const { rows } = mixedRows();
    const [before, auditsBefore] = [await live(), await audits()];
    for (const [name, content] of [
      ['varieties.csv', csvOf(rows)],
      ['varieties.xlsx', await xlsxOf(rows)],
    ] as const) {
      const res = await postSheet(t.app, cookie, PREVIEW, name, content);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.format).toBe(name.endsWith('.csv') ? 'csv' : 'xlsx');
      expect(res.body.counts).toEqual({ new: 3, update: 0, unchanged: 0, error: 2 });
      expect(res.body.missing).toEqual([]);
      expect(res.body.rows.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
        [2, 'new'],
        [3, 'error'],
        [4, 'new'],
        [5, 'error'],
        [6, 'new'],
      ]);
      expect(res.body.rows[1].errors).toEqual([{ column: 'Maturity days', value: 'about 110', message: 'Enter a whole number.' }]);
      expect(res.body.rows[3].errors).toEqual(
        expect.arrayContaining([{ column: 'Average yield', value: '', message: 'Average yield is required.' }]),
      );
    }
    expect(await live()).toBe(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it('checks option lists with their own words, and takes a value typed in another case as the list spells it', async () => {
    const summer = varietyRow({ Season: 'Summer' });
    const lower = varietyRow({ Season: 'dry, WET', 'Planting method': 'transplanting' });
    const res = await postSheet(t.app, cookie, PREVIEW, 'v.csv', csvOf([VARIETY_HEADER, summer, lower]));
    expect(res.body.rows[0].errors).toEqual([
      { column: 'Season', value: 'Summer', message: IMPORT_TEXTS.row.notInList('Summer', 'Season', ['Dry', 'Wet']) },
    ]);
    expect(res.body.rows[1].status).toBe('new');
  });

  it('matches headers by label or Firestore field name, and follows the column choices', async () => {
    const row = varietyRow();
    const fieldNames = [
      'varietyName',
      'releaseName',
      'yearRelease',
      'breedingCode',
      'breederOrigin',
      'maturityDays',
      'averageYield',
      'maxYield',
      'plantHeight',
      'tillers',
      'location',
      'season',
      'plantingMethod',
      'environment',
      'recommendedInTarlac',
    ];
    const res = await postSheet(
      t.app,
      cookie,
      PREVIEW,
      'v.csv',
      csvOf([
        [...fieldNames, 'Remarks'],
        [...row, 'note'],
      ]),
    );
    expect(res.body.columns.map((c: { field: string | null }) => c.field)).toEqual([...fieldNames, null]);
    expect(res.body.counts.new).toBe(1);

    // "Remarks" holds the location; the Location column is left out.
    const chosen = await postSheet(
      t.app,
      cookie,
      PREVIEW,
      'v.csv',
      csvOf([
        [...VARIETY_HEADER, 'Remarks'],
        [...varietyRow({ Location: '' }), 'Tarlac City'],
      ]),
      {
        mapping: JSON.stringify({ 10: null, 15: 'location' }),
      },
    );
    expect(chosen.body.columns[15].field).toBe('location');
    expect(chosen.body.counts).toMatchObject({ new: 1, error: 0 });

    const missing = await postSheet(t.app, cookie, PREVIEW, 'v.csv', csvOf([VARIETY_HEADER.slice(0, 3), row.slice(0, 3)]));
    expect(missing.body.missing).toContain('location');
    expect(missing.body.rows[0].errors.map((e: { message: string }) => e.message)).toContain('Location is required.');
  });

  it('flags a name twice in the file and a name shared by two live varieties', async () => {
    const twice = varietyRow();
    const shared = await makeVariety(t.ctx);
    await makeVariety(t.ctx, { varietyName: shared.varietyName, allowDuplicateName: true }); // a confirmed second one
    const res = await postSheet(
      t.app,
      cookie,
      PREVIEW,
      'v.csv',
      csvOf([VARIETY_HEADER, twice, [...twice], varietyRow({ 'Variety name': shared.varietyName.toUpperCase() })]),
    );
    expect(res.body.rows[0].errors[0].message).toBe(IMPORT_TEXTS.row.duplicateInFile([2, 3]));
    expect(res.body.rows[1].errors[0].message).toBe(IMPORT_TEXTS.row.duplicateInFile([2, 3]));
    expect(res.body.rows[2].errors[0].message).toBe(IMPORT_TEXTS.row.ambiguous(2));
  });
});

describe('variety import: the import', () => {
  it('imports nothing while a row has an error, unless asked to leave those rows out', async () => {
    const { good, rows } = mixedRows();
    const before = await live();
    const stopped = await postSheet(t.app, cookie, IMPORT, 'v.csv', csvOf(rows), { onErrors: 'stop' });
    expect(stopped.status).toBe(400);
    expect(stopped.body.error.message).toBe(F.hasErrors(2));
    expect(await live()).toBe(before);

    const seen: LiveEvent[] = [];
    const off = t.ctx.events.subscribe((e) => seen.push(e));
    const done = await postSheet(t.app, cookie, IMPORT, 'nsic.csv', csvOf(rows), { onErrors: 'skip' });
    // On PostgreSQL the bus is LISTEN/NOTIFY: the event comes back a moment after the answer.
    await vi.waitFor(() => expect(seen).toContainEqual(expect.objectContaining({ topic: 'rice_seed_varieties', op: 'import' })));
    off();
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ fileName: 'nsic.csv', created: 3, updated: 0, unchanged: 0, skipped: 2 });
    expect(await live()).toBe(before + 3);
    for (const row of good) {
      const [stored] = await byName(nameOf(row));
      expect(stored).toMatchObject({ maturityDays: 112, season: JSON.stringify(['Dry', 'Wet']), recommendedInTarlac: 1, version: 1 });
      const entries = await t.ctx.db.selectFrom('audit_logs').select(['action', 'userId']).where('documentId', '=', stored!.id).execute();
      expect(entries.map((e) => e.action)).toEqual(['CREATE']);
    }
    const summary = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'IMPORT')
      .where('documentName', '=', 'nsic.csv')
      .execute();
    expect(summary).toHaveLength(1);
    expect(summary[0]!.description).toContain('3 added, 0 updated, 0 unchanged, 2 left out');
  });

  it('updates the variety of the same name with only what changed, keeps an answer the file has no column for, and says unchanged', async () => {
    const existing = await makeVariety(t.ctx, { recommendedInTarlac: true });
    const header = VARIETY_HEADER.slice(0, 14);
    const same = varietyRow({
      'Variety name': existing.varietyName,
      'Release name': existing.releaseName,
      'Breeding code': existing.breedingCode,
    }).slice(0, 14);
    const changed = [...same];
    changed[10] = 'Tarlac City';
    const first = await postSheet(t.app, cookie, PREVIEW, 'v.csv', csvOf([header, same]));
    expect(first.body.rows[0]).toMatchObject({ status: 'unchanged', changed: [] });
    const res = await postSheet(
      t.app,
      cookie,
      IMPORT,
      'v.csv',
      csvOf([header, changed.map((c, i) => (i === 0 ? String(c).toLowerCase() : c))]),
    );
    expect(res.body).toMatchObject({ created: 0, updated: 1 });
    // Matched whatever the case; the file's spelling of the name is what it saves.
    const stored = await t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      varietyName: existing.varietyName.toLowerCase(),
      location: 'Tarlac City',
      recommendedInTarlac: 1,
      version: 2,
    });
    const update = await t.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('documentId', '=', existing.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(update.changes!)).toEqual({
      before: { varietyName: existing.varietyName, location: 'Province-wide' },
      after: { varietyName: existing.varietyName.toLowerCase(), location: 'Tarlac City' },
    });
  });

  it('reads back its own export unchanged, as CSV and as XLSX, with formula-like text, lists and Ñ', async () => {
    const tag = `Rt${Date.now().toString(36)}`;
    await makeVariety(t.ctx, {
      varietyName: `${tag} Ñ`,
      location: '=1+1',
      breederOrigin: '-PhilRice',
      releaseName: 'Peñaranda, Nueva Ecija',
      recommendedInTarlac: false,
    });
    await makeVariety(t.ctx, { varietyName: `${tag} "quoted"`, location: 'Line\nbreak' });
    for (const format of ['csv', 'xlsx'] as const) {
      const exported = await t.app.inject({
        method: 'GET',
        url: `/api/varieties/export?format=${format}&search=${encodeURIComponent(tag.toLowerCase())}`,
        headers: { cookie },
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-disposition']).toBe(`attachment; filename="rice-varieties.${format}"`);
      if (format === 'csv') {
        const text = exported.body;
        expect(text.startsWith('\ufeffVariety name,Release name,')).toBe(true);
        expect(text).toContain("'=1+1");
        expect(text).toContain("'-PhilRice");
      }
      const res = await postSheet(t.app, cookie, PREVIEW, `export.${format}`, exported.rawPayload);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.counts).toEqual({ new: 0, update: 0, unchanged: 2, error: 0 });
      expect(res.body.columns.filter((c: { readOnly: boolean }) => c.readOnly).map((c: { header: string }) => c.header)).toEqual([
        'Created Date',
        'Last Updated',
      ]);
    }
  });

  it('runs two imports of one file one after the other: the second finds every row unchanged', async () => {
    const rows = Array.from({ length: 20 }, () => varietyRow());
    const file = csvOf([VARIETY_HEADER, ...rows]);
    const before = await live();
    const reports = await Promise.all([1, 2].map(() => postSheet(t.app, cookie, IMPORT, 'twice.csv', file)));
    expect(reports.map((r) => r.status)).toEqual([200, 200]);
    expect(reports.map((r) => r.body.created).sort()).toEqual([0, 20]);
    expect(reports.map((r) => r.body.unchanged).sort()).toEqual([0, 20]);
    expect(await live()).toBe(before + 20);
  });

  it("counts a formula in a cell as that row's error, and takes an apostrophe-guarded one as text", async () => {
    const res = await postSheet(
      t.app,
      cookie,
      PREVIEW,
      'v.csv',
      csvOf([VARIETY_HEADER, varietyRow({ Location: '=HYPERLINK("http://x.test","click")' }), varietyRow({ Location: "'@home" })]),
    );
    expect(res.body.rows[0].errors[0]).toMatchObject({
      column: 'Location',
      message: IMPORT_TEXTS.row.formula('=HYPERLINK("http://x.test","click")'),
    });
    expect(res.body.rows[1].status).toBe('new');
  });
});

describe('variety import: bad files change nothing', () => {
  const refused = async (name: string, content: Buffer, status: number, message: string) => {
    const before = await live();
    const res = await postSheet(t.app, cookie, IMPORT, name, content, { onErrors: 'skip' });
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
    expect(res.body.error.message).toBe(message);
    expect(await live()).toBe(before);
  };

  it('refuses a binary renamed .csv, a header-only file, an empty file and a file with no variety column', async () => {
    await refused('photo.csv', await tinyPng(), 415, F.notSpreadsheet);
    await refused('fake.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]), 415, F.notSpreadsheet);
    await refused('header.csv', csvOf([VARIETY_HEADER]), 400, F.empty);
    await refused('empty.csv', Buffer.alloc(0), 400, F.empty);
    await refused('other.csv', Buffer.from('Name,Price\nRice,45\n'), 400, F.noFields);
  });

  it('refuses a file over the size limit and an XLSX that unpacks to far more than it holds', async () => {
    await refused('big.csv', Buffer.alloc(SPREADSHEET_LIMITS.maxBytes + 1024, 'a'), 413, F.tooLarge);
    const zip = new yazl.ZipFile();
    const zeros = Readable.from(
      (function* () {
        for (let i = 0; i < 80; i += 1) yield Buffer.alloc(1024 * 1024);
      })(),
    );
    zip.addReadStream(zeros, 'xl/worksheets/sheet1.xml');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    const bomb = Buffer.concat(chunks);
    expect(bomb.length).toBeLessThan(200 * 1024);
    await refused('bomb.xlsx', bomb, 413, F.unpackTooLarge);
  });

  it("reads UTF-8 with and without a BOM, Windows-1252 with semicolons, and UTF-16 with tabs (Excel's Unicode text)", async () => {
    const row = varietyRow({ Location: 'Peñaranda', Season: 'Dry' });
    const text = csvOf([VARIETY_HEADER, row]).toString('utf8');
    const latin = Buffer.from(text.replaceAll(',', ';').replace('ñ', '\u00f1'), 'latin1');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replaceAll(',', '\t'), 'utf16le')]);
    for (const content of [Buffer.from(text), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), latin, utf16]) {
      const res = await postSheet(t.app, cookie, PREVIEW, 'v.csv', content);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.counts.new).toBe(1);
      expect(res.body.columns[0].field).toBe('varietyName');
    }
    const imported = await postSheet(t.app, cookie, IMPORT, 'v.csv', latin);
    expect(imported.body.created).toBe(1);
    expect((await byName(nameOf(row)))[0]!.location).toBe('Peñaranda');
  });

  it('answers 401 without a session and a clear 4xx without a file or with a bad column choice', async () => {
    const anon = await t.app.inject({ method: 'POST', url: PREVIEW, payload: {} });
    expect(anon.statusCode).toBe(401);
    const noFile = await t.app.inject({ method: 'POST', url: PREVIEW, payload: {}, headers: { cookie } });
    expect(noFile.statusCode).toBe(415);
    const bad = await postSheet(t.app, cookie, PREVIEW, 'v.csv', csvOf([VARIETY_HEADER, varietyRow()]), { mapping: '{"99":"location"}' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(F.badMapping);
    const notJson = await postSheet(t.app, cookie, PREVIEW, 'v.csv', csvOf([VARIETY_HEADER, varietyRow()]), { mapping: '{' });
    expect(notJson.status).toBe(400);
  });

  it('keeps the rows of the guarded CSV writer apart from formulas', async () => {
    const res = await postSheet(
      t.app,
      cookie,
      PREVIEW,
      'v.csv',
      guardedCsvOf([VARIETY_HEADER, varietyRow({ 'Breeder origin': '+PhilRice' })]),
    );
    expect(res.body.rows[0].status).toBe('new');
  });
});
