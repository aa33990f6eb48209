import { Button } from './button';

/** Previous / Next and 'Page x of y', shown only when there is more than one page. */
export function Pagination({ page, pageCount, onPageChange }: { page: number; pageCount: number; onPageChange(page: number): void }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-4">
      <Button variant="secondary" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>Previous</Button>
      <span className="text-sm text-slate-600">Page {page} of {pageCount}</span>
      <Button variant="secondary" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount}>Next</Button>
    </nav>
  );
}
