/**
 * The one CSV cell writer of every export (History, Detections, the training set's
 * metadata.csv).
 */

/**
 * OWASP's rule for CSV injection: a spreadsheet runs a cell that begins with =, +, -, @, a tab or
 * a carriage return as a formula, so such a text gets a leading apostrophe and stays text.
 * Numbers are written as numbers (a negative count is not a formula). Used as it is for XLSX
 * cells; csvCell applies it at every place a CSV reader may start a field.
 */
export function guardCell(value: string): string {
  const first = value.charCodeAt(0);
  // = + - @ tab CR
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 ? `'${value}` : value;
}

/**
 * Excel reads a .csv with the list separator of the machine's locale: `;` in many (Philippine
 * government Office installs among them), sometimes tab, and a reader can be told to split at
 * several. Quoting protects a cell only from a reader that splits where this writer does: one
 * splitting at `;` reads `x,"Leaf folder;=SUM(1)"` as the fields `x,"Leaf folder` and `=SUM(1)"`,
 * the quote not opening its field. So every place in a text where some reader may start a field
 * (the cell's start, and after `,` `;` tab or a line break) gets guardCell's apostrophe when a
 * formula trigger follows, spaces and quotes before it included (some readers trim them). Cells
 * holding any of these characters or a quote are also quoted, for this writer's own readers.
 */
const FIELD_START_BEFORE_TRIGGER = /(^|[,;\t\r\n])(?=[ "]*[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;
/**
 * A text neither rule can touch: no separator, line break or quote anywhere (so its only field
 * start is its first character), and a first character that cannot lead to a trigger. Most
 * cells are such (dates, names, numbers as text) and are written as they are without the scan.
 */
const MAY_NEED_WORK = /^[ "=+\-@\t\r]|[",;\t\r\n]/;

/**
 * One CSV cell (RFC 4180): text with every field start guarded (above), then quoted, with quotes
 * doubled, when needed. Numbers as they are; null and undefined as an empty cell.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (!MAY_NEED_WORK.test(value)) return value;
  const guarded = value.replace(FIELD_START_BEFORE_TRIGGER, "$1'");
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

const GUARD_BEFORE_TRIGGER = /(^|[,;\t\r\n])'(?=[ "]*[=+\-@\t\r])/g;

/** A CSV cell's text as it was before csvCell guarded it (for imports of an export). */
export function unguardCsvText(text: string): string {
  return text.replace(GUARD_BEFORE_TRIGGER, '$1');
}

/** One CSV line of cells, without its line break. */
export function csvRow(values: ReadonlyArray<string | number | null | undefined>): string {
  return values.map(csvCell).join(',');
}
