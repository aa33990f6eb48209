import { VARIETIES, VARIETY_LABELS, type VarietyField } from './varieties.js';

/**
 * Spreadsheets in and out: the varieties' import (CSV or the first sheet of an XLSX, checked
 * row by row before anything is written) and the lists' exports (CSV and XLSX).
 */
export const SPREADSHEET_LIMITS = {
  /** The largest file the import reads (a 20,000-row variety list is about 4 MB as CSV). */
  maxBytes: 10 * 1024 * 1024,
  /** Rows after the header line. */
  maxRows: 20_000,
  /** Columns the header may name (the variety list has 17, the translators' file 10). */
  maxColumns: 100,
  /** What an XLSX may unpack to, counted while it is unpacked (a zip bomb stops here). */
  maxUnpackedBytes: 64 * 1024 * 1024,
  /** Characters all of a table's cells may hold together (a shared string counts each time it is used). */
  maxTextChars: 32 * 1024 * 1024,
  /** Files in an XLSX: a workbook has a dozen; thousands are a trap for the unpacker. */
  maxZipEntries: 1_000,
  /** Rows the preview table draws at a time; the rest are a click away. */
  previewPage: 100,
} as const;

export const SPREADSHEET_FORMATS = ['csv', 'xlsx'] as const;
export type SpreadsheetFormat = (typeof SPREADSHEET_FORMATS)[number];

export const IMPORT_STATUSES = ['new', 'update', 'unchanged', 'error'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * The variety columns in the form's order, as exports write them and imports read them. Lists are
 * written "Dry; Wet"; Recommended in Tarlac as Yes or No.
 */
export const VARIETY_COLUMNS: readonly VarietyField[] = [
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
export const LIST_FIELDS: readonly VarietyField[] = ['season', 'environment'];
export const LIST_SEPARATOR = '; ';

/** Columns an export adds after the fields; an import passes over them. */
export const VARIETY_READ_ONLY_COLUMNS = { createdAt: VARIETIES.view.createdAt, updatedAt: VARIETIES.view.updatedAt } as const;

/** A header as matched: lower case, letters and digits only ("Variety name", "varietyName", "VARIETY_NAME"). */
export function headerKey(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * Which field a header names: the form's label, the Firestore field name, the table's column
 * title or the view dialog's label. null for a header that names none.
 */
const HEADER_FIELDS: ReadonlyMap<string, VarietyField> = (() => {
  const names = new Map<string, VarietyField>();
  const add = (header: string, field: VarietyField) => names.set(headerKey(header), field);
  for (const field of VARIETY_COLUMNS) {
    add(field, field);
    add(VARIETY_LABELS[field], field);
  }
  for (const [field, title] of Object.entries(VARIETIES.columns)) if (field in VARIETY_LABELS) add(title, field as VarietyField);
  for (const [field, title] of Object.entries(VARIETIES.view)) if (field in VARIETY_LABELS) add(title, field as VarietyField);
  return names;
})();
const READ_ONLY_HEADERS = new Set(Object.entries(VARIETY_READ_ONLY_COLUMNS).flatMap(([key, label]) => [headerKey(key), headerKey(label)]));

export function fieldForHeader(header: string): VarietyField | null {
  return HEADER_FIELDS.get(headerKey(header)) ?? null;
}

export function isReadOnlyHeader(header: string): boolean {
  return READ_ONLY_HEADERS.has(headerKey(header));
}

export const IMPORT_TEXTS = {
  open: 'Import',
  title: 'Import varieties',
  intro:
    'Add and update rice varieties from a spreadsheet (.csv or .xlsx, the first sheet). Rows are matched ' +
    'to existing varieties by variety name. Nothing is saved until you choose Import.',
  chooseFile: 'Choose a file',
  reading: (name: string) => `Checking ${name}…`,
  uploading: (percent: number) => `Uploading… ${percent}%`,
  mappingTitle: 'Columns',
  mappingSummary: (matched: number, total: number) => `${matched} of ${total} go to a field`,
  mappingHelp: 'Each column of the file goes to the field named beside it. Change a column that went to the wrong field, or leave it out.',
  notImported: 'Not imported',
  readOnlyColumn: 'Not imported (set by the console)',
  missingRequired: (labels: string[]) => `No column holds ${labels.join(', ')}: every row will need it.`,
  counts: { new: 'New', update: 'Update', unchanged: 'Unchanged', error: 'Error' } satisfies Record<ImportStatus, string>,
  tableRow: 'Row',
  tableName: 'Variety name',
  tableStatus: 'Result',
  tableDetails: 'Details',
  changes: (labels: string[]) => `Changes ${labels.join(', ')}`,
  showing: (shown: number, total: number) => `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`,
  showMore: 'Show more',
  filterAll: 'All rows',
  errorsCsv: 'Download the errors (CSV)',
  errorsFile: 'import-errors.csv',
  errorColumns: ['Row', 'Column', 'Value', 'Message'] as const,
  skipErrors: (n: number) => `Import the valid rows and leave out the ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} with errors`,
  stopOnErrors: 'Import nothing while a row has an error',
  importButton: (n: number) => `Import ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`,
  nothingToImport: 'Every row is unchanged or has an error: there is nothing to import.',
  importing: 'Importing…',
  done: (created: number, updated: number) =>
    `Imported: ${created.toLocaleString('en-US')} added, ${updated.toLocaleString('en-US')} updated.`,
  doneDetail: (unchanged: number, skipped: number) =>
    `${unchanged.toLocaleString('en-US')} unchanged, ${skipped.toLocaleString('en-US')} left out with errors.`,
  chooseAnother: 'Choose another file',
  close: 'Close',
  cancel: 'Cancel',
  /** Row messages beyond the form's own (those come from the variety schema). */
  row: {
    formula: (text: string) => `"${text}" begins like a spreadsheet formula. Type the value itself, or begin it with an apostrophe (').`,
    notInList: (value: string, label: string, choices: readonly string[]) =>
      `"${value}" is not in the ${label} list${choices.length <= 12 ? ` (${choices.join(', ')})` : ''}. A super admin can add it in File Maintenance.`,
    yesNo: 'Enter Yes or No.',
    duplicateInFile: (rows: number[]) =>
      `The file names this variety on rows ${rows.length <= 6 ? rows.join(', ') : `${rows.slice(0, 5).join(', ')} and ${(rows.length - 5).toLocaleString('en-US')} more`}: keep one of them.`,
    ambiguous: (n: number) => `${n} varieties have this name: edit them on the Rice Varieties screen.`,
  },
  /** Whole-file refusals: nothing is read further and nothing changes. */
  file: {
    missing: 'Choose a .csv or .xlsx file to import.',
    tooLarge: `The file is larger than ${SPREADSHEET_LIMITS.maxBytes / 1024 / 1024} MB. Split it into smaller files.`,
    notSpreadsheet: 'This file is not a spreadsheet the console can read. Save it as .csv (comma separated) or .xlsx and try again.',
    unpackTooLarge:
      'This XLSX file unpacks to far more data than an import takes, so it was not read. Save the sheet again as .xlsx or .csv.',
    empty: 'The file has no rows below its header line.',
    noHeader: 'The first row of the file should name its columns (for example Variety name, Release name, …).',
    noFields:
      'No column of the file names a variety field (Variety name, Release name, …). Check that the first row holds the column names.',
    tooManyColumns: `The file's first row names more than ${SPREADSHEET_LIMITS.maxColumns} columns. Keep only the columns of the list, and try again.`,
    tooManyRows: `The file has more than ${SPREADSHEET_LIMITS.maxRows.toLocaleString('en-US')} rows. Split it into smaller files.`,
    badMapping: 'The column choices do not fit this file. Choose the file again.',
    hasErrors: (n: number) =>
      `${n.toLocaleString('en-US')} ${n === 1 ? 'row has' : 'rows have'} errors, so nothing was imported. ` +
      `Fix them in the spreadsheet, or choose to leave them out.`,
  },
} as const;

export const EXPORT_TEXTS = {
  button: 'Export',
  csv: 'CSV (.csv)',
  xlsx: 'Excel (.xlsx)',
  searchNote: 'The export holds the list as searched.',
  yes: 'Yes',
  no: 'No',
} as const;
