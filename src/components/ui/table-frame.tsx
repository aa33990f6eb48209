import type { ReactNode, TdHTMLAttributes } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { cn } from './cn';

/** A column heading; with `sort`, a button that sorts by it (the state read by screen readers through aria-sort). */
export interface TableColumn {
  label: string;
  /** Shown to screen readers only (a selection's checkbox column, whose heading is the checkbox). */
  content?: ReactNode;
  sort?: { dir: 'asc' | 'desc' | null; onSort(): void; hint: string };
  /** Pinned to the right edge on wider screens, so a table wider than its frame keeps it in view (a row's actions). */
  pinned?: boolean;
}

const pinnedEdge = 'sm:sticky sm:right-0 sm:z-[1] sm:shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.18)]';

/** The cells of a `pinned` column: opaque, pinned to the right edge while the table scrolls beneath. */
export const pinnedCell = `${pinnedEdge} sm:bg-white`;

function Heading({ column, dense }: { column: TableColumn; dense: boolean | undefined }) {
  const { sort } = column;
  const Icon = sort?.dir === 'asc' ? ArrowUp : sort?.dir === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <th
      scope="col"
      aria-sort={sort ? (sort.dir === 'asc' ? 'ascending' : sort.dir === 'desc' ? 'descending' : 'none') : undefined}
      className={cn(
        'text-left text-xs font-semibold uppercase tracking-wide',
        dense ? 'whitespace-nowrap px-2.5 py-3 text-slate-500' : 'px-3 py-3 align-bottom text-slate-600',
        column.pinned && `${pinnedEdge} sm:bg-slate-50`,
      )}
    >
      {column.content ??
        (sort ? (
          <button
            type="button"
            onClick={sort.onSort}
            title={sort.hint}
            className={cn(
              '-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase tracking-wide hover:text-slate-900',
              'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
              sort.dir && 'text-slate-900',
            )}
          >
            {column.label}
            <Icon className={cn('h-3.5 w-3.5', !sort.dir && 'text-slate-400')} aria-hidden />
          </button>
        ) : (
          column.label
        ))}
    </th>
  );
}

/**
 * The bordered, horizontally scrolling table every list screen uses; rows come as children.
 * `stacked`: on phones each row is a card (its cells one under another, each with its
 * column's label, from Cell's `label`), so nothing, its actions least of all, is off-screen.
 */
export function TableFrame({
  columns,
  children,
  dense,
  busy,
  stacked,
  label,
}: {
  columns: Array<string | TableColumn>;
  children: ReactNode;
  dense?: boolean;
  busy?: boolean;
  stacked?: boolean;
  label?: string;
}) {
  return (
    <div
      className={cn(
        'overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm',
        stacked && 'max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none',
      )}
    >
      <div className="overflow-x-auto">
        <table
          aria-label={label}
          className={cn(
            'min-w-full divide-y divide-slate-200',
            dense ? 'text-[13px]' : 'text-sm',
            stacked && 'max-sm:block max-sm:divide-y-0',
          )}
        >
          <thead className={cn('bg-slate-50', stacked && 'max-sm:sr-only')}>
            <tr>
              {columns.map((c) => {
                const column = typeof c === 'string' ? { label: c } : c;
                return <Heading key={column.label} column={column} dense={dense} />;
              })}
            </tr>
          </thead>
          <tbody
            className={cn('divide-y divide-slate-100', stacked && 'max-sm:block max-sm:space-y-3 max-sm:divide-y-0')}
            aria-busy={busy || undefined}
          >
            {children}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A row of a stacked table: a card on phones. */
export const stackedRow =
  'max-sm:block max-sm:rounded-2xl max-sm:border max-sm:border-slate-200 max-sm:bg-white max-sm:px-1 max-sm:py-2 max-sm:shadow-sm';

/** On phones, a cell's column label before its value (from `data-label`). */
const PHONE_LABEL =
  'max-sm:before:w-32 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:uppercase ' +
  'max-sm:before:tracking-wide max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]';

/**
 * A cell of a stacked table: on phones its column's `label` stands before the value (the
 * heading row is then for screen readers only). `main`: the row's title on the card;
 * `unlabelled`: a cell that says what it is itself (a photo, the action buttons), whose label
 * would only take room.
 */
export function Cell({
  label,
  main,
  unlabelled,
  className,
  children,
  ...rest
}: {
  label: string;
  main?: boolean;
  unlabelled?: boolean;
  className?: string;
  children: ReactNode;
} & TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td
      data-label={label}
      className={cn(
        'px-3 py-3',
        'max-sm:flex max-sm:gap-3 max-sm:py-1.5',
        main ? 'max-sm:text-base' : unlabelled ? '' : PHONE_LABEL,
        className,
      )}
      {...rest}
    >
      {children}
    </td>
  );
}
