import { describe, expect, it } from 'vitest';
import { csvFile, csvFileText, type CsvRow } from '../../server/platform/spreadsheets/csv-file';

async function chunksOf(text: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of text) out.push(chunk);
  return out;
}

describe('the CSV file writer (server/platform/spreadsheets/csv-file.ts)', () => {
  it('writes a UTF-8 BOM first and CRLF after every line, each cell through the cell writer', async () => {
    const text = await csvFileText(
      ['name', 'count'],
      [
        ['Ñ, "quoted"', 3],
        ['=SUM(1)', null],
        ['two\nlines', -1],
      ],
    );
    expect(text).toBe('\ufeffname,count\r\n"Ñ, ""quoted""",3\r\n\'=SUM(1),\r\n"two\nlines",-1\r\n');
    expect(await csvFileText(['only'], [])).toBe('\ufeffonly\r\n');
  });

  it('writes the same text from rows, async rows and batches, in chunks of about 64 KB', async () => {
    const rows: CsvRow[] = Array.from({ length: 5000 }, (_, i) => [`row ${i}`, 'x'.repeat(40), i]);
    const whole = await csvFileText(['a', 'b', 'c'], rows);
    async function* oneByOne() {
      for (const row of rows) yield row;
    }
    async function* batches() {
      for (let i = 0; i < rows.length; i += 700) yield rows.slice(i, i + 700);
    }
    const chunks = await chunksOf(csvFile(['a', 'b', 'c'], { batches: batches() }));
    expect(chunks.join('')).toBe(whole);
    expect((await chunksOf(csvFile(['a', 'b', 'c'], oneByOne()))).join('')).toBe(whole);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(64 * 1024);
  });

  it('writes repeated columns the same, their cells made once', async () => {
    const rows: CsvRow[] = Array.from({ length: 50 }, (_, i) => [i % 3 ? '@admin' : 'Ana, B', `=${i}`]);
    expect(await chunksOf(csvFile(['user', 'doc'], rows, { repeatedColumns: [0] }))).toEqual(
      await chunksOf(csvFile(['user', 'doc'], rows)),
    );
  });
});
