import { Button } from './button';

/**
 * Previous / Next and 'Page x of y', shown only when there is more than one page; 'of about y'
 * when the server estimated the count (a search with very many matches).
 */
export function Pagination({
  page,
  pageCount,
  approximate = false,
  onPageChange,
}: {
  page: number;
  pageCount: number;
  approximate?: boolean;
  onPageChange(page: number): void;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-4">
      <Button variant="secondary" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
        Previous
      </Button>
      <span className="text-sm text-slate-600">
        Page {page} of {approximate ? `about ${pageCount.toLocaleString('en-US')}` : pageCount}
      </span>
      <Button variant="secondary" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount}>
        Next
      </Button>
    </nav>
  );
}
