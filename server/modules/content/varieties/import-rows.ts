import { CONTROL_TEXTS, hasControlCharacters, visibleControls } from '../../../../common/text-controls.js';
import { unguardCsvText } from '../../../../common/csv.js';
import type { ImportColumn, ImportMapping } from '../../../../common/schemas/spreadsheets.js';
import type { VarietyEnums } from '../../../../common/schemas/maintenance.js';
import { varietyInputSchema, type VarietyInput } from '../../../../common/schemas/varieties.js';
import { fieldForHeader, IMPORT_TEXTS, isReadOnlyHeader, LIST_FIELDS, VARIETY_COLUMNS } from '../../../../common/spreadsheets.js';
import { VARIETY_LABELS, type VarietyField } from '../../../../common/varieties.js';
import type { Cell } from '../../../platform/spreadsheets/table-reader.js';

const R = IMPORT_TEXTS.row;

export interface RowError {
  column: string;
  value: string;
  message: string;
}

/** One row read against the form's schema: its input when valid, else what is wrong where. */
export interface ParsedRow {
  row: number;
  name: string;
  input: VarietyInput | null;
  errors: RowError[];
}

/**
 * The file's columns and the fields they go to: the user's choice where given (null leaves a
 * column out), else the field the header names. A field goes to one column at most (the first).
 */
export function resolveColumns(header: readonly string[], mapping: ImportMapping): ImportColumn[] {
  const taken = new Set<VarietyField>();
  return header.map((text, index) => {
    const readOnly = isReadOnlyHeader(text);
    const chosen = mapping[String(index)];
    let field = chosen !== undefined ? chosen : readOnly ? null : fieldForHeader(text);
    if (field !== null && taken.has(field)) field = null;
    if (field !== null) taken.add(field);
    return { index, header: text, field, readOnly };
  });
}

/** Required fields (all but Recommended in Tarlac) that no column holds. */
export function missingFields(columns: readonly ImportColumn[]): VarietyField[] {
  const held = new Set(columns.map((c) => c.field));
  return VARIETY_COLUMNS.filter((f) => f !== 'recommendedInTarlac' && !held.has(f));
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A cell as text. Exports guard text that would begin a formula with an apostrophe, at its start
 * and after a separator inside it (common/csv.ts), so those apostrophes are taken off again: an
 * export reads back as it was.
 */
function cellText(cell: Cell): { text: string; formula: boolean } {
  if (cell === null) return { text: '', formula: false };
  if (typeof cell === 'boolean') return { text: cell ? 'Yes' : 'No', formula: false };
  if (typeof cell === 'number') return { text: String(cell), formula: false };
  if (cell instanceof Date) return { text: cell.toISOString().slice(0, 10), formula: false };
  const text = cell.trim();
  if (text.startsWith("'") && FORMULA_START.test(text.slice(1))) return { text: unguardCsvText(text), formula: false };
  const unguarded = unguardCsvText(text);
  return { text: unguarded, formula: FORMULA_START.test(unguarded) && !NUMBER.test(unguarded) };
}

/** The list's own spelling of a value typed in another case ("dry" → "Dry"); the value as typed otherwise. */
function canonical(value: string, choices: readonly string[]): string {
  const lower = value.toLowerCase();
  return choices.find((c) => c.toLowerCase() === lower) ?? value;
}

/** A list cell: "Dry; Wet" (exports), or "Dry, Wet" when no semicolon; a value of the list is kept whole. */
function listValues(text: string, choices: readonly string[]): string[] {
  if (text === '') return [];
  const whole = choices.find((c) => c.toLowerCase() === text.toLowerCase());
  if (whole) return [whole];
  const parts = /[;\n]/.test(text) ? text.split(/[;\n]/) : text.split(',');
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => canonical(p, choices));
}

const YES = new Set(['yes', 'y', 'true', '1', 'oo']);
const NO = new Set(['no', 'n', 'false', '0', 'hindi', '']);

const OPTION_LISTS = {
  season: 'seasons',
  environment: 'environments',
  plantingMethod: 'plantingMethods',
  yearRelease: 'yearReleases',
} as const satisfies Partial<Record<VarietyField, keyof VarietyEnums>>;

/**
 * One spreadsheet row: each mapped cell as the form would hold it, checked by the form's own
 * schema (varietyInputSchema: the same rules and texts as the add form and the API), with a
 * message per cell. Option lists are checked later, against the record the row updates.
 */
export function parseRow(row: number, cells: readonly Cell[], columns: readonly ImportColumn[], enums: VarietyEnums): ParsedRow {
  const errors: RowError[] = [];
  const body: Record<string, unknown> = {};
  const texts = new Map<VarietyField, { column: string; value: string }>();
  for (const column of columns) {
    if (column.field === null) continue;
    const field = column.field;
    const { text, formula } = cellText(cells[column.index] ?? null);
    texts.set(field, { column: column.header, value: text });
    if (formula) {
      errors.push({ column: column.header, value: text, message: R.formula(text) });
      continue;
    }
    if (hasControlCharacters(text)) {
      errors.push({ column: column.header, value: text, message: CONTROL_TEXTS.refused(visibleControls(text)) });
      continue;
    }
    if (field === 'recommendedInTarlac') {
      const key = text.toLowerCase();
      if (YES.has(key)) body[field] = true;
      else if (NO.has(key)) body[field] = false;
      else errors.push({ column: column.header, value: text, message: R.yesNo });
    } else if ((LIST_FIELDS as readonly string[]).includes(field)) {
      body[field] = listValues(text, enums[OPTION_LISTS[field as 'season' | 'environment']]);
    } else if (field === 'plantingMethod' || field === 'yearRelease') {
      body[field] = canonical(text, enums[OPTION_LISTS[field]]);
    } else {
      body[field] = text;
    }
  }
  const where = (field: VarietyField) => texts.get(field) ?? { column: VARIETY_LABELS[field], value: '' };
  const parsed = varietyInputSchema.safeParse(body);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'varietyName') as VarietyField;
      if (seen.has(field) || errors.some((e) => e.column === where(field).column)) continue;
      seen.add(field);
      errors.push({ ...where(field), message: issue.message });
    }
  }
  const name = texts.get('varietyName')?.value ?? '';
  return { row, name, input: parsed.success && errors.length === 0 ? parsed.data : null, errors };
}

/**
 * Values that are not in the current option lists, each named with the list's choices. The year
 * a record already holds stays allowed, as in the edit form (older releases predate the list).
 */
export function optionProblems(
  input: VarietyInput,
  columns: readonly ImportColumn[],
  enums: VarietyEnums,
  keepYear: string | null,
): RowError[] {
  const header = (field: VarietyField) => columns.find((c) => c.field === field)?.header ?? VARIETY_LABELS[field];
  const problems: RowError[] = [];
  const check = (field: keyof typeof OPTION_LISTS, values: readonly string[]) => {
    const choices = enums[OPTION_LISTS[field]];
    for (const value of values) {
      if (choices.includes(value) || (field === 'yearRelease' && value === keepYear)) continue;
      problems.push({ column: header(field), value, message: R.notInList(value, VARIETY_LABELS[field], choices) });
      return;
    }
  };
  check('season', input.season);
  check('environment', input.environment);
  check('plantingMethod', input.plantingMethod === null ? [] : [input.plantingMethod]);
  check('yearRelease', input.yearRelease === null ? [] : [input.yearRelease]);
  return problems;
}
