import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSheet } from 'read-excel-file/node';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotAZipError, UnpackLimitError, unpackXlsx } from '../../server/platform/parsing/zip-guard.js';
import { xlsxOf } from '../fixtures/spreadsheets.js';
import { crc32, deflated, entriesOf, rawZip, zerosDeflated, type RawEntry } from '../fixtures/zip-tricks.js';

const MB = 1024 * 1024;
const LIMITS = { maxBytes: 64 * MB, maxEntries: 1000 };
let dir: string;
let workbook: RawEntry[];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-guard-'));
  workbook = await entriesOf(
    await xlsxOf([
      ['Variety name', 'Season'],
      ['Rc 222', 'Dry'],
    ]),
  );
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function unpack(zip: Buffer, limits = LIMITS) {
  n += 1;
  const file = path.join(dir, `${n}.xlsx`);
  fs.writeFileSync(file, zip);
  return unpackXlsx(file, limits);
}

async function namesIn(zip: Buffer): Promise<string[]> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: false }, (err, z) => (err || !z ? reject(err ?? new Error('no zip')) : resolve(z)));
  });
  const names: string[] = [];
  file.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
  await new Promise((resolve) => file.on('end', resolve));
  return names;
}

const bomb = (name: string, overrides: Partial<RawEntry> = {}): RawEntry => ({
  name,
  data: zerosDeflated(100),
  size: 100 * MB,
  ...overrides,
});

describe('unpackXlsx', () => {
  it('gives the reader a new zip of the XML parts alone, which it reads as the original', async () => {
    const picture = Buffer.alloc(MB, 7);
    const withPicture = [
      ...workbook,
      { name: 'xl/media/image1.png', data: picture, method: 0 as const, crc: crc32(picture), size: picture.length },
    ];
    for (const entries of [withPicture, workbook.map((e) => ({ ...e, descriptor: true })), workbook.map((e) => ({ ...e, zip64: true }))]) {
      const clean = await unpack(rawZip(entries));
      expect((await namesIn(clean)).sort()).toEqual(
        workbook
          .map((e) => e.name)
          .filter((name) => name.endsWith('.xml') || name.endsWith('.xml.rels'))
          .sort(),
      );
      expect(await readSheet(clean)).toEqual([
        ['Variety name', 'Season'],
        ['Rc 222', 'Dry'],
      ]);
    }
  });

  it('refuses local entries the central directory leaves out, wherever they sit', async () => {
    const hidden = bomb('xl/worksheets/sheet2.xml', { listed: false });
    for (const entries of [
      [hidden, ...workbook],
      [workbook[0]!, hidden, ...workbook.slice(1)],
      [...workbook, hidden],
    ]) {
      await expect(unpack(rawZip(entries))).rejects.toThrow(new UnpackLimitError('bytes outside the listed entries'));
    }
    const small = deflated('xl/styles2.xml', Buffer.from('<a/>'));
    await expect(unpack(rawZip([...workbook, { ...small, listed: false }]))).rejects.toThrow(UnpackLimitError);
  });

  it('refuses a name listed twice, and two entries sharing one local entry', async () => {
    const again = deflated('xl/worksheets/sheet1.xml', Buffer.from('<worksheet/>'));
    await expect(unpack(rawZip([...workbook, again]))).rejects.toThrow(new UnpackLimitError('xl/worksheets/sheet1.xml twice'));
    const a = deflated('xl/a.xml', Buffer.alloc(1000));
    await expect(unpack(rawZip([...workbook, a, { ...a, name: 'xl/b.xml', sharesDataOf: workbook.length }]))).rejects.toThrow(
      new UnpackLimitError('bytes outside the listed entries'),
    );
  });

  it('counts inflated bytes: an entry that declares less than it holds stops there', async () => {
    for (const overrides of [
      { size: 1000 },
      { size: 1000, zip64: true },
      { size: 1000, descriptor: true },
      { size: 1000, descriptor: true, zip64: true },
    ]) {
      await expect(unpack(rawZip([...workbook, bomb('xl/worksheets/sheet2.xml', overrides)]))).rejects.toThrow(
        new UnpackLimitError('inflated size'),
      );
    }
    const stored = { name: 'xl/media/a.bin', data: Buffer.alloc(5000), method: 0 as const, size: 10 };
    await expect(unpack(rawZip([...workbook, stored]))).rejects.toThrow(new UnpackLimitError('inflated size'));
  });

  it('refuses what declares more than the limit, in all or in one zip64 entry, before inflating it', async () => {
    await expect(
      unpack(rawZip([...workbook, bomb('xl/worksheets/sheet2.xml', { zip64: true, data: zerosDeflated(5000), size: 5000 * MB })])),
    ).rejects.toThrow(new UnpackLimitError('declared size'));
    const nested = rawZip([
      ...workbook,
      bomb('xl/embeddings/inner.zip', { data: zerosDeflated(100, Buffer.from('PK\u0003\u0004')), size: 100 * MB + 4 }),
    ]);
    await expect(unpack(nested)).rejects.toThrow(new UnpackLimitError('declared size'));
    await expect(unpack(rawZip([...workbook, deflated('xl/a.xml', Buffer.alloc(2 * MB))]), { ...LIMITS, maxBytes: MB })).rejects.toThrow(
      new UnpackLimitError('declared size'),
    );
  });

  it('refuses more entries than allowed, and a file that is no zip or a broken one', async () => {
    await expect(unpack(rawZip(workbook), { ...LIMITS, maxEntries: workbook.length - 1 })).rejects.toThrow(UnpackLimitError);
    await expect(unpack(Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]))).rejects.toThrow(NotAZipError);
    const short = deflated('xl/a.xml', Buffer.alloc(1000));
    await expect(unpack(rawZip([...workbook, { ...short, size: 2000 }]))).rejects.toThrow(NotAZipError);
    const garbled = { ...short, data: Buffer.alloc(short.data.length, 0xff) };
    await expect(unpack(rawZip([...workbook, garbled]))).rejects.toThrow(NotAZipError);
  });
});
