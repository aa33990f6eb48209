import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LANGUAGE_TEXTS } from '../../common/languages.js';
import { readXliffFile } from '../../server/modules/content/translations/xliff.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-xliff-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const read = (body: string) => {
  const file = path.join(dir, `${n++}.xlf`);
  fs.writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fil">${body}</xliff>`,
  );
  return readXliffFile(file, 'fil');
};
const E = LANGUAGE_TEXTS.import;

describe('the XLIFF reader: units read from the stream as the elements say', () => {
  it("passes over an ignorable, reads units inside groups and keeps the export's hash", async () => {
    const units = await read(
      `<file id="a"><group id="g"><unit id="u1" palayan:was="abc"><segment><source>One</source><target>Isa</target></segment><ignorable><source> </source><target> <ph id="1"/></target></ignorable></unit></group></file>`,
    );
    expect(units).toEqual([{ id: 'u1', source: 'One', target: 'Isa', was: 'abc', problem: null }]);
  });

  it('marks a unit split into segments and one whose target holds inline codes; a unit without a target has none', async () => {
    const units = await read(`<file id="a">
      <unit id="s"><segment><source>A</source><target>Isa</target></segment><segment><source>B</source><target>Dalawa</target></segment></unit>
      <unit id="i"><segment><source>A</source><target>Isa <pc id="1">dalawa</pc></target></segment></unit>
      <unit id="n"><segment><source>A &amp; B</source></segment></unit></file>`);
    expect(units.map((u) => [u.id, u.problem, u.target])).toEqual([
      ['s', E.segments, 'Dalawa'],
      ['i', E.inline, 'Isa dalawa'],
      ['n', null, null],
    ]);
    expect(units[2]!.source).toBe('A & B');
  });

  it('keeps the last of a unit id repeated in one file, and both of one id in two files', async () => {
    const units =
      await read(`<file id="a"><unit id="u"><segment><source>A</source><target>1</target></segment></unit><unit id="u"><segment><source>A</source><target>2</target></segment></unit></file>
      <file id="b"><unit id="u"><segment><source>A</source><target>3</target></segment></unit></file>`);
    expect(units.map((u) => u.target)).toEqual(['2', '3']);
  });

  it('refuses a unit with no segment, a unit outside a file, and another version of XLIFF', async () => {
    await expect(read('<file id="a"><unit id="u"><notes><note>x</note></notes></unit></file>')).rejects.toThrow(E.brokenXml);
    await expect(read('<unit id="u"><segment><source>A</source></segment></unit>')).rejects.toThrow(E.brokenXml);
    const file = path.join(dir, 'v1.xlf');
    fs.writeFileSync(file, '<xliff version="1.2" srcLang="en" trgLang="fil"></xliff>');
    await expect(readXliffFile(file, 'fil')).rejects.toThrow(E.brokenXml);
  });
});
