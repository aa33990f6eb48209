import { csvCell } from '../../../common/csv.js';

export type CsvValue = string | number | null | undefined;
export type CsvRow = ReadonlyArray<CsvValue>;

/**
 * The rows after the header: at hand (an array, a generator), one at a time (an async
 * iterable), or a batch at a time as the database gives them (`{ batches }`: a chunk is handed
 * on only between batches, so a batch that empties its array once iterated is garbage by then).
 */
export type CsvRows = Iterable<CsvRow> | AsyncIterable<CsvRow> | { batches: AsyncIterable<Iterable<CsvRow>> };

export interface CsvFileOptions {
  /**
   * Columns whose values repeat from row to row (a user, an action): each distinct text's cell
   * is written once per file (at most 10,000 kept). The output is the same.
   */
  repeatedColumns?: readonly number[];
}

/**
 * UTF-8 with a byte-order mark first: Excel opens a .csv without one in the machine's code page
 * and garbles ñ, é and the like. CRLF after every line, the header and the last line included:
 * RFC 4180's line end. This is the one choice of every CSV file the server writes.
 */
const BOM = '\ufeff';
const LINE_END = '\r\n';

/** Characters of text at least per chunk handed on (a batch or a row more at most). */
const CHUNK_CHARS = 64 * 1024;

const REPEATED_CELLS_KEPT = 10_000;

function lineWriter(options: CsvFileOptions): (row: CsvRow) => string {
  const repeated: boolean[] = [];
  for (const column of options.repeatedColumns ?? []) repeated[column] = true;
  const cells = new Map<string, string>();
  const repeatedCell = (value: string): string => {
    let cell = cells.get(value);
    if (cell === undefined) {
      cell = csvCell(value);
      if (cells.size < REPEATED_CELLS_KEPT) cells.set(value, cell);
    }
    return cell;
  };
  return (row) => {
    let line = '';
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      const cell = repeated[i] === true && typeof value === 'string' ? repeatedCell(value) : csvCell(value);
      line = i === 0 ? cell : `${line},${cell}`;
    }
    return line + LINE_END;
  };
}

const isBatched = (rows: CsvRows): rows is { batches: AsyncIterable<Iterable<CsvRow>> } => 'batches' in rows;

/**
 * The one CSV file writer of the server: the spreadsheet exports (varieties, accounts, pests and
 * diseases), the History CSV and an audit archive's, Detections, the Dataset health report and
 * the training set's metadata.csv. A header and rows become the file's text in chunks of about
 * 64 KB, each cell through common/csv.ts (RFC 4180 quoting and the formula guard), with one
 * choice for all: a UTF-8 BOM first (Excel then reads UTF-8) and CRLF line ends (RFC 4180).
 * Spreadsheets, csv-parse (`bom: true`), pandas and Arrow take the BOM off; Python's own csv
 * module wants the file opened with encoding='utf-8-sig'. A line break inside a quoted cell stays
 * as the text has it. Rows are read only as the chunks are taken, so a streamed file keeps memory flat.
 */
export async function* csvFile(header: readonly string[], rows: CsvRows, options: CsvFileOptions = {}): AsyncGenerator<string> {
  const line = lineWriter(options);
  let out = BOM + line(header);
  if (isBatched(rows)) {
    for await (const batch of rows.batches) {
      for (const row of batch) out += line(row);
      if (out.length >= CHUNK_CHARS) {
        yield out;
        out = '';
      }
    }
  } else {
    for await (const row of rows) {
      out += line(row);
      if (out.length >= CHUNK_CHARS) {
        yield out;
        out = '';
      }
    }
  }
  if (out) yield out;
}

/** csvFile's text whole, for a small file made at once (a report, an entry of a ZIP). */
export async function csvFileText(header: readonly string[], rows: CsvRows): Promise<string> {
  let text = '';
  for await (const chunk of csvFile(header, rows)) text += chunk;
  return text;
}
