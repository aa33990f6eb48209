import {
  CATALOG_FIELDS,
  catalogFieldsOf,
  type CatalogField,
  type CatalogFieldType,
  type CatalogTextField,
} from '../../../../common/catalog-fields.js';
import type { CatalogKind } from '../../../../common/catalog.js';
import { CATALOG_LABELS } from '../../../../common/catalog-texts.js';
import { csvTimestamp } from '../../../../common/history-csv.js';
import { EXPORT_TEXTS, LIST_SEPARATOR, type SpreadsheetFormat } from '../../../../common/spreadsheets.js';
import type { AppContext } from '../../../platform/http/context.js';
import { listBatches, type SheetColumn, type SheetExport } from '../../../platform/spreadsheets/sheet-writer.js';
import { parseList } from './presenter.js';
import { catalogRepository, type CatalogRow } from './repository.js';

type Entry = CatalogRow & { imageCount: number };
const BATCH = 500;

/** How each type of field reads in a cell. */
const CELL: Record<CatalogFieldType, (e: Entry, key: CatalogField) => string | number | null> = {
  name: (e) => e.name,
  shortText: (e, key) => e[key as CatalogTextField],
  longText: (e, key) => e[key as CatalogTextField],
  parts: (e) => parseList(e.affectedParts).join(LIST_SEPARATOR),
  trainingFlag: (e, key) => (Number(e[key]) ? EXPORT_TEXTS.yes : EXPORT_TEXTS.no),
};

/** A kind's columns: the dialog's fields (affected parts and the training flag where the kind has them), photo count, dates. */
function columnsOf(kind: CatalogKind): Array<SheetColumn<Entry>> {
  const L = CATALOG_LABELS;
  return [
    ...catalogFieldsOf(kind).map((key): SheetColumn<Entry> => {
      const { label, type, width } = CATALOG_FIELDS[key];
      return { header: label, value: (e) => CELL[type](e, key), width };
    }),
    { header: L.images, value: (e) => e.imageCount, width: 10 },
    { header: L.createdDate, value: (e) => csvTimestamp(e.createdAt), width: 20 },
    { header: L.lastUpdated, value: (e) => (e.updatedAt ? csvTimestamp(e.updatedAt) : null), width: 20 },
  ];
}

/** The kind's live entries the list shows for this search, in its order (photos are counted, not included). */
export function catalogSheet(ctx: AppContext, kind: CatalogKind, format: SpreadsheetFormat, search: string): SheetExport<Entry> {
  return {
    format,
    name: kind.route.replace('_', '-'),
    columns: columnsOf(kind),
    batches: listBatches((after, limit) => catalogRepository.exportBatch(ctx.db, kind.collection, search, after, limit), BATCH),
  };
}
