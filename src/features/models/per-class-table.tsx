import type { ReactNode } from 'react';
import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { EvaluationReport } from '../../../common/schemas/models';
import { cn } from '../../components/ui/cn';
import { formatScore } from './format';

/**
 * TableFrame's look for a table wider than a phone: its scrolling box is a labelled region that
 * takes the focus, so it can be scrolled with the keyboard.
 */
export function ScrollTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
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
              {columns.map((c) => (
                <th
                  key={c}
                  scope="col"
                  className="whitespace-nowrap px-2.5 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
                >
                  {c}
                </th>
              ))}
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

/** Precision, recall, F1 and photos of each class, with F1 and recall against the live model. */
export function PerClassTable({ report }: { report: EvaluationReport }) {
  const c = S.report.columns;
  const compared = report.comparison !== null;
  const columns = [c.name, c.precision, c.recall, c.f1, c.support, ...(compared ? [c.f1Delta, c.recallDelta] : [])];
  return (
    <ScrollTable label={S.report.tableOf(T.report.perClass)} columns={columns}>
      {report.perClass.map((row) => (
        <tr key={row.index} data-testid="class-row">
          <th scope="row" className="px-2.5 py-2 text-left font-medium text-slate-800">
            {row.name}
          </th>
          <td className="px-2.5 py-2 tabular-nums text-slate-800">{formatScore(row.precision)}</td>
          <td className="px-2.5 py-2 tabular-nums text-slate-800">{formatScore(row.recall)}</td>
          <td className="px-2.5 py-2 font-semibold tabular-nums text-slate-900">{formatScore(row.f1)}</td>
          <td className="px-2.5 py-2 tabular-nums text-slate-800">{row.support}</td>
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
  );
}
