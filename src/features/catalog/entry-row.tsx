import { ImageOff } from 'lucide-react';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import type { CatalogEntry, CatalogSort } from '../../../common/schemas/catalog';
import type { PendingChange } from '../../../common/schemas/review';
import { ReviewBadge } from '../../components/review/review-badge';
import { Cell, stackedRow } from '../../components/ui/table-frame';
import { EntryActions } from './entry-actions';
import { formatDate } from './format';
import { Thumb } from './image-grid';

/** The list view's columns, in the order EntryRow fills them. */
/** The list view's headings that sort it, and by what. */
export const ENTRY_ROW_SORTS: Partial<Record<string, CatalogSort>> = {
  [CATALOG_LABELS.name]: 'name',
  [CATALOG_LABELS.photos]: 'photos',
  [CATALOG_LABELS.lastUpdated]: 'updated',
};

export const ENTRY_ROW_COLUMNS = [
  CATALOG_LABELS.photo,
  CATALOG_LABELS.name,
  CATALOG_LABELS.scientificName,
  CATALOG_LABELS.photos,
  CATALOG_LABELS.lastUpdated,
  CATALOG_LABELS.actions,
];

/** An entry as a row of the list view (a card on phones): what the card shows, many to a screen. */
export function EntryRow({
  entry,
  review,
  onView,
  onEdit,
  onDelete,
}: {
  entry: CatalogEntry;
  review: PendingChange | undefined;
  onView(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  return (
    <tr className={`hover:bg-slate-50/70 ${stackedRow}`} data-testid="catalog-row">
      <Cell label={CATALOG_LABELS.photo} unlabelled className="w-16 py-2 max-sm:float-right max-sm:py-2">
        <span className="block h-12 w-12 overflow-hidden rounded-lg bg-slate-100">
          {entry.mainImageStatus === null ? (
            <span className="flex h-full w-full items-center justify-center text-slate-500" title={CATALOG_LABELS.noImage}>
              <ImageOff className="h-5 w-5" aria-label={CATALOG_LABELS.noImage} />
            </span>
          ) : (
            <Thumb image={{ thumbUrl: entry.mainThumbUrl, status: entry.mainImageStatus }} alt="" />
          )}
        </span>
      </Cell>
      <Cell label={CATALOG_LABELS.name} main className="font-medium text-slate-900">
        <span>
          {entry.name}
          {entry.localName && <span className="block text-xs font-normal text-slate-600">{entry.localName}</span>}
          {review && <ReviewBadge change={review} className="mt-1 flex" />}
        </span>
      </Cell>
      <Cell label={CATALOG_LABELS.scientificName} className="text-slate-700">
        <span className="italic">{entry.scientificName || '–'}</span>
      </Cell>
      <Cell label={CATALOG_LABELS.photos} className="text-slate-700">
        {entry.imageCount.toLocaleString('en-US')}
      </Cell>
      <Cell label={CATALOG_LABELS.lastUpdated} className="whitespace-nowrap text-slate-700">
        {formatDate(entry.updatedAt)}
      </Cell>
      <Cell label={CATALOG_LABELS.actions} unlabelled className="whitespace-nowrap py-2">
        <div className="flex flex-wrap gap-1">
          <EntryActions name={entry.name} onView={onView} onEdit={onEdit} onDelete={onDelete} />
        </div>
      </Cell>
    </tr>
  );
}
