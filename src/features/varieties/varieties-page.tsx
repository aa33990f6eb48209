import { useCallback, useEffect, useState } from 'react';
import { can } from '../../../common/permissions';
import { TRASH } from '../../../common/trash';
import { useSession } from '../../lib/session';
import { useSearchParams } from 'react-router';
import { Eye, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { TIMINGS } from '../../../common/limits';
import type { Variety } from '../../../common/schemas/varieties';
import { VARIETIES, VARIETY_MESSAGES, VARIETY_TOPIC } from '../../../common/varieties';
import { NewWaitingNotice, ReviewBadge, useOpenChanges } from '../../components/review/review-badge';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { Button } from '../../components/ui/button';
import { ConfirmByTyping } from '../../components/ui/confirm-by-typing';
import { ExportMenu } from '../../components/ui/export-menu';
import { PageHeader } from '../../components/ui/page-header';
import { TableFrame } from '../../components/ui/table-frame';
import { Pagination } from '../../components/ui/pagination';
import { SearchInput } from '../../components/ui/search-input';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { useDeleteVariety, useVarieties } from './api';
import { orDash } from './format';
import { RecommendedBadge } from './recommended-badge';
import { VarietyFormDialog, type VarietyFormTarget } from './variety-form-dialog';
import { VarietyViewDialog } from './variety-view-dialog';
import { ImportDialog } from './import-dialog';
import { NeedsCompleting } from './needs-completing';
import { IMPORT_TEXTS } from '../../../common/spreadsheets';

/** Rice varieties (docs/PRODUCT.md section 2): server-side search and pages of 20, live. */
export function VarietiesPage() {
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useVarieties(search, page);
  const [viewing, setViewing] = useState<{ variety: Variety; tab: 'details' | 'translate' } | null>(null);
  const [formTarget, setFormTarget] = useState<VarietyFormTarget | null>(null);
  const [deleting, setDeleting] = useState<Variety | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const remove = useDeleteVariety();
  const toast = useToast();
  const sentForReview = useSentForReview();
  const review = useOpenChanges(VARIETY_TOPIC);

  const setQuery = useCallback(
    (next: { q?: string; page?: number }) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          if (next.q !== undefined) {
            if (next.q) p.set('q', next.q);
            else p.delete('q');
            p.delete('page');
          }
          if (next.page !== undefined) {
            if (next.page > 1) p.set('page', String(next.page));
            else p.delete('page');
          }
          return p;
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
      if (!sentForReview(result)) toast.show(VARIETIES.deleted, { durationMs: TIMINGS.varietyDeleteToastMs });
    } catch (err) {
      setDeleteError(VARIETIES.errorDeleting(err instanceof Error ? err.message : String(err)));
    }
  }

  const c = VARIETIES.columns;
  const items = list.data?.items ?? [];
  return (
    <div>
      <PageHeader
        title={VARIETIES.title}
        subtitle={VARIETIES.subtitle}
        actions={
          <>
            <SearchInput
              value={search}
              onChange={(q) => setQuery({ q: q.trim() })}
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
      <TableFrame
        columns={[
          c.varietyName,
          c.releaseName,
          c.breedingCode,
          c.breederOrigin,
          c.yearRelease,
          c.location,
          c.recommendedInTarlac,
          c.actions,
        ]}
        busy={list.isFetching}
      >
        {list.isPending ? (
          <tr>
            <td colSpan={8} className="px-4 py-10 text-center text-slate-500">
              <span className="inline-flex items-center gap-3">
                <Spinner className="h-5 w-5" label={VARIETIES.loading} />
                {VARIETIES.loading}
              </span>
            </td>
          </tr>
        ) : list.isError && !list.data ? (
          <tr>
            <td colSpan={8} role="alert" className="px-4 py-10 text-center text-red-600">
              {list.error.message}
            </td>
          </tr>
        ) : items.length === 0 ? (
          <tr>
            <td colSpan={8} className="px-4 py-10 text-center text-slate-500">
              {VARIETIES.empty}
            </td>
          </tr>
        ) : (
          items.map((v) => (
            <tr key={v.id} className="hover:bg-slate-50/70" data-testid="variety-row">
              <td className="whitespace-nowrap px-3 py-3 font-medium text-slate-900">
                {orDash(v.varietyName)}
                {review.byRecord.has(v.id) && <ReviewBadge change={review.byRecord.get(v.id)!} className="mt-1 flex" />}
              </td>
              <td className="px-3 py-3 text-slate-700">{orDash(v.releaseName)}</td>
              <td className="whitespace-nowrap px-3 py-3 text-slate-700">{orDash(v.breedingCode)}</td>
              <td className="px-3 py-3 text-slate-700">{orDash(v.breederOrigin)}</td>
              <td className="whitespace-nowrap px-3 py-3 text-slate-700">{orDash(v.yearRelease)}</td>
              <td className="px-3 py-3 text-slate-700">{orDash(v.location)}</td>
              <td className="px-3 py-3">
                <RecommendedBadge value={v.recommendedInTarlac} />
              </td>
              <td className="whitespace-nowrap px-3 py-2">
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
              </td>
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
