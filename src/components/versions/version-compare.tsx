import { useState } from 'react';
import { formatValue } from '../../../common/history-diff';
import type { VersionCompare, VersionPhoto } from '../../../common/schemas/versions';
import { VERSION_TEXTS as T } from '../../../common/versions';
import { cn } from '../ui/cn';
import { WordChanges, type WordChangeLabels } from '../ui/word-changes';

function PhotoStrip({
  title,
  side,
  tone,
  heading: Heading,
}: {
  title: string;
  side: { total: number; items: VersionPhoto[] };
  tone: 'added' | 'removed';
  heading: 'h3' | 'h4';
}) {
  if (side.total === 0) return null;
  return (
    <div>
      <Heading className={cn('mb-2 text-xs font-semibold uppercase tracking-wide', tone === 'added' ? 'text-green-700' : 'text-red-700')}>
        {title}
      </Heading>
      <ul className="grid grid-cols-4 gap-2 sm:grid-cols-6" aria-label={title}>
        {side.items.map((p) => (
          <li
            key={p.id}
            className={cn(
              'aspect-square overflow-hidden rounded-md border-2 bg-slate-100',
              tone === 'added' ? 'border-green-400' : 'border-red-400',
            )}
          >
            {p.thumbUrl ? (
              <img src={p.thumbUrl} alt={p.name ?? p.id} loading="lazy" className="h-full w-full object-cover" />
            ) : (
              <span className="sr-only">{p.name ?? p.id}</span>
            )}
          </li>
        ))}
      </ul>
      {side.items.length < side.total && <p className="mt-1 text-xs text-slate-500">{T.photosShown(side.items.length, side.total)}</p>}
    </div>
  );
}

/** What the two sides of a comparison are called: two versions, or the published and proposed states of a change. */
export interface ComparisonLabels {
  table: string;
  /** The photo strips' heading level, one below the section the comparison is in (h4 by default). */
  photoHeading?: 'h3' | 'h4';
  from: string;
  to: string;
  photoCounts(fromCount: number, toCount: number): string;
  /** Given: a changed field's words are marked within it (removed on the left, added on the right), named so for a screen reader. */
  words?: WordChangeLabels;
}

/**
 * One side of a changed field: with `words`, its words marked against the other side (a side
 * with no value shows as empty, the other side wholly added or removed); without, the left
 * side struck through whole.
 */
function ChangedValue({ from, to, side, words }: { from: unknown; to: unknown; side: 'before' | 'after'; words: WordChangeLabels }) {
  const value = side === 'before' ? from : to;
  const empty = (v: unknown) => formatValue(v) === formatValue(null);
  if (empty(value)) return <>{formatValue(value)}</>;
  return <WordChanges before={empty(from) ? '' : formatValue(from)} after={empty(to) ? '' : formatValue(to)} side={side} labels={words} />;
}

/** Two versions field by field (changed rows first and marked) and, for pests and diseases, the photos added and removed. */
export function VersionComparison({ data }: { data: VersionCompare }) {
  const { from, to } = { from: data.from.number, to: data.to.number };
  return (
    <FieldComparison
      fields={data.fields}
      photos={data.photos}
      labels={{
        table: T.compareTitle(from, to),
        from: T.version(from),
        to: T.version(to),
        photoCounts: (a, b) => T.photoCounts(from, a, to, b),
      }}
    />
  );
}

/** Two states of a record field by field (only the changed rows until asked), and the photos added and removed. */
export function FieldComparison({
  fields,
  photos,
  labels,
}: {
  fields: VersionCompare['fields'];
  photos: VersionCompare['photos'];
  labels: ComparisonLabels;
}) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const rows = showUnchanged ? fields : fields.filter((f) => f.changed);
  const unchangedCount = fields.filter((f) => !f.changed).length;
  return (
    <div className="space-y-4">
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full table-fixed divide-y divide-slate-200 text-sm" aria-label={labels.table}>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="w-1/4 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                {T.field}
              </th>
              <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                {labels.from}
              </th>
              <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                {labels.to}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 && (
              <tr>
                <td colSpan={3} className="px-3 py-3 text-slate-500">
                  {T.noChanges}
                </td>
              </tr>
            )}
            {rows.map((f) => (
              <tr key={f.key} data-changed={f.changed} className={f.changed ? 'bg-amber-50' : undefined}>
                <th scope="row" className="break-words px-3 py-2 text-left font-medium text-slate-800">
                  {f.label}
                </th>
                <td
                  className={cn(
                    'whitespace-pre-line break-words px-3 py-2 text-slate-700',
                    f.changed && !labels.words && 'line-through decoration-red-400',
                  )}
                >
                  {f.changed && labels.words ? (
                    <ChangedValue from={f.from} to={f.to} side="before" words={labels.words} />
                  ) : (
                    formatValue(f.from)
                  )}
                </td>
                <td className="whitespace-pre-line break-words px-3 py-2 text-slate-900">
                  {f.changed && labels.words ? (
                    <ChangedValue from={f.from} to={f.to} side="after" words={labels.words} />
                  ) : (
                    formatValue(f.to)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {unchangedCount > 0 && (
          <button
            type="button"
            className="w-full border-t border-slate-200 px-3 py-2 text-left text-sm text-brand-700 hover:bg-slate-50"
            onClick={() => setShowUnchanged((v) => !v)}
          >
            {showUnchanged ? T.hideUnchanged : `${T.showUnchanged} (${unchangedCount})`}
          </button>
        )}
      </div>
      {photos && (
        <section aria-label="Photos" className="space-y-3">
          <p className="text-sm text-slate-600">{labels.photoCounts(photos.fromCount, photos.toCount)}</p>
          <PhotoStrip title={T.photosAdded(photos.added.total)} side={photos.added} tone="added" heading={labels.photoHeading ?? 'h4'} />
          <PhotoStrip
            title={T.photosRemoved(photos.removed.total)}
            side={photos.removed}
            tone="removed"
            heading={labels.photoHeading ?? 'h4'}
          />
          {photos.added.total === 0 && photos.removed.total === 0 && (
            <p className="text-sm text-slate-500">{photos.reordered ? T.photosReordered : T.photosSame}</p>
          )}
          {(photos.added.total > 0 || photos.removed.total > 0) && photos.reordered && (
            <p className="text-sm text-slate-500">{T.photosReordered}</p>
          )}
        </section>
      )}
    </div>
  );
}
