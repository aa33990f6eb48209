import { useState, type ReactNode } from 'react';
import { AlertTriangle, ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { EvaluationReport } from '../../../common/schemas/models';
import { cn } from '../../components/ui/cn';
import { formatScore } from './format';

/** A column heading; with `sort`, a button that sorts by it and tells its order by aria-sort. */
export interface Column {
  label: string;
  sort?: { direction: 'ascending' | 'descending' | null; onSort(): void };
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | null }) {
  const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return <Icon className={cn('h-3.5 w-3.5 shrink-0', direction ? 'text-slate-900' : 'text-slate-500')} aria-hidden />;
}

/**
 * TableFrame's look for a table wider than a phone: its scrolling box is a labelled region that
 * takes the focus, so it can be scrolled with the keyboard.
 */
export function ScrollTable({ label, columns, children }: { label: string; columns: Array<string | Column>; children: ReactNode }) {
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div
        className="overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-600"
        role="region"
        aria-label={label}
        tabIndex={0}
      >
        <table className="min-w-full divide-y divide-slate-200 text-[13px]">
          <thead className="bg-slate-50">
            <tr>
              {columns.map((column) => {
                const c = typeof column === 'string' ? { label: column } : column;
                const head = 'whitespace-nowrap text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
                return (
                  <th
                    key={c.label}
                    scope="col"
                    aria-sort={c.sort ? (c.sort.direction ?? 'none') : undefined}
                    className={cn(head, c.sort ? 'px-1 py-1.5' : 'px-2.5 py-3')}
                  >
                    {c.sort ? (
                      <button
                        type="button"
                        onClick={c.sort.onSort}
                        className={cn(
                          'inline-flex min-h-9 items-center gap-1 rounded-md px-1.5 uppercase tracking-wide hover:bg-slate-200/70',
                          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
                          c.sort.direction && 'text-slate-900',
                        )}
                      >
                        {c.label}
                        <SortIcon direction={c.sort.direction} />
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">{children}</tbody>
        </table>
      </div>
    </div>
  );
}

/** A change against the live model: signed, green when better, red when worse. */
export function Delta({ value, percent = false }: { value: number | null; percent?: boolean }) {
  if (value === null) return <span className="text-slate-600">–</span>;
  const text = percent ? S.report.deltaPercent(value) : S.report.delta(value);
  return (
    <span
      className={cn('font-medium tabular-nums', value > 0 ? 'text-green-700' : value < 0 ? 'text-red-700' : 'text-slate-600')}
      data-delta={value > 0 ? 'up' : value < 0 ? 'down' : 'same'}
    >
      {text}
    </span>
  );
}

type Row = EvaluationReport['perClass'][number];
type SortKey = 'name' | 'support' | 'precision' | 'recall' | 'f1';
interface Sort {
  by: SortKey;
  direction: 'ascending' | 'descending';
}
/** The server's order: weakest first, which is F1 from the lowest. */
const WEAKEST_FIRST: Sort = { by: 'f1', direction: 'ascending' };

/**
 * The rows in the chosen order; a class with no value last either way, and ties in the server's
 * order (weakest first), so F1 from the lowest is the server's order itself.
 */
function sorted(rows: readonly Row[], sort: Sort): Row[] {
  const rank = new Map(rows.map((r, i) => [r, i]));
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    let order: number;
    if (sort.by === 'name') order = sign * a.name.localeCompare(b.name);
    else {
      const x = a[sort.by];
      const y = b[sort.by];
      order = x === null ? (y === null ? 0 : 1) : y === null ? -1 : sign * (x - y);
    }
    return order || rank.get(a)! - rank.get(b)!;
  });
}

/** The mark of a class whose score rests on few photos (the note under the table says what it means). */
export function FewPhotosBadge() {
  return (
    <span
      className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
      title={S.report.fewPhotosHelp}
      data-testid="few-photos"
    >
      <AlertTriangle className="h-3 w-3" aria-hidden />
      {S.report.fewPhotos}
    </span>
  );
}

/**
 * F1, photos, precision and recall of each class, with F1 and recall against the live model:
 * weakest first, sortable by the column headings; a class on few photos is marked.
 */
export function PerClassTable({ report }: { report: EvaluationReport }) {
  const [sort, setSort] = useState<Sort>(WEAKEST_FIRST);
  const c = S.report.columns;
  const compared = report.comparison !== null;
  const sortable = (by: SortKey, label: string): Column => ({
    label,
    sort: {
      direction: sort.by === by ? sort.direction : null,
      onSort: () => setSort((s) => ({ by, direction: s.by === by && s.direction === 'ascending' ? 'descending' : 'ascending' })),
    },
  });
  const columns = [
    sortable('name', c.name),
    sortable('f1', c.f1),
    sortable('support', c.support),
    sortable('precision', c.precision),
    sortable('recall', c.recall),
    ...(compared ? [c.f1Delta, c.recallDelta] : []),
  ];
  const labels: Record<SortKey, string> = { name: c.name, precision: c.precision, recall: c.recall, f1: c.f1, support: c.support };
  const anyFew = report.perClass.some((r) => r.fewPhotos);
  return (
    <div className="space-y-2">
      <p className="sr-only" role="status" data-testid="class-sort">
        {S.report.sortedBy(labels[sort.by], sort.direction, sort.by === 'name')}
      </p>
      <ScrollTable label={S.report.tableOf(T.report.perClass)} columns={columns}>
        {sorted(report.perClass, sort).map((row) => (
          <tr key={row.key} data-testid="class-row" data-few-photos={row.fewPhotos || undefined}>
            <th scope="row" className="px-2.5 py-2 text-left font-medium text-slate-800">
              {row.name}
            </th>
            <td className="px-2.5 py-2 font-semibold tabular-nums text-slate-900">{formatScore(row.f1)}</td>
            <td className="px-2.5 py-2 tabular-nums text-slate-800">
              <span className="inline-flex items-center gap-2">
                {row.support}
                {row.fewPhotos && <FewPhotosBadge />}
              </span>
            </td>
            <td className="px-2.5 py-2 tabular-nums text-slate-800">{formatScore(row.precision)}</td>
            <td className="px-2.5 py-2 tabular-nums text-slate-800">{formatScore(row.recall)}</td>
            {compared && (
              <td className="px-2.5 py-2">
                <Delta value={row.f1Delta} />
              </td>
            )}
            {compared && (
              <td className="px-2.5 py-2">
                <Delta value={row.recallDelta} />
              </td>
            )}
          </tr>
        ))}
      </ScrollTable>
      {anyFew && (
        <p className="text-sm text-slate-700" data-testid="few-photos-note">
          {S.report.fewPhotosHelp}
        </p>
      )}
    </div>
  );
}
