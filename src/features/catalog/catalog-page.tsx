import { useCallback, useState } from 'react';
import { can } from '../../../common/permissions';
import { TRASH } from '../../../common/trash';
import { useSession } from '../../lib/session';
import { useSearchParams } from 'react-router';
import { LayoutGrid, List, Plus } from 'lucide-react';
import type { CatalogKind } from '../../../common/catalog';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import { LIST_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { ConfirmByTyping } from '../../components/ui/confirm-by-typing';
import { ExportMenu } from '../../components/ui/export-menu';
import { PageHeader } from '../../components/ui/page-header';
import { SearchInput } from '../../components/ui/search-input';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { NewWaitingNotice, useOpenChanges } from '../../components/review/review-badge';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { useCatalogList, useDeleteEntry, type CatalogOrder } from './api';
import { EntryCard } from './entry-card';
import { ENTRY_ROW_COLUMNS, ENTRY_ROW_SORTS, EntryRow } from './entry-row';
import { TableFrame, type TableColumn } from '../../components/ui/table-frame';
import { CATALOG_SORTS, catalogSortDir, type CatalogEntry, type CatalogSort } from '../../../common/schemas/catalog';
import { CATALOG_VIEW, readPreference, writePreference } from '../../lib/storage';
import { EntryFormDialog, type FormTarget } from './entry-form-dialog';
import { EntryViewDialog } from './entry-view-dialog';
import { DatasetHealthLink, TrainingSetLink } from './training-set-link';

/** The order the address asks for (none: newest first). */
function catalogOrderOf(params: URLSearchParams): CatalogOrder | undefined {
  const sort = params.get('sort');
  if (!(CATALOG_SORTS as readonly string[]).includes(sort ?? '')) return undefined;
  const dir = params.get('dir');
  return { sort: sort as CatalogSort, dir: dir === 'asc' || dir === 'desc' ? dir : catalogSortDir(sort as CatalogSort) };
}

/** The Pests and the Diseases screens: one page, parameterised by kind. */
export function CatalogPage({ kind }: { kind: CatalogKind }) {
  const { session } = useSession();
  const t = kind.texts;
  const toast = useToast();
  const [search, setSearch] = useState('');
  // ?open=<id> opens an entry's view (links from other screens, such as a model's report).
  const [params, setParams] = useSearchParams();
  // ?sort=&dir=: the list's order, kept in the address like the varieties list's.
  const order = catalogOrderOf(params);
  const list = useCatalogList(kind, search, order);
  const sortBy = (sort: CatalogSort) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        const dir = order?.sort === sort ? (order.dir === 'asc' ? 'desc' : 'asc') : catalogSortDir(sort);
        next.set('sort', sort);
        next.set('dir', dir);
        return next;
      },
      { replace: true },
    );
  const columns = ENTRY_ROW_COLUMNS.map((label): TableColumn => {
    const sort = ENTRY_ROW_SORTS[label];
    if (!sort) return { label };
    const dir = (order?.sort ?? 'added') === sort ? (order?.dir ?? catalogSortDir(sort)) : null;
    return { label, sort: { dir, hint: LIST_TEXTS.sortHint(label), onSort: () => sortBy(sort) } };
  });
  const [viewId, setViewId] = useState<string | null>(() => params.get('open'));
  // The edit dialog's Translate opens the view on its Translate tab.
  const [viewTab, setViewTab] = useState<'details' | 'translate'>('details');
  const closeView = () => {
    setViewId(null);
    setViewTab('details');
    if (params.has('open'))
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.delete('open');
          return next;
        },
        { replace: true },
      );
  };
  const [formTarget, setFormTarget] = useState<FormTarget | null>(null);
  const [deleting, setDeleting] = useState<CatalogEntry | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = useDeleteEntry(kind);
  const sentForReview = useSentForReview();
  const review = useOpenChanges(kind.collection);
  const onSearch = useCallback((value: string) => setSearch(value), []);

  const entries = list.data?.pages.flatMap((p) => p.items) ?? [];
  // Cards (the product's own) or a list, many to a screen: ?view=list, else the last choice.
  const asList = (params.get('view') ?? readPreference(CATALOG_VIEW)) === 'list';
  const showAs = (view: 'cards' | 'list') => {
    writePreference(CATALOG_VIEW, view);
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (view === 'list') next.set('view', 'list');
        else next.delete('view');
        return next;
      },
      { replace: true },
    );
  };
  const actionsOf = (entry: CatalogEntry) => ({
    review: review.byRecord.get(entry.id),
    onView: () => setViewId(entry.id),
    onEdit: () => setFormTarget({ mode: 'edit', id: entry.id }),
    onDelete: () => {
      setDeleteError(null);
      setDeleting(entry);
    },
  });

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteError(null);
    try {
      const result = await remove.mutateAsync(deleting.id);
      setDeleting(null);
      if (!sentForReview(result)) toast.show(t.deleteSuccess);
    } catch (err) {
      setDeleteError(`${t.deleteErrorPrefix}${(err as Error).message}`);
    }
  }

  return (
    <div>
      <PageHeader
        title={t.title}
        subtitle={t.subtitle}
        actions={
          <>
            <SearchInput value={search} onChange={onSearch} placeholder={t.searchPlaceholder} label={`Search ${t.noun}s`} />
            <ExportMenu url={`/api/${kind.route}/export`} search={search.trim()} />
            <TrainingSetLink kind={kind} />
            <DatasetHealthLink kind={kind} />
            <Button onClick={() => setFormTarget({ mode: 'add' })}>
              <Plus className="h-4 w-4" aria-hidden />
              {t.addButton}
            </Button>
          </>
        }
      />

      <NewWaitingNotice collection={kind.collection} count={review.newCount} />
      <div className="mb-3 flex items-center justify-end gap-2 text-sm" role="group" aria-label={CATALOG_LABELS.showAs}>
        <span className="text-slate-600">{CATALOG_LABELS.showAs}</span>
        <div className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5">
          {(['cards', 'list'] as const).map((view) => (
            <button
              key={view}
              type="button"
              aria-pressed={asList === (view === 'list')}
              onClick={() => showAs(view)}
              className={
                'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 font-medium ' +
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ' +
                (asList === (view === 'list') ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100')
              }
            >
              {view === 'list' ? <List className="h-4 w-4" aria-hidden /> : <LayoutGrid className="h-4 w-4" aria-hidden />}
              {view === 'list' ? CATALOG_LABELS.asList : CATALOG_LABELS.asCards}
            </button>
          ))}
        </div>
      </div>
      {list.isPending ? (
        <div className="flex items-center justify-center gap-3 rounded-2xl border border-slate-200 bg-white p-12 text-slate-500">
          <Spinner />
          <span>{t.loadingText}</span>
        </div>
      ) : list.isError ? (
        <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-sm text-red-700">
          {list.error.message}
        </p>
      ) : entries.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-12 text-center text-slate-500">
          <p>{t.emptyText}</p>
          {!search.trim() && (
            <>
              <p className="mt-2 text-sm text-slate-600">{CATALOG_LABELS.emptyNext(t.noun)}</p>
              <Button className="mt-3" size="sm" onClick={() => setFormTarget({ mode: 'add' })}>
                <Plus className="h-4 w-4" aria-hidden />
                {CATALOG_LABELS.addFirst(t.noun)}
              </Button>
            </>
          )}
        </div>
      ) : (
        <>
          {asList ? (
            <TableFrame stacked label={t.title} columns={columns}>
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} {...actionsOf(entry)} />
              ))}
            </TableFrame>
          ) : (
            <div className="grid grid-cols-1 gap-6 md:grid-cols-2 xl:grid-cols-3" data-testid="catalog-grid">
              {entries.map((entry) => (
                <EntryCard key={entry.id} entry={entry} {...actionsOf(entry)} />
              ))}
            </div>
          )}
          {list.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? <Spinner className="h-4 w-4" /> : null}
                {CATALOG_LABELS.loadMore}
              </Button>
            </div>
          )}
        </>
      )}

      <EntryViewDialog
        key={`${viewId}:${viewTab}`}
        kind={kind}
        id={viewId}
        tab={viewTab}
        onClose={closeView}
        onEdit={(id) => {
          closeView();
          setFormTarget({ mode: 'edit', id });
        }}
      />
      <EntryFormDialog
        kind={kind}
        target={formTarget}
        onClose={() => setFormTarget(null)}
        onTranslate={(id) => {
          setFormTarget(null);
          setViewTab('translate');
          setViewId(id);
        }}
      />
      <ConfirmByTyping
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title={t.deleteTitle}
        description={<>This {t.noun} will be hidden from every screen. Its photos are kept.</>}
        note={TRASH.deleteNote(can(session?.user.role, 'trash.restore'))}
        expected={deleting?.name ?? ''}
        trim={kind.trimDeleteConfirmation}
        mismatchText={t.deleteMismatch}
        confirmLabel={CATALOG_LABELS.delete}
        busyLabel={CATALOG_LABELS.deleting}
        onConfirm={confirmDelete}
        error={deleteError}
      />
    </div>
  );
}
