import { useId } from 'react';
import { calendarDayLabel as weekLabel } from '../../../common/manila-time';
import { DASHBOARD } from '../../../common/texts';
import type { ContentWeekly } from '../../../common/schemas/dashboard';
import { Spinner } from '../../components/ui/spinner';
import { TableFrame } from '../../components/ui/table-frame';
import { useContentWeekly } from './api';

const T = DASHBOARD.content;
const ADDED = '#15803d';
const CHANGED = '#1d4ed8';

function niceMax(n: number): number {
  const raw = Math.max(1, Math.ceil(n / 4));
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)! * 4;
}

/** Two bars per week (added, changed) in plain SVG; the same numbers are in the table below it. */
function Bars({ data }: { data: ContentWeekly }) {
  const titleId = useId();
  const descId = useId();
  const W = 720;
  const H = 220;
  const pad = { left: 40, right: 8, top: 12, bottom: 30 };
  const max = niceMax(Math.max(0, ...data.added, ...data.changed));
  const slot = (W - pad.left - pad.right) / data.weeks.length;
  const bar = Math.min(18, slot / 2 - 3);
  const y = (v: number) => H - pad.bottom - (v / max) * (H - pad.top - pad.bottom);
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      data-testid="content-chart"
    >
      <title id={titleId}>{T.title}</title>
      <desc id={descId}>{T.chartLabel(total(data.added), total(data.changed))}</desc>
      {[0, max / 4, max / 2, (3 * max) / 4, max].map((v) => (
        <g key={v}>
          <line x1={pad.left} x2={W - pad.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
          <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="#475569">
            {v}
          </text>
        </g>
      ))}
      {data.weeks.map((w, i) => {
        const cx = pad.left + slot * i + slot / 2;
        return (
          <g key={w}>
            <rect x={cx - bar - 1} y={y(data.added[i]!)} width={bar} height={H - pad.bottom - y(data.added[i]!)} fill={ADDED} rx="2">
              <title>{`${T.week} ${weekLabel(w)}: ${data.added[i]} ${T.added.toLowerCase()}`}</title>
            </rect>
            <rect x={cx + 1} y={y(data.changed[i]!)} width={bar} height={H - pad.bottom - y(data.changed[i]!)} fill={CHANGED} rx="2">
              <title>{`${T.week} ${weekLabel(w)}: ${data.changed[i]} ${T.changed.toLowerCase()}`}</title>
            </rect>
            {i % 2 === 1 && (
              <text x={cx} y={H - pad.bottom + 18} textAnchor="middle" fontSize="11" fill="#475569">
                {weekLabel(w)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * The dashboard's weekly content chart: what staff added and changed, from the audit log. The
 * section and its heading show with the cards; the bars and the table are drawn once `drawn`.
 */
export function ContentChart({ drawn }: { drawn: boolean }) {
  const query = useContentWeekly();
  const data = drawn ? query.data : undefined;
  return (
    <section
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="content-chart-heading"
      data-testid="content-weekly"
    >
      <h2 id="content-chart-heading" className="text-lg font-semibold text-slate-900">
        {T.title}
      </h2>
      <p className="mb-3 text-sm text-slate-500">{T.subtitle}</p>
      {!data ? (
        query.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {T.loadFailed}
          </p>
        ) : (
          <Spinner />
        )
      ) : (
        <>
          <ul className="mb-2 flex gap-4 text-sm text-slate-700" aria-hidden>
            <li className="flex items-center gap-1.5">
              <span className="inline-block h-3 w-3 rounded-sm" style={{ background: ADDED }} />
              {T.added}
            </li>
            <li className="flex items-center gap-1.5">
              <span className="inline-block h-3 w-3 rounded-sm" style={{ background: CHANGED }} />
              {T.changed}
            </li>
          </ul>
          <Bars data={data} />
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer font-medium text-brand-700">{T.showNumbers}</summary>
            <div className="mt-2">
              <TableFrame dense columns={[T.week, T.added, T.changed]}>
                {data.weeks.map((w, i) => (
                  <tr key={w}>
                    <th scope="row" className="whitespace-nowrap px-2.5 py-2 text-left font-medium text-slate-700">
                      {weekLabel(w)}
                    </th>
                    <td className="px-2.5 py-2 tabular-nums text-slate-800">{data.added[i]}</td>
                    <td className="px-2.5 py-2 tabular-nums text-slate-800">{data.changed[i]}</td>
                  </tr>
                ))}
              </TableFrame>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
