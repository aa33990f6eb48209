import { useCallback, useEffect, useMemo, useState } from 'react';
import { can } from '../../../common/permissions';
import { TRASH } from '../../../common/trash';
import { useSession } from '../../lib/session';
import { useSearchParams } from 'react-router';
import { Eye, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { TIMINGS } from '../../../common/limits';
import { defaultSortDir, type Variety, type VarietySort } from '../../../common/schemas/varieties';
import { LIST_TEXTS } from '../../../common/texts';
import { VARIETIES, VARIETY_MESSAGES, VARIETY_TOPIC } from '../../../common/varieties';
import { NewWaitingNotice, ReviewBadge, useOpenChanges } from '../../components/review/review-badge';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { Button } from '../../components/ui/button';
import { ConfirmByTyping } from '../../components/ui/confirm-by-typing';
import { ExportMenu } from '../../components/ui/export-menu';
import { PageHeader } from '../../components/ui/page-header';
import { Cell, stackedRow, TableFrame, type TableColumn } from '../../components/ui/table-frame';
import { Pagination } from '../../components/ui/pagination';
import { SearchInput } from '../../components/ui/search-input';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { useDeleteVariety, useVarieties, type VarietyListParams } from './api';
import { BulkActions } from './bulk-actions';
import { VarietyListFilters } from './list-filters';
import { activeFilterCount, listQueryParams, readListQuery, sortedBy } from './list-query';
import { orDash } from './format';
import { RecommendedBadge } from './recommended-badge';
import { VarietyFormDialog, type VarietyFormTarget } from './variety-form-dialog';
import { VarietyViewDialog } from './variety-view-dialog';
import { ImportDialog } from './import-dialog';
import { NeedsCompleting } from './needs-completing';
import { IMPORT_TEXTS } from '../../../common/spreadsheets';

const COLUMNS = 9;
const checkboxClass = 'h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600';

/**
 * Rice varieties (docs/PRODUCT.md section 2): server-side search and pages of 20, live; sorted
 * and filtered on the server too, the choices kept in the address; a selection for export and
 * delete; on phones each row a card.
 */
export function VarietiesPage() {
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readListQuery(params), [params]);
  const { search, page } = query;
  const list = useVarieties(query);
  const [viewing, setViewing] = useState<{ variety: Variety; tab: 'details' | 'translate' } | null>(null);
  const [formTarget, setFormTarget] = useState<VarietyFormTarget | null>(null);
  const [deleting, setDeleting] = useState<Variety | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  /** The selected varieties (id → name), kept across pages until cleared. */
  const [selected, setSelected] = useState<Map<string, string>>(() => new Map());
  const remove = useDeleteVariety();
  const toast = useToast();
  const sentForReview = useSentForReview();
  const review = useOpenChanges(VARIETY_TOPIC);

  const setQuery = useCallback(
    (patch: Partial<VarietyListParams>) => {
      setParams(
        (prev) => {
          const current = readListQuery(prev);
          // Another search, sort or filter starts at the first page.
          const next = { ...current, ...patch, page: patch.page ?? 1 };
          if (patch.search !== undefined) next.search = patch.search;
          return listQueryParams(next);
        },
        { replace: true },
      );
    },
    [setParams],
  );

  // The server answers the last page when the asked one no longer exists (after deletes).
  const servedPage = list.data?.page;
  useEffect(() => {
    if (servedPage !== undefined && !list.isPlaceholderData && servedPage !== page) setQuery({ page: servedPage });
  }, [servedPage, page, list.isPlaceholderData, setQuery]);

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteError(null);
    try {
      const result = await remove.mutateAsync(deleting.id);
      setDeleting(null);
      select(deleting, false);
      if (!sentForReview(result)) toast.show(VARIETIES.deleted, { durationMs: TIMINGS.varietyDeleteToastMs });
    } catch (err) {
      setDeleteError(VARIETIES.errorDeleting(err instanceof Error ? err.message : String(err)));
    }
  }

  const c = VARIETIES.columns;
  const items = list.data?.items ?? [];
  const allOnPage = items.length > 0 && items.every((v) => selected.has(v.id));
  const select = (v: Variety, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(v.id, v.varietyName);
      else next.delete(v.id);
      return next;
    });
  const selectPage = (on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const v of items) {
        if (on) next.set(v.id, v.varietyName);
        else next.delete(v.id);
      }
      return next;
    });
  const sortDir = (sort: VarietySort) => ((query.sort ?? 'added') === sort ? (query.dir ?? defaultSortDir(sort)) : null);
  const sortable = (label: string, sort: VarietySort): TableColumn => ({
    label,
    sort: { dir: sortDir(sort), hint: LIST_TEXTS.sortHint(label), onSort: () => setQuery(sortedBy(query, sort)) },
  });
  return (
    <div>
      <PageHeader
        title={VARIETIES.title}
        subtitle={VARIETIES.subtitle}
        actions={
          <>
            <SearchInput
              value={search}
              onChange={(q) => setQuery({ search: q.trim() })}
              placeholder={VARIETIES.searchPlaceholder}
              label={VARIETIES.searchLabel}
            />
            <ExportMenu url="/api/varieties/export" search={search} />
            <NeedsCompleting onEdit={(id) => setFormTarget({ mode: 'edit', id })} />
            <Button variant="secondary" onClick={() => setImporting(true)}>
              <Upload className="h-4 w-4" aria-hidden />
              {IMPORT_TEXTS.open}
            </Button>
            <Button onClick={() => setFormTarget({ mode: 'add' })}>
              <Plus className="h-4 w-4" aria-hidden />
              {VARIETIES.addNew}
            </Button>
          </>
        }
      />

      <NewWaitingNotice collection={VARIETY_TOPIC} count={review.newCount} />
      <VarietyListFilters query={query} onChange={setQuery} />
      <div className="mb-2 flex min-h-6 flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        {list.data && list.data.total > 0 ? (
          <p aria-live="polite">
            {LIST_TEXTS.showing(
              (list.data.page - 1) * list.data.pageSize + 1,
              (list.data.page - 1) * list.data.pageSize + items.length,
              list.data.total,
              list.data.exact,
            )}
          </p>
        ) : (
          <span />
        )}
        {items.length > 0 && (
          <label className="flex items-center gap-2 sm:hidden">
            <input type="checkbox" className={checkboxClass} checked={allOnPage} onChange={(e) => selectPage(e.target.checked)} />
            {VARIETIES.list.selectPage}
          </label>
        )}
      </div>
      <BulkActions selected={selected} onClear={() => setSelected(new Map())} />
      <TableFrame
        stacked
        label={VARIETIES.title}
        columns={[
          {
            label: VARIETIES.list.selectPage,
            content: (
              <input
                type="checkbox"
                aria-label={VARIETIES.list.selectPage}
                className={checkboxClass}
                checked={allOnPage}
                disabled={items.length === 0}
                onChange={(e) => selectPage(e.target.checked)}
              />
            ),
          },
          sortable(c.varietyName, 'name'),
          c.releaseName,
          c.breedingCode,
          c.breederOrigin,
          sortable(c.yearRelease, 'year'),
          c.location,
          c.recommendedInTarlac,
          c.actions,
        ]}
        busy={list.isFetching}
      >
        {list.isPending ? (
          <tr>
            <td colSpan={COLUMNS} className="px-4 py-10 text-center text-slate-500">
              <span className="inline-flex items-center gap-3">
                <Spinner className="h-5 w-5" label={VARIETIES.loading} />
                {VARIETIES.loading}
              </span>
            </td>
          </tr>
        ) : list.isError && !list.data ? (
          <tr>
            <td colSpan={COLUMNS} role="alert" className="px-4 py-10 text-center text-red-600">
              {list.error.message}
            </td>
          </tr>
        ) : items.length === 0 ? (
          <tr>
            <td colSpan={COLUMNS} className="px-4 py-10 text-center text-slate-500">
              {activeFilterCount(query) > 0 ? VARIETIES.list.noMatch : VARIETIES.empty}
              {activeFilterCount(query) === 0 && !search && (
                <span className="mt-3 flex flex-col items-center gap-3">
                  <span className="text-sm text-slate-600">{VARIETIES.emptyNext}</span>
                  <span className="flex flex-wrap justify-center gap-2">
                    <Button size="sm" onClick={() => setFormTarget({ mode: 'add' })}>
                      <Plus className="h-4 w-4" aria-hidden />
                      {VARIETIES.addFirst}
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => setImporting(true)}>
                      <Upload className="h-4 w-4" aria-hidden />
                      {VARIETIES.importFirst}
                    </Button>
                  </span>
                </span>
              )}
            </td>
          </tr>
        ) : (
          items.map((v) => (
            <tr key={v.id} className={`hover:bg-slate-50/70 ${stackedRow}`} data-testid="variety-row">
              <td className="w-10 px-3 py-3 max-sm:float-right max-sm:py-1.5">
                <input
                  type="checkbox"
                  aria-label={VARIETIES.list.select(v.varietyName)}
                  className={checkboxClass}
                  checked={selected.has(v.id)}
                  onChange={(e) => select(v, e.target.checked)}
                />
              </td>
              <Cell label={c.varietyName} main className="whitespace-nowrap font-medium text-slate-900 max-sm:whitespace-normal">
                <span>
                  {orDash(v.varietyName)}
                  {review.byRecord.has(v.id) && <ReviewBadge change={review.byRecord.get(v.id)!} className="mt-1 flex" />}
                </span>
              </Cell>
              <Cell label={c.releaseName} className="text-slate-700">
                {orDash(v.releaseName)}
              </Cell>
              <Cell label={c.breedingCode} className="whitespace-nowrap text-slate-700">
                {orDash(v.breedingCode)}
              </Cell>
              <Cell label={c.breederOrigin} className="text-slate-700">
                {orDash(v.breederOrigin)}
              </Cell>
              <Cell label={c.yearRelease} className="whitespace-nowrap text-slate-700">
                {orDash(v.yearRelease)}
              </Cell>
              <Cell label={c.location} className="text-slate-700">
                {orDash(v.location)}
              </Cell>
              <Cell label={c.recommendedInTarlac}>
                <RecommendedBadge value={v.recommendedInTarlac} />
              </Cell>
              <Cell label={c.actions} unlabelled className="whitespace-nowrap py-2 max-sm:pt-2">
                <div className="flex gap-1">
                  <IconAction
                    label={VARIETIES.actions.view}
                    name={v.varietyName}
                    onClick={() => setViewing({ variety: v, tab: 'details' })}
                    className="text-slate-600 hover:bg-slate-100"
                  >
                    <Eye className="h-4 w-4" aria-hidden />
                  </IconAction>
                  <IconAction
                    label={VARIETIES.actions.edit}
                    name={v.varietyName}
                    onClick={() => setFormTarget({ mode: 'edit', id: v.id })}
                    className="text-brand-700 hover:bg-brand-50"
                  >
                    <Pencil className="h-4 w-4" aria-hidden />
                  </IconAction>
                  <IconAction
                    label={VARIETIES.actions.delete}
                    name={v.varietyName}
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(v);
                    }}
                    className="text-red-600 hover:bg-red-50"
                  >
                    <Trash2 className="h-4 w-4" aria-hidden />
                  </IconAction>
                </div>
              </Cell>
            </tr>
          ))
        )}
      </TableFrame>

      {list.data && (
        <Pagination
          page={list.data.page}
          pageCount={list.data.pageCount}
          approximate={!list.data.exact}
          onPageChange={(p) => setQuery({ page: p })}
        />
      )}

      <VarietyViewDialog
        key={viewing ? `${viewing.variety.id}:${viewing.tab}` : 'none'}
        variety={viewing?.variety ?? null}
        tab={viewing?.tab}
        onClose={() => setViewing(null)}
        onEdit={(v) => {
          setViewing(null);
          setFormTarget({ mode: 'edit', id: v.id });
        }}
      />
      <VarietyFormDialog
        target={formTarget}
        onClose={() => setFormTarget(null)}
        onTranslate={(variety) => {
          setFormTarget(null);
          setViewing({ variety, tab: 'translate' });
        }}
        onOpenRecord={(id) => setFormTarget({ mode: 'edit', id })}
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <ConfirmByTyping
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title={VARIETIES.deleteDialog.title}
        description={deleting ? VARIETIES.deleteDialog.text(deleting.varietyName) : ''}
        note={TRASH.deleteNote(can(session?.user.role, 'trash.restore'))}
        expected={deleting?.varietyName ?? ''}
        trim
        mismatchText={VARIETY_MESSAGES.deleteMismatch}
        confirmLabel={VARIETIES.deleteDialog.confirm}
        busyLabel={VARIETIES.deleteDialog.busy}
        onConfirm={confirmDelete}
        error={deleteError}
      />
    </div>
  );
}

/** A compact row action: an icon with a tooltip; its accessible name says what and which. */
function IconAction({
  label,
  name,
  onClick,
  className,
  children,
}: {
  label: string;
  name: string;
  onClick(): void;
  className: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      title={label}
      aria-label={`${label} ${name}`}
      className={
        `inline-flex h-8 w-8 items-center justify-center rounded-lg transition-colors ` +
        `focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${className}`
      }
    >
      {children}
    </button>
  );
}
