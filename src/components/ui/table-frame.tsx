import type { ReactNode } from 'react';
import { cn } from './cn';

/** The bordered, horizontally scrolling table every list screen uses; rows come as children. */
export function TableFrame({
  columns,
  children,
  dense,
  busy,
}: {
  columns: string[];
  children: ReactNode;
  dense?: boolean;
  busy?: boolean;
}) {
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="overflow-x-auto">
        <table className={cn('min-w-full divide-y divide-slate-200', dense ? 'text-[13px]' : 'text-sm')}>
          <thead className="bg-slate-50">
            <tr>
              {columns.map((label) => (
                <th
                  key={label}
                  scope="col"
                  className={cn(
                    'text-left text-xs font-semibold uppercase tracking-wide',
                    dense ? 'whitespace-nowrap px-2.5 py-3 text-slate-500' : 'px-3 py-3 align-bottom text-slate-600',
                  )}
                >
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" aria-busy={busy || undefined}>
            {children}
          </tbody>
        </table>
      </div>
    </div>
  );
}
