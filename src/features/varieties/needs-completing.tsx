import { useState } from 'react';
import { ListChecks } from 'lucide-react';
import { VARIETIES, VARIETY_LABELS } from '../../../common/varieties';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Pagination } from '../../components/ui/pagination';
import { Spinner } from '../../components/ui/spinner';
import { useIncompleteVarieties } from './api';

/** "Needs completing (N)": the records that lack required fields, each with what it lacks and an Edit. */
export function NeedsCompleting({ onEdit }: { onEdit(id: string): void }) {
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const list = useIncompleteVarieties(page);
  const t = VARIETIES.needsCompleting;
  const total = list.data?.total ?? 0;
  if (total === 0 && !open) return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <ListChecks className="h-4 w-4" aria-hidden />
        {t.button(total)}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t.title}
        size="lg"
        footer={
          <Button variant="secondary" onClick={() => setOpen(false)}>
            {t.close}
          </Button>
        }
      >
        <p className="mb-3 text-sm text-slate-600">{t.text}</p>
        {list.isPending ? (
          <Spinner className="h-5 w-5" label={VARIETIES.loading} />
        ) : list.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {list.error.message}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label={t.title}>
            {list.data.items.map((v) => (
              <li key={v.id} className="flex items-center justify-between gap-3 py-2" data-testid="incomplete-variety">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{v.varietyName}</p>
                  <p className="text-xs text-amber-800">{t.lacks(v.missing.map((f) => VARIETY_LABELS[f]))}</p>
                </div>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`${t.edit} ${v.varietyName}`}
                  onClick={() => {
                    setOpen(false);
                    onEdit(v.id);
                  }}
                >
                  {t.edit}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {list.data && <Pagination page={list.data.page} pageCount={list.data.pageCount} onPageChange={setPage} />}
      </Dialog>
    </>
  );
}
