import { useId, useState, type ReactNode } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import { LIST_TEXTS } from '../../../common/texts';
import { Button } from './button';
import { cn } from './cn';

const selectClass =
  'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100';

/** A list's filter: a labelled select whose value is in the page's address. */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  children: ReactNode;
}) {
  return (
    <div className="min-w-[10rem] flex-1 sm:flex-none">
      <label htmlFor={id} className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={selectClass}>
        {children}
      </select>
    </div>
  );
}

/** A date input styled as the filters are. */
export const filterInputClass = selectClass;

/**
 * A list's filters in one bordered row. `lead` (the search) is always in view; on phones the
 * filters themselves sit behind a "Filters" button that says how many are set, so the list
 * starts on the first screen.
 */
export function FilterPanel({ lead, active, children }: { lead?: ReactNode; active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <section
      aria-label={LIST_TEXTS.filters}
      className="mb-4 flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm max-sm:p-3"
    >
      {lead}
      <Button variant="secondary" className="sm:hidden" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        <SlidersHorizontal className="h-4 w-4" aria-hidden />
        {LIST_TEXTS.filterButton(active)}
      </Button>
      <div id={id} className={cn('flex w-full flex-wrap items-end gap-3 sm:contents', !open && 'max-sm:hidden')}>
        {children}
      </div>
    </section>
  );
}
