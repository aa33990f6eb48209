import { ImageOff, Images } from 'lucide-react';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import type { CatalogEntry } from '../../../common/schemas/catalog';
import type { PendingChange } from '../../../common/schemas/review';
import { ReviewBadge } from '../../components/review/review-badge';
import { EntryActions } from './entry-actions';
import { formatDate } from './format';
import { Thumb } from './image-grid';

/** docs/PRODUCT.md section 2: image, name, italic scientific name, 3-line description, dates, View/Edit/Delete. */
export function EntryCard({
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
    <article
      className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
      data-testid="catalog-card"
      aria-label={entry.name}
    >
      <div className="relative aspect-[4/3] bg-slate-100">
        {entry.mainImageStatus === null ? (
          <span className="flex h-full w-full flex-col items-center justify-center gap-1 text-sm text-slate-600">
            <ImageOff className="h-6 w-6" aria-hidden />
            {CATALOG_LABELS.noImage}
          </span>
        ) : (
          <Thumb image={{ thumbUrl: entry.mainThumbUrl, status: entry.mainImageStatus }} alt={entry.name} />
        )}
        {entry.imageCount > 0 && (
          <span className="absolute bottom-2 right-2 inline-flex items-center gap-1 rounded-full bg-slate-900/70 px-2 py-0.5 text-xs font-medium text-white">
            <Images className="h-3.5 w-3.5" aria-hidden />
            {entry.imageCount}
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col p-4">
        <h2 className="text-lg font-semibold text-slate-900">{entry.name}</h2>
        {review && <ReviewBadge change={review} className="mb-1 mt-0.5" />}
        {entry.scientificName && <p className="text-sm italic text-slate-600">{entry.scientificName}</p>}
        {entry.localName && <p className="text-sm text-slate-600">{entry.localName}</p>}
        <p className="mt-2 line-clamp-3 text-sm text-slate-700">{entry.description || '–'}</p>
        <dl className="mt-auto grid grid-cols-2 gap-2 pt-4 text-xs">
          <div>
            <dt className="text-slate-500">{CATALOG_LABELS.createdDate}</dt>
            <dd className="font-medium text-slate-700">{formatDate(entry.createdAt)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{CATALOG_LABELS.lastUpdated}</dt>
            <dd className="font-medium text-slate-700">{formatDate(entry.updatedAt)}</dd>
          </div>
        </dl>
        <div className="mt-4 flex gap-2 border-t border-slate-100 pt-3">
          <EntryActions name={entry.name} onView={onView} onEdit={onEdit} onDelete={onDelete} wide />
        </div>
      </div>
    </article>
  );
}
