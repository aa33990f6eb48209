import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_TEXTS } from '../../common/spreadsheets.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { postSheet, VARIETY_HEADER, varietyRow, xlsxOf } from '../fixtures/spreadsheets.js';
import { crc32, deflated, entriesOf, rawZip, zerosDeflated, type RawEntry } from '../fixtures/zip-tricks.js';

let t: TestApp;
let cookie: string;
let workbook: RawEntry[];
beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  workbook = await entriesOf(await xlsxOf([VARIETY_HEADER, varietyRow(), varietyRow()]));
});
afterAll(async () => {
  await t.close();
});

const PREVIEW = '/api/varieties/import/preview';
const IMPORT = '/api/varieties/import';
const MB = 1024 * 1024;
/** Far past what a request may unpack, and far past what the RSS check allows. */
const BOMB_MB = 300;
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

/** Sends the file and samples the process's RSS while the request runs: the highest rise. */
async function sendWatched(url: string, content: Buffer) {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 2);
  try {
    const res = await postSheet(t.app, cookie, url, 'tricks.xlsx', content, url === IMPORT ? { onErrors: 'skip' } : {});
    sample();
    return { ...res, riseMb: (peak - base) / MB };
  } finally {
    clearInterval(timer);
  }
}

const bomb = (name: string, overrides: Partial<RawEntry> = {}): RawEntry => ({
  name,
  data: zerosDeflated(BOMB_MB),
  size: BOMB_MB * MB,
  ...overrides,
});

/** The archive tricks: each would make an unzipper that trusts the wrong part of the file inflate a bomb. */
const TRICKS: Record<string, () => Buffer> = {
  'a local entry the central directory leaves out': () => rawZip([bomb('xl/worksheets/sheet2.xml', { listed: false }), ...workbook]),
  'a hidden entry between two listed ones': () =>
    rawZip([workbook[0]!, bomb('xl/theme/theme9.xml', { listed: false }), ...workbook.slice(1)]),
  "a second entry with the sheet's name": () => rawZip([...workbook, bomb('xl/worksheets/sheet1.xml', { size: 1000 })]),
  'a zip64 entry that declares its true size': () =>
    rawZip([...workbook, bomb('xl/worksheets/sheet2.xml', { zip64: true, data: zerosDeflated(4200), size: 4200 * MB })]),
  'a zip64 entry that declares a small size': () => rawZip([...workbook, bomb('xl/worksheets/sheet2.xml', { zip64: true, size: 2000 })]),
  'an entry sized only in its data descriptor': () =>
    rawZip([...workbook, bomb('xl/worksheets/sheet2.xml', { descriptor: true, size: 2000 })]),
  'two names for the same data': () => {
    const a = deflated('xl/a.xml', Buffer.alloc(30 * MB));
    return rawZip([...workbook, a, { ...a, name: 'xl/b.xml', sharesDataOf: workbook.length }]);
  },
  'a nested zip that inflates past the limit': () => {
    const inner = Buffer.from('PK\u0003\u0004');
    return rawZip([
      ...workbook,
      { name: 'xl/embeddings/inner.zip', data: zerosDeflated(BOMB_MB, inner), size: BOMB_MB * MB + inner.length },
    ]);
  },
};

describe('variety import: archive tricks', () => {
  it.each(Object.keys(TRICKS))('refuses %s with 413, unpacking little, and imports nothing', async (trick) => {
    const file = TRICKS[trick]!();
    expect(file.length).toBeLessThan(10 * MB);
    const before = await live();
    for (const url of [PREVIEW, IMPORT]) {
      const res = await sendWatched(url, file);
      expect(res.status, JSON.stringify(res.body)).toBe(413);
      expect(res.body.error.message).toBe(IMPORT_TEXTS.file.unpackTooLarge);
      expect(res.riseMb, `${url}: RSS rise in MB`).toBeLessThan(100);
    }
    expect(await live()).toBe(before);
  });

  it('still reads a workbook written by hand, and one whose sizes come after the data', async () => {
    for (const entries of [workbook, workbook.map((e) => ({ ...e, descriptor: true })), workbook.map((e) => ({ ...e, zip64: true }))]) {
      const res = await postSheet(t.app, cookie, PREVIEW, 'v.xlsx', rawZip(entries));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.counts.new).toBe(2);
    }
  });

  it('reads a workbook with pictures: entries the reader passes over still count, and pass', async () => {
    const picture = Buffer.alloc(2 * MB, 7);
    const res = await postSheet(
      t.app,
      cookie,
      PREVIEW,
      'v.xlsx',
      rawZip([...workbook, { name: 'xl/media/image1.png', data: picture, method: 0, crc: crc32(picture), size: picture.length }]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.counts.new).toBe(2);
  });
});
