import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { readSheet } from 'read-excel-file/node';
import { IMPORT_TEXTS, SPREADSHEET_LIMITS, type SpreadsheetFormat } from '../../../common/spreadsheets.js';
import { fail } from '../http/errors.js';
import { utf16ByMark } from '../support/byte-order-mark.js';
import { UnpackLimitError, unpackXlsx } from '../parsing/zip-guard.js';

export type Cell = string | number | boolean | Date | null;
export interface TableRow {
  row: number;
  cells: Cell[];
}

/** A spreadsheet's header line and its rows (numbered as the spreadsheet shows them). */
export interface Table {
  format: SpreadsheetFormat;
  header: string[];
  rows: AsyncIterable<TableRow>;
}

const T = IMPORT_TEXTS.file;
const notSpreadsheet = (): never => fail('UNSUPPORTED_MEDIA_TYPE', T.notSpreadsheet, { file: T.notSpreadsheet });

type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

interface CsvShape {
  encoding: TextEncoding;
  delimiter: string;
}

/**
 * One pass over a CSV's bytes before it is parsed: its encoding (a BOM names UTF-16; text
 * that is not valid UTF-8 is Windows-1252, as Excel saves "CSV" on Windows) and its separator
 * (the most frequent of , ; and tab in the header line). A NUL in 8-bit text means a binary file.
 */
async function csvShape(file: string, head: Buffer): Promise<CsvShape> {
  let encoding: TextEncoding = utf16ByMark(head) ?? 'utf-8';
  if (encoding !== 'utf-8') {
    // UTF-16 comes in whole two-byte units: an odd count is a file cut short or not text.
    if ((await fs.promises.stat(file)).size % 2 !== 0) notSpreadsheet();
  } else {
    if (head.includes(0)) notSpreadsheet();
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
        if (chunk.includes(0)) notSpreadsheet();
        decoder.decode(chunk, { stream: true });
      }
      decoder.decode();
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      encoding = 'windows-1252';
    }
  }
  const text = new TextDecoder(encoding).decode(head);
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', ';', '\t'].map((d) => ({ d, n: firstLine.split(d).length - 1 }));
  const best = counts.reduce((a, b) => (b.n > a.n ? b : a));
  return { encoding, delimiter: best.n > 0 ? best.d : ',' };
}

async function* decoded(file: string, encoding: TextEncoding): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** Records one by one, never the whole file: the parser reads the decoded stream as it comes. */
async function* csvRecords(file: string, shape: CsvShape): AsyncGenerator<string[]> {
  const parser = Readable.from(decoded(file, shape.encoding)).pipe(
    parseCsv({
      delimiter: shape.delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      max_record_size: 1024 * 1024,
    }),
  );
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('CSV_')) notSpreadsheet();
    throw err;
  }
}

async function* xlsxRecords(file: string): AsyncGenerator<Cell[]> {
  let workbook: Buffer;
  try {
    workbook = await unpackXlsx(file, { maxBytes: SPREADSHEET_LIMITS.maxUnpackedBytes, maxEntries: SPREADSHEET_LIMITS.maxZipEntries });
  } catch (err) {
    if (err instanceof UnpackLimitError) fail('PAYLOAD_TOO_LARGE', T.unpackTooLarge, { file: T.unpackTooLarge });
    return notSpreadsheet();
  }
  let sheet: Cell[][];
  try {
    sheet = (await readSheet(workbook)) as Cell[][];
  } catch {
    return notSpreadsheet();
  }
  yield* sheet;
}

const blank = (cells: readonly Cell[]) => cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

/**
 * Opens an uploaded spreadsheet by its bytes, whatever its name says: a zip is an XLSX (its
 * first sheet), anything else must be CSV text. The header is the first non-blank row; blank
 * rows are passed over but keep their numbers. Runs in a file reader's thread (read-worker.ts).
 */
async function openTable(file: string): Promise<Table> {
  const handle = await fs.promises.open(file, 'r');
  const head = Buffer.alloc(64 * 1024);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  const start = head.subarray(0, length);
  if (length === 0) fail('VALIDATION_FAILED', T.empty, { file: T.empty });
  const isZip = start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const format: SpreadsheetFormat = isZip ? 'xlsx' : 'csv';
  const records: AsyncIterator<Cell[]> = (isZip ? xlsxRecords(file) : csvRecords(file, await csvShape(file, start)))[
    Symbol.asyncIterator
  ]();

  let rowNumber = 0;
  let header: string[] | null = null;
  while (header === null) {
    const next = await records.next();
    if (next.done) fail('VALIDATION_FAILED', T.noHeader, { file: T.noHeader });
    rowNumber += 1;
    if (blank(next.value)) continue;
    header = next.value.map((c) => (c === null ? '' : String(c).trim()));
    while (header.length > 0 && header[header.length - 1] === '') header.pop();
    if (header.length > SPREADSHEET_LIMITS.maxColumns) fail('VALIDATION_FAILED', T.tooManyColumns, { file: T.tooManyColumns });
  }
  const width = header.length;
  const firstRow = rowNumber;
  async function* rows(): AsyncGenerator<TableRow> {
    let n = firstRow;
    for (;;) {
      const next = await records.next();
      if (next.done) return;
      n += 1;
      if (n - firstRow > SPREADSHEET_LIMITS.maxRows) fail('PAYLOAD_TOO_LARGE', T.tooManyRows, { file: T.tooManyRows });
      // Cells right of the header name no column: nothing reads them, so none is kept.
      const cells = next.value.length > width ? next.value.slice(0, width) : next.value;
      if (!blank(cells)) yield { row: n, cells };
    }
  }
  return { format, header, rows: rows() };
}

/** A table as a reader's thread hands it over: every row at once, each no wider than the header. */
export interface ReadTable {
  format: SpreadsheetFormat;
  header: string[];
  rows: TableRow[];
}

/**
 * The reader's task: the whole table, read on its thread. Its cells' text is counted as it is
 * kept: an XLSX whose cells all name one long shared string is small as a file and as the
 * reader's memory, but every copy of that string would cross to the server's thread.
 */
export async function readTableFile(file: string): Promise<ReadTable> {
  const table = await openTable(file);
  const rows: TableRow[] = [];
  let chars = 0;
  for await (const row of table.rows) {
    for (const cell of row.cells) if (typeof cell === 'string') chars += cell.length;
    if (chars > SPREADSHEET_LIMITS.maxTextChars) fail('PAYLOAD_TOO_LARGE', T.unpackTooLarge, { file: T.unpackTooLarge });
    rows.push(row);
  }
  return { format: table.format, header: table.header, rows };
}

/** A table read off the server's thread, for the import: the same shape as one read here. */
export function tableOf(read: ReadTable): Table {
  return {
    format: read.format,
    header: read.header,
    rows: (async function* () {
      yield* read.rows;
    })(),
  };
}
