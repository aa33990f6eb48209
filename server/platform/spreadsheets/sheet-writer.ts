import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import { guardCell } from '../../../common/csv.js';
import type { SpreadsheetFormat } from '../../../common/spreadsheets.js';
import { csvFile, type CsvRow } from './csv-file.js';

export type SheetValue = string | number | null;

export interface SheetColumn<R> {
  header: string;
  value(row: R): SheetValue;
  /** XLSX column width in characters. */
  width?: number;
}

export interface SheetExport<R> {
  format: SpreadsheetFormat;
  /** The download's name without its extension. */
  name: string;
  columns: ReadonlyArray<SheetColumn<R>>;
  /** The rows in the list's order, a batch at a time. */
  batches: AsyncIterable<readonly R[]>;
}

export interface ListPosition {
  createdAt: string;
  id: string;
}

/**
 * A list read a batch at a time from where the previous batch ended (its last row's createdAt
 * and id): no offset to skip, and no row lost or repeated when rows share a time.
 */
export async function* listBatches<R extends ListPosition>(
  read: (after: ListPosition | null, limit: number) => Promise<R[]>,
  size: number,
): AsyncGenerator<R[]> {
  let after: ListPosition | null = null;
  for (;;) {
    const rows = await read(after, size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

const SHEET_CONTENT_TYPES: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The sheet's rows as CSV cells, a batch at a time (csv-file.ts writes the file). */
async function* csvBatches<R>(sheet: SheetExport<R>): AsyncGenerator<CsvRow[]> {
  for await (const batch of sheet.batches) yield batch.map((row) => sheet.columns.map((c) => c.value(row)));
}

/**
 * XLSX, made whole (an XLSX is a zip whose index comes last): text cells through the same formula guard as CSV (a text cell that begins like a formula
 * becomes one when someone edits it in Excel and presses Enter), numbers as numbers, a bold
 * frozen header.
 */
async function xlsxFile<R>(sheet: SheetExport<R>): Promise<Buffer> {
  const data: Row[] = [sheet.columns.map((c) => ({ value: c.header, fontWeight: 'bold' as const }))];
  for await (const batch of sheet.batches) {
    for (const row of batch) {
      data.push(
        sheet.columns.map((c) => {
          const value = c.value(row);
          return value === null ? null : { value: typeof value === 'string' ? guardCell(value) : value };
        }),
      );
    }
  }
  return writeXlsxFile(data, {
    columns: sheet.columns.map((c) => ({ width: c.width ?? 18 })),
    stickyRowsCount: 1,
  }).toBuffer();
}

/** Sends a list as a download in the format asked for (the route says `compress: false`). */
export async function sendSheet<R>(reply: FastifyReply, sheet: SheetExport<R>): Promise<FastifyReply> {
  const body =
    sheet.format === 'csv'
      ? Readable.from(
          csvFile(
            sheet.columns.map((c) => c.header),
            { batches: csvBatches(sheet) },
          ),
        )
      : await xlsxFile(sheet);
  return reply
    .type(SHEET_CONTENT_TYPES[sheet.format])
    .header('content-disposition', `attachment; filename="${sheet.name}.${sheet.format}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
