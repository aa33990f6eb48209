import { FilterPanel, FilterSelect, filterInputClass } from '../../components/ui/filter-panel';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Download, X } from 'lucide-react';
import { relativeTime } from '../../../common/activity';
import { collectionLabel, HISTORY, HISTORY_ACTIONS, HISTORY_COLLECTIONS, HISTORY_DATE_RANGES } from '../../../common/history';
import { fullDate } from '../../../common/history-dates';
import { TIMINGS } from '../../../common/limits';
import { can, SECURITY_ACTIONS } from '../../../common/permissions';
import { historyFiltersObject, type HistoryFilters } from '../../../common/schemas/history';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Cell, stackedRow, TableFrame } from '../../components/ui/table-frame';
import { PageHeader } from '../../components/ui/page-header';
import { SearchInput } from '../../components/ui/search-input';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { useSession } from '../../lib/session';
import { ActionBadge } from './action-badge';
import { awaitingDates, downloadCsv, filtersToParams, useHistoryCount, useHistoryPages, useHistoryUsers, type ExportProgress } from './api';
import { EntryDialog } from './entry-dialog';
import { IntegrityPanel } from './integrity-panel';

/** Reads the filters from the URL; a value that is not valid is left out rather than failing. */
function readFilters(params: URLSearchParams): HistoryFilters {
  const shape = historyFiltersObject.shape;
  const out: Record<string, unknown> = { range: 'all' };
  for (const key of Object.keys(shape) as Array<keyof typeof shape>) {
    const raw = params.get(key);
    if (raw === null) continue;
    const parsed = shape[key].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out as HistoryFilters;
}

export function HistoryPage() {
  const { session } = useSession();
  const seesAll = can(session?.user.role, 'history.viewAll');
  const verifies = can(session?.user.role, 'history.verify');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const toast = useToast();

  const setFilters = useCallback(
    (patch: Partial<HistoryFilters>) => {
      const next = { ...filters, ...patch } as HistoryFilters;
      if (next.range !== 'custom') {
        delete next.from;
        delete next.to;
      }
      setParams(filtersToParams(next), { replace: true });
    },
    [filters, setParams],
  );

  const list = useHistoryPages(filters);
  const count = useHistoryCount(filters);
  const users = useHistoryUsers(seesAll);
  const [openId, setOpenId] = useState<string | null>(null);

  // Relative times refresh every 30 s (docs/PRODUCT.md section 9).
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), TIMINGS.historyRelativeRefreshMs);
    return () => clearInterval(t);
  }, []);

  const items = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);

  // Further pages load when the end of the list scrolls into view.
  const sentinel = useRef<HTMLDivElement | null>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '400px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Export with progress; Cancel aborts the download.
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  async function startExport() {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ bytes: 0, rows: 0 });
    try {
      const done = await downloadCsv(filters, setProgress, controller.signal);
      toast.show(`${HISTORY.exportDone} ${done.fileName}`);
    } catch (err) {
      if ((err as Error).name === 'AbortError') toast.show(HISTORY.exportCancelled, { tone: 'info' });
      else toast.show((err as Error).message || HISTORY.exportFailed, { tone: 'error' });
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }
  useEffect(() => () => abort.current?.abort(), []);

  const total = count.data;
  const percent = progress && total && total.count > 0 ? Math.min(100, Math.round((progress.rows / total.count) * 100)) : null;
  const filtered = params.toString() !== '';

  return (
    <div>
      <PageHeader
        title={HISTORY.title}
        subtitle={HISTORY.subtitle}
        actions={
          <>
            <span className="text-sm text-slate-600" data-testid="history-count" aria-live="polite">
              {total ? HISTORY.count(total.count, total.exact) : ''}
            </span>
            <Button onClick={() => void startExport()} disabled={progress !== null}>
              <Download className="h-4 w-4" aria-hidden />
              {progress ? HISTORY.exporting : HISTORY.export}
            </Button>
          </>
        }
      />

      {verifies && <IntegrityPanel />}

      {progress && (
        <div className="mb-4 rounded-xl border border-brand-200 bg-brand-50 p-4" role="status" aria-label="Export progress">
          <div className="flex items-center justify-between gap-4 text-sm text-brand-900">
            <span>
              {HISTORY.exporting} {progress.rows.toLocaleString('en-US')}
              {total ? ` / ${total.exact ? '' : '~'}${total.count.toLocaleString('en-US')}` : ''} rows ·{' '}
              {(progress.bytes / 1_048_576).toFixed(1)} MB
            </span>
            <Button variant="ghost" size="sm" onClick={() => abort.current?.abort()}>
              {HISTORY.cancelExport}
            </Button>
          </div>
          <div
            className="mt-2 h-2 overflow-hidden rounded-full bg-brand-100"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
          >
            <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent ?? 5}%` }} />
          </div>
        </div>
      )}

      <FilterPanel
        active={['range', 'from', 'to', 'action', 'collection', 'user'].filter((k) => params.has(k)).length}
        lead={
          <div className="w-full sm:w-auto">
            <span className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500">Search</span>
            <SearchInput
              value={filters.q ?? ''}
              onChange={(q) => setFilters({ q: q.trim() ? q : undefined })}
              placeholder={HISTORY.searchPlaceholder}
              label={HISTORY.searchPlaceholder}
              delayMs={300}
            />
          </div>
        }
      >
        <FilterSelect
          id="history-range"
          label={HISTORY.filters.date}
          value={filters.range}
          onChange={(v) => setFilters({ range: v as HistoryFilters['range'] })}
        >
          {HISTORY_DATE_RANGES.map((r) => (
            <option key={r} value={r}>
              {HISTORY.dateRanges[r]}
            </option>
          ))}
        </FilterSelect>
        {filters.range === 'custom' && (
          <>
            <div>
              <label htmlFor="history-from" className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500">
                {HISTORY.filters.from}
              </label>
              <input
                id="history-from"
                type="date"
                value={filters.from ?? ''}
                max={filters.to}
                onChange={(e) => setFilters({ from: e.target.value || undefined })}
                className={filterInputClass}
              />
            </div>
            <div>
              <label htmlFor="history-to" className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500">
                {HISTORY.filters.to}
              </label>
              <input
                id="history-to"
                type="date"
                value={filters.to ?? ''}
                min={filters.from}
                onChange={(e) => setFilters({ to: e.target.value || undefined })}
                className={filterInputClass}
              />
            </div>
          </>
        )}
        <FilterSelect
          id="history-action"
          label={HISTORY.filters.action}
          value={filters.action ?? ''}
          onChange={(v) => setFilters({ action: (v || undefined) as HistoryFilters['action'] })}
        >
          <option value="">{HISTORY.filters.allActions}</option>
          {HISTORY_ACTIONS.filter((a) => seesAll || !(SECURITY_ACTIONS as readonly string[]).includes(a)).map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          id="history-collection"
          label={HISTORY.filters.collection}
          value={filters.collection ?? ''}
          onChange={(v) => setFilters({ collection: (v || undefined) as HistoryFilters['collection'] })}
        >
          <option value="">{HISTORY.filters.allCollections}</option>
          {HISTORY_COLLECTIONS.map((c) => (
            <option key={c} value={c}>
              {collectionLabel(c)}
            </option>
          ))}
        </FilterSelect>
        {seesAll && (
          <FilterSelect
            id="history-user"
            label={HISTORY.filters.user}
            value={filters.user ?? ''}
            onChange={(v) => setFilters({ user: v || undefined })}
          >
            <option value="">{HISTORY.filters.allUsers}</option>
            {filters.user && !users.data?.some((u) => u.id === filters.user) && <option value={filters.user}>{filters.user}</option>}
            {users.data?.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </FilterSelect>
        )}
        {filtered && (
          <Button variant="ghost" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
            <X className="h-4 w-4" aria-hidden />
            {HISTORY.clearFilters}
          </Button>
        )}
      </FilterPanel>

      <TableFrame
        label={HISTORY.title}
        stacked
        columns={[
          HISTORY.columns.time,
          HISTORY.columns.user,
          HISTORY.columns.action,
          HISTORY.columns.collection,
          HISTORY.columns.document,
          HISTORY.columns.description,
        ]}
      >
        {awaitingDates(filters) ? (
          <tr>
            <td colSpan={6} className="px-4 py-10 text-center text-slate-500">
              {HISTORY.chooseDates}
            </td>
          </tr>
        ) : list.isLoading ? (
          <tr>
            <td colSpan={6} className="px-4 py-10 text-center text-slate-500">
              <Spinner className="mr-2 h-4 w-4 align-middle" />
              {HISTORY.loading}
            </td>
          </tr>
        ) : list.error ? (
          <tr>
            <td colSpan={6} role="alert" className="px-4 py-10 text-center text-red-600">
              {list.error.message || HISTORY.loadFailed}
            </td>
          </tr>
        ) : items.length === 0 ? (
          <tr>
            <td colSpan={6} className="px-4 py-10 text-center text-slate-500">
              {HISTORY.empty}
            </td>
          </tr>
        ) : (
          items.map((item) => (
            <tr
              key={item.id}
              className={cn('cursor-pointer hover:bg-brand-50/50 focus-within:bg-brand-50/50 max-sm:flex max-sm:flex-col', stackedRow)}
              onClick={() => setOpenId(item.id)}
              data-testid="history-row"
            >
              <Cell label={HISTORY.columns.time} className="whitespace-nowrap tabular-nums text-slate-600">
                <time dateTime={item.timestamp} title={fullDate(item.timestamp)}>
                  {relativeTime(item.timestamp, now)}
                </time>
              </Cell>
              <Cell label={HISTORY.columns.user} main className="text-slate-900 max-sm:order-first">
                <button
                  type="button"
                  className="text-left font-medium hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                  onClick={(e) => {
                    e.stopPropagation();
                    setOpenId(item.id);
                  }}
                  aria-label={`Open entry: ${item.action} ${item.documentName ?? ''} by ${item.userName}`}
                >
                  {item.userName}
                </button>
              </Cell>
              <Cell label={HISTORY.columns.action}>
                <ActionBadge action={item.action} />
              </Cell>
              <Cell label={HISTORY.columns.collection} className="whitespace-nowrap text-slate-700">
                {collectionLabel(item.collection) || HISTORY.emptyValue}
              </Cell>
              <Cell label={HISTORY.columns.document} className="text-slate-900">
                {item.documentName || HISTORY.emptyValue}
              </Cell>
              <Cell label={HISTORY.columns.description} className="max-w-md text-slate-600">
                {item.description || HISTORY.emptyValue}
              </Cell>
            </tr>
          ))
        )}
      </TableFrame>
      <div ref={sentinel} className="flex justify-center px-4 py-1 text-sm text-slate-500">
        {isFetchingNextPage ? (
          <span>
            <Spinner className="mr-2 h-4 w-4 align-middle" />
            {HISTORY.loadingMore}
          </span>
        ) : hasNextPage ? (
          <Button variant="secondary" size="sm" onClick={() => void fetchNextPage()}>
            {HISTORY.loadMore}
          </Button>
        ) : items.length > 0 ? (
          <span>{HISTORY.end}</span>
        ) : null}
      </div>

      <EntryDialog id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
