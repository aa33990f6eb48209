import { csvTimestamp } from '../../../../common/history-csv.js';
import type { Variety } from '../../../../common/schemas/varieties.js';
import { EXPORT_TEXTS, LIST_FIELDS, LIST_SEPARATOR, VARIETY_COLUMNS, VARIETY_READ_ONLY_COLUMNS } from '../../../../common/spreadsheets.js';
import type { SpreadsheetFormat } from '../../../../common/spreadsheets.js';
import { VARIETY_LABELS, type VarietyField } from '../../../../common/varieties.js';
import type { AppContext } from '../../../platform/http/context.js';
import { listBatches, type SheetColumn, type SheetExport, type SheetValue } from '../../../platform/spreadsheets/sheet-writer.js';
import { presentVariety } from './presenter.js';
import { varietiesRepository } from './repository.js';

const BATCH = 1000;

function cell(v: Variety, field: VarietyField): SheetValue {
  const value = v[field];
  if ((LIST_FIELDS as readonly string[]).includes(field)) return (value as string[]).join(LIST_SEPARATOR);
  if (typeof value === 'boolean') return value ? EXPORT_TEXTS.yes : EXPORT_TEXTS.no;
  return value as string | number | null;
}

/**
 * The variety columns as the import reads them back (headers are the form's labels), then the
 * two dates the console keeps, in Manila time.
 */
const COLUMNS: ReadonlyArray<SheetColumn<Variety>> = [
  ...VARIETY_COLUMNS.map((field) => ({
    header: VARIETY_LABELS[field],
    value: (v: Variety) => cell(v, field),
    width: field === 'varietyName' ? 24 : 16,
  })),
  { header: VARIETY_READ_ONLY_COLUMNS.createdAt, value: (v) => csvTimestamp(v.createdAt), width: 20 },
  { header: VARIETY_READ_ONLY_COLUMNS.updatedAt, value: (v) => (v.updatedAt ? csvTimestamp(v.updatedAt) : null), width: 20 },
];

/**
 * The live varieties the list shows for this search (the same contains rule), in its order, a
 * batch at a time; or, with `ids`, the live ones among those selected, in the order given.
 */
export function varietySheet(ctx: AppContext, format: SpreadsheetFormat, search: string, ids?: readonly string[]): SheetExport<Variety> {
  const term = search.trim().toLowerCase();
  const selected = async function* () {
    const rows = new Map((await varietiesRepository.findLiveMany(ctx.db, ids!)).map((r) => [r.id, r]));
    yield ids!.flatMap((id) => (rows.has(id) ? [presentVariety(rows.get(id)!)] : []));
  };
  return {
    format,
    name: 'rice-varieties',
    columns: COLUMNS,
    batches: ids
      ? selected()
      : listBatches(async (after, limit) => (await varietiesRepository.exportBatch(ctx.db, term, after, limit)).map(presentVariety), BATCH),
  };
}
