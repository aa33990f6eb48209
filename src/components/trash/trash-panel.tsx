import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { fullDate } from '../../../common/history-dates';
import type { TrashList } from '../../../common/schemas/trash';
import { TRASH, type TrashCollection } from '../../../common/trash';
import { api } from '../../lib/api';
import type { Saved } from '../../lib/review';
import { useSentForReview } from '../review/use-sent-for-review';
import { Button } from '../ui/button';
import { Pagination } from '../ui/pagination';
import { SearchInput } from '../ui/search-input';
import { Spinner } from '../ui/spinner';
import { TableFrame } from '../ui/table-frame';
import { useToast } from '../ui/toast';

/** The query key starts with the collection: a live event of that collection refreshes it. */
const trashKey = (collection: TrashCollection, search: string, page: number) => [collection, 'trash', { search, page }] as const;

/** Deleted records of one collection, searched and paged on the server, each with Restore. */
export function TrashPanel({ collection }: { collection: TrashCollection }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const sentForReview = useSentForReview();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: trashKey(collection, search, page),
    queryFn: ({ signal }) => api<TrashList>(`/api/trash/${collection}?search=${encodeURIComponent(search)}&page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const restore = useMutation({
    mutationFn: (id: string) => api<Saved<void>>(`/api/trash/${collection}/${encodeURIComponent(id)}/restore`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [collection] }),
  });

  async function onRestore(id: string, name: string) {
    setError(null);
    try {
      // Sent for review (202): it stays in the trash until the restore is approved.
      if (!sentForReview(await restore.mutateAsync(id))) toast.show(TRASH.restored(name));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  const c = TRASH.columns;
  const items = list.data?.items ?? [];
  return (
    <section aria-label={TRASH.tab}>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">{TRASH.explanation}</p>
      {collection === 'accounts' && <p className="-mt-2 mb-4 max-w-3xl text-sm text-slate-600">{TRASH.accountsExplanation}</p>}
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <SearchInput
          value={search}
          onChange={(q) => {
            setSearch(q.trim());
            setPage(1);
          }}
          placeholder={TRASH.searchPlaceholder}
          label={TRASH.searchPlaceholder}
        />
      </div>
      {error && (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <TableFrame columns={[c.name, c.details, c.deletedBy, c.deletedAt, c.actions]} busy={list.isFetching}>
        {list.isPending ? (
          <tr>
            <td colSpan={5} className="px-4 py-10 text-center text-slate-500">
              <Spinner className="mx-auto h-5 w-5" label="Loading" />
            </td>
          </tr>
        ) : items.length === 0 ? (
          <tr>
            <td colSpan={5} className="px-4 py-10 text-center text-slate-500">
              {search ? TRASH.noMatch : TRASH.empty}
            </td>
          </tr>
        ) : (
          items.map((item) => (
            <tr key={item.id}>
              <td className="px-3 py-3 font-medium text-slate-900">{item.name}</td>
              <td className="px-3 py-3 text-slate-600">
                {item.detail ?? '—'}
                {item.photoCount !== null && <span className="block text-xs text-slate-500">{TRASH.photos(item.photoCount)}</span>}
              </td>
              <td className="px-3 py-3 text-slate-600">{item.deletedBy?.fullname ?? TRASH.unknownDeleter}</td>
              <td className="px-3 py-3 text-slate-600">{fullDate(item.deletedAt)}</td>
              <td className="px-3 py-3">
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={TRASH.restoreLabel(item.name)}
                  disabled={restore.isPending}
                  onClick={() => void onRestore(item.id, item.name)}
                >
                  <RotateCcw className="h-4 w-4" aria-hidden />
                  {restore.isPending && restore.variables === item.id ? TRASH.restoring : TRASH.restore}
                </Button>
              </td>
            </tr>
          ))
        )}
      </TableFrame>
      <Pagination page={list.data?.page ?? page} pageCount={list.data?.pageCount ?? 1} onPageChange={setPage} />
    </section>
  );
}
