import { useEffect, useMemo, useState } from 'react';
import { History, RotateCcw } from 'lucide-react';
import type { VersionItem } from '../../../common/schemas/versions';
import { manilaDateTime } from '../../../common/manila-time';
import { VERSION_TEXTS as T, type VersionCollection } from '../../../common/versions';
import { useVersionCompare, useVersions } from '../../lib/versions';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Spinner } from '../ui/spinner';
import { RestoreDialog } from './restore-dialog';
import { VersionComparison } from './version-compare';

function VersionRow({ item, current, selected, onSelect }: { item: VersionItem; current: boolean; selected: boolean; onSelect(): void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        aria-pressed={selected}
        data-version={item.number}
        className={cn(
          'w-full rounded-lg border px-3 py-2 text-left transition-colors',
          selected ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:bg-slate-50',
        )}
      >
        <span className="flex items-center justify-between gap-2">
          <span className="text-sm font-semibold text-slate-900">{T.version(item.number)}</span>
          {current && <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">{T.current}</span>}
        </span>
        <span className="block text-xs text-slate-500">
          {item.actorName ?? T.unknownAuthor} · {manilaDateTime(new Date(item.createdAt))}
        </span>
        <span className="mt-0.5 block text-sm text-slate-700">{item.description}</span>
      </button>
    </li>
  );
}

/**
 * A record's versions: the list (who, when, what changed), any two compared field by field,
 * and Restore this version for those who may edit the record.
 */
export function VersionsPanel({
  collection,
  id,
  canRestore,
  initialNumber,
}: {
  collection: VersionCollection;
  id: string;
  canRestore: boolean;
  initialNumber?: number | undefined;
}) {
  const versions = useVersions(collection, id);
  const items = useMemo(() => versions.data?.pages.flatMap((p) => p.items) ?? [], [versions.data]);
  const recordVersion = versions.data?.pages[0]?.recordVersion ?? 0;
  const latest = items[0]?.number ?? null;
  const [selected, setSelected] = useState<number | null>(initialNumber ?? null);
  const [against, setAgainst] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<VersionItem | null>(null);

  // Until the user picks, the newest version is compared with the one before it.
  const shown = selected ?? items[1]?.number ?? latest;
  const other = against ?? (shown === latest ? (items[1]?.number ?? null) : latest);
  useEffect(() => {
    if (against !== null && !items.some((v) => v.number === against)) setAgainst(null);
  }, [items, against]);
  const pair = shown !== null && other !== null && shown !== other ? { from: Math.min(shown, other), to: Math.max(shown, other) } : null;
  const compare = useVersionCompare(collection, id, pair);
  const shownItem = items.find((v) => v.number === shown) ?? null;

  if (versions.isLoading)
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  if (versions.isError)
    return (
      <p role="alert" className="text-sm text-red-600">
        {versions.error.message}
      </p>
    );
  if (items.length === 0) return <p className="text-sm text-slate-500">{T.empty}</p>;

  return (
    <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
      <section aria-label={T.title} className="space-y-2">
        <ol className="max-h-[55vh] space-y-2 overflow-y-auto pr-1" data-testid="versions-list">
          {items.map((item) => (
            <VersionRow
              key={item.number}
              item={item}
              current={item.number === latest}
              selected={item.number === shown}
              onSelect={() => {
                setSelected(item.number);
                setAgainst(null);
              }}
            />
          ))}
        </ol>
        {versions.hasNextPage && (
          <Button
            variant="secondary"
            size="sm"
            className="w-full"
            onClick={() => void versions.fetchNextPage()}
            disabled={versions.isFetchingNextPage}
          >
            {T.loadMore}
          </Button>
        )}
      </section>
      <section aria-label={T.compare} className="min-w-0 space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <History className="h-4 w-4 text-slate-500" aria-hidden />
          <span className="text-sm font-semibold text-slate-900">{shown !== null ? T.version(shown) : ''}</span>
          {items.length > 1 && (
            <label className="inline-flex items-center gap-2 text-sm text-slate-600">
              {T.compare}
              <select
                className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm"
                value={other ?? ''}
                onChange={(e) => setAgainst(Number(e.target.value))}
              >
                {items
                  .filter((v) => v.number !== shown)
                  .map((v) => (
                    <option key={v.number} value={v.number}>
                      {T.version(v.number)}
                      {v.number === latest ? ` (${T.current})` : ''}
                    </option>
                  ))}
              </select>
            </label>
          )}
          {canRestore && shownItem && shown !== latest && (
            <Button size="sm" className="ml-auto" onClick={() => setRestoring(shownItem)}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              {T.restore}
            </Button>
          )}
        </div>
        {items.length === 1 ? (
          <p className="text-sm text-slate-500">{T.compareHint}</p>
        ) : compare.isLoading ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : compare.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {compare.error.message}
          </p>
        ) : compare.data ? (
          <VersionComparison data={compare.data} />
        ) : null}
      </section>
      <RestoreDialog
        collection={collection}
        id={id}
        version={restoring}
        recordVersion={recordVersion}
        onClose={() => setRestoring(null)}
        onRestored={(n) => {
          setSelected(n);
          setAgainst(null);
        }}
      />
    </div>
  );
}
