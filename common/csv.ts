/**
 * The one CSV cell writer of every export (History, Detections, the training set's
 * metadata.csv).
 */

/**
 * OWASP's rule for CSV injection: a spreadsheet runs a cell that begins with =, +, -, @, a tab or
 * a carriage return as a formula, so such a text gets a leading apostrophe and stays text.
 * Numbers are written as numbers (a negative count is not a formula).
 */
export function guardCell(value: string): string {
  const first = value.charCodeAt(0);
  // = + - @ tab CR
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 ? `'${value}` : value;
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180): text through guardCell, then quoted, with quotes doubled, when it
 * holds a comma, a quote or a line break (so a separator inside a value never starts a new
 * cell). Numbers as they are; null and undefined as an empty cell.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const guarded = guardCell(value);
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One CSV line of cells, without its line break. */
export function csvRow(values: ReadonlyArray<string | number | null | undefined>): string {
  return values.map(csvCell).join(',');
}
