import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { REVIEW_COLLECTIONS, REVIEW_STATES, REVIEW_TEXTS, type ReviewCollection } from '../../../common/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import type { PendingChange, ReviewListQuery } from '../../../common/schemas/review';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { TableFrame } from '../../components/ui/table-frame';
import { useReviewChanges, type ReviewFilter } from '../../lib/review';
import { COLLECTION_OPTIONS, importSummary, nameOf, when } from './format';
import { StateBadge } from './state-badge';

type StateFilter = ReviewListQuery['state'];
const STATE_FILTERS = ['open', 'pending', 'approved', 'rejected', 'published', 'all'] as const satisfies readonly StateFilter[];

/** The filters as the address holds them (?state=&collection=&mine=1), so a link can set them. */
function useFilter(): [ReviewFilter, (next: Partial<Record<'state' | 'collection' | 'mine', string | null>>) => void] {
  const [params, setParams] = useSearchParams();
  const state = params.get('state');
  const collection = params.get('collection');
  const filter: ReviewFilter = {
    state:
      state && (state === 'open' || state === 'all' || (REVIEW_STATES as readonly string[]).includes(state))
        ? (state as StateFilter)
        : 'open',
    ...(collection && (REVIEW_COLLECTIONS as readonly string[]).includes(collection) ? { collection: collection as ReviewCollection } : {}),
    ...(params.get('mine') === '1' ? { mine: 'true' as const } : {}),
  };
  const set = (next: Partial<Record<'state' | 'collection' | 'mine', string | null>>) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(next))
          if (value) p.set(key, value);
          else p.delete(key);
        return p;
      },
      { replace: true },
    );
  return [filter, set];
}

function ChangeCard({ change }: { change: PendingChange }) {
  return (
    <li className="space-y-1 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="review-card">
      <div className="flex items-start justify-between gap-2">
        <Link
          to={encodeURIComponent(change.id)}
          className="font-medium text-brand-800 underline-offset-2 hover:underline"
          aria-label={REVIEW_SCREEN.open(change.recordName)}
        >
          {change.recordName}
        </Link>
        <StateBadge state={change.state} />
      </div>
      <p className="text-sm text-slate-700">
        {change.collectionLabel} · {REVIEW_TEXTS.actions[change.action]}
      </p>
      <p className="text-sm text-slate-600">{REVIEW_SCREEN.sent(nameOf(change.author), when(change.submittedAt))}</p>
      {change.scheduledAt && <p className="text-sm text-slate-600">{REVIEW_SCREEN.scheduledFor(when(change.scheduledAt))}</p>}
    </li>
  );
}

/** The queue: changes oldest first, filtered by state, collection and author, a page at a time. */
export function ReviewListPage() {
  const [filter, setFilter] = useFilter();
  const list = useReviewChanges(filter);
  const ids = { state: useId(), collection: useId() };
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const c = REVIEW_SCREEN.columns;
  const select =
    'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100';

  return (
    <div>
      <PageHeader title={REVIEW_TEXTS.title} subtitle={REVIEW_SCREEN.subtitle} />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={ids.state} className="mb-1 block text-sm font-medium text-slate-700">
            {REVIEW_SCREEN.stateFilter}
          </label>
          <select
            id={ids.state}
            className={select}
            value={filter.state}
            onChange={(e) => setFilter({ state: e.target.value === 'open' ? null : e.target.value })}
          >
            {STATE_FILTERS.map((s) => (
              <option key={s} value={s}>
                {REVIEW_TEXTS.filters[s]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.collection} className="mb-1 block text-sm font-medium text-slate-700">
            {REVIEW_SCREEN.collectionFilter}
          </label>
          <select
            id={ids.collection}
            className={select}
            value={filter.collection ?? ''}
            onChange={(e) => setFilter({ collection: e.target.value || null })}
          >
            <option value="">{REVIEW_SCREEN.allCollections}</option>
            {COLLECTION_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <label className="inline-flex h-10 items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300 accent-brand-700"
            checked={filter.mine === 'true'}
            onChange={(e) => setFilter({ mine: e.target.checked ? '1' : null })}
          />
          {REVIEW_TEXTS.filters.mine}
        </label>
      </div>

      {/* A phone gets the changes as cards; a wider screen the table. */}
      {items.length > 0 && (
        <ul className="space-y-3 sm:hidden" aria-busy={list.isFetching || undefined}>
          {items.map((change) => (
            <ChangeCard key={change.id} change={change} />
          ))}
        </ul>
      )}
      <div className={items.length > 0 ? 'hidden sm:block' : undefined}>
        <TableFrame columns={[c.record, c.collection, c.action, c.author, c.submitted, c.state, c.scheduled]} busy={list.isFetching}>
          {list.isPending ? (
            <tr>
              <td colSpan={7} className="px-4 py-10 text-center text-slate-500">
                <span className="inline-flex items-center gap-3">
                  <Spinner className="h-5 w-5" label={REVIEW_SCREEN.loading} />
                  {REVIEW_SCREEN.loading}
                </span>
              </td>
            </tr>
          ) : list.isError ? (
            <tr>
              <td colSpan={7} role="alert" className="px-4 py-10 text-center text-red-600">
                {list.error.message}
              </td>
            </tr>
          ) : items.length === 0 ? (
            <tr>
              <td colSpan={7} className="px-4 py-10 text-center text-slate-500">
                {REVIEW_TEXTS.empty}
              </td>
            </tr>
          ) : (
            items.map((change) => (
              <tr key={change.id} className="hover:bg-slate-50/70" data-testid="review-row">
                <td className="px-3 py-3 font-medium">
                  <Link
                    to={encodeURIComponent(change.id)}
                    className="text-brand-800 underline-offset-2 hover:underline"
                    aria-label={REVIEW_SCREEN.open(change.recordName)}
                  >
                    {change.recordName}
                  </Link>
                  {!change.recordId && change.action === 'create' && (
                    <span className="block text-xs font-normal text-slate-500">{REVIEW_SCREEN.newRecord}</span>
                  )}
                  {change.summary && <span className="block text-xs font-normal text-slate-500">{importSummary(change.summary)}</span>}
                </td>
                <td className="px-3 py-3 text-slate-700">{change.collectionLabel}</td>
                <td className="whitespace-nowrap px-3 py-3 text-slate-700">{REVIEW_TEXTS.actions[change.action]}</td>
                <td className="px-3 py-3 text-slate-700">{nameOf(change.author)}</td>
                <td className="whitespace-nowrap px-3 py-3 text-slate-700">{when(change.submittedAt)}</td>
                <td className="px-3 py-3">
                  <StateBadge state={change.state} />
                </td>
                <td className="whitespace-nowrap px-3 py-3 text-slate-700">{when(change.scheduledAt) || '–'}</td>
              </tr>
            ))
          )}
        </TableFrame>
      </div>

      {items.length > 0 && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">{REVIEW_SCREEN.shown(items.length, total)}</p>
          {list.hasNextPage && (
            <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? <Spinner className="h-4 w-4" /> : null}
              {REVIEW_SCREEN.loadMore}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
