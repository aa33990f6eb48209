import { cn } from '../../components/ui/cn';
import { useId, useState } from 'react';
import { Download } from 'lucide-react';
import { calendarDayLabel as dayLabel } from '../../../common/manila-time';
import { DETECTIONS_TEXTS as T } from '../../../common/scan-reports';
import type { Detections } from '../../../common/schemas/scan-reports';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TableFrame } from '../../components/ui/table-frame';
import { detectionsPath, useDetections } from './api';

const COLORS = ['#15803d', '#b91c1c', '#1d4ed8', '#a16207', '#7e22ce', '#0f766e', '#be185d', '#4d7c0f'];

/** The axis top: four equal whole-number steps of 1, 2 or 5 times a power of ten. */
function niceMax(n: number): number {
  const raw = Math.max(1, Math.ceil(n / 4));
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return step * 4;
}

/** Weekly reports per disease as an SVG line chart; its numbers are in the table alternative. */
function WeeklyChart({ data }: { data: Detections }) {
  const titleId = useId();
  const descId = useId();
  const W = 720;
  const H = 260;
  const pad = { left: 44, right: 16, top: 16, bottom: 34 };
  const max = niceMax(Math.max(0, ...data.series.flatMap((s) => s.counts)));
  const x = (i: number) => pad.left + (i * (W - pad.left - pad.right)) / (data.weeks.length - 1);
  const y = (v: number) => H - pad.bottom - (v / max) * (H - pad.top - pad.bottom);
  const ticks = [0, max / 4, max / 2, (3 * max) / 4, max];
  const names = data.series.map((s) => s.name).join(', ');
  return (
    <figure className="m-0">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        data-testid="detections-chart"
      >
        <title id={titleId}>{T.weeklyTitle}</title>
        <desc id={descId}>{data.series.length === 0 ? T.none : T.weeklyChartLabel(names)}</desc>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={pad.left} x2={W - pad.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
            <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="#64748b">
              {v}
            </text>
          </g>
        ))}
        {data.weeks.map((w, i) => (
          <text key={w} x={x(i)} y={H - pad.bottom + 18} textAnchor="middle" fontSize="11" fill="#64748b">
            {i % 2 === data.weeks.length % 2 ? dayLabel(w) : ''}
          </text>
        ))}
        {data.series.map((s, k) => {
          const color = COLORS[k % COLORS.length];
          return (
            <g key={s.diseaseId} data-testid={`series-${s.diseaseId}`}>
              <polyline fill="none" stroke={color} strokeWidth="2.5" points={s.counts.map((c, i) => `${x(i)},${y(c)}`).join(' ')} />
              {s.counts.map((c, i) => (
                <circle key={i} cx={x(i)} cy={y(c)} r="3.5" fill={color}>
                  <title>{`${s.name}, ${T.week.toLowerCase()} ${dayLabel(data.weeks[i]!)}: ${c}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      {data.series.length > 0 && (
        <figcaption>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
            {data.series.map((s, k) => (
              <li key={s.diseaseId} className="flex items-center gap-1.5">
                <span aria-hidden className="inline-block h-2.5 w-5 rounded-full" style={{ background: COLORS[k % COLORS.length] }} />
                {s.name} <span className="tabular-nums text-slate-500">({s.total})</span>
              </li>
            ))}
          </ul>
        </figcaption>
      )}
    </figure>
  );
}

function WeeklyTable({ data }: { data: Detections }) {
  return (
    <TableFrame dense columns={[T.week, ...data.series.map((s) => s.name)]}>
      {data.weeks.map((w, i) => (
        <tr key={w}>
          <th scope="row" className="whitespace-nowrap px-2.5 py-2 text-left font-medium text-slate-700">
            {dayLabel(w)}
          </th>
          {data.series.map((s) => (
            <td key={s.diseaseId} className="px-2.5 py-2 tabular-nums text-slate-800">
              {s.counts[i]}
            </td>
          ))}
        </tr>
      ))}
    </TableFrame>
  );
}

/** The dashboard's Detections section: what the farmers' scanner found, live. */
export function DetectionsSection() {
  const [diseaseId, setDiseaseId] = useState('');
  const [showTable, setShowTable] = useState(false);
  const detections = useDetections(diseaseId);
  const data = detections.data;
  const filterId = useId();
  const tableId = useId();
  const topMax = Math.max(1, ...(data?.top.map((t) => t.reports) ?? []));
  const csvHref = detectionsPath(diseaseId, true);
  return (
    <section
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="detections-heading"
      data-testid="detections"
    >
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="detections-heading" className="text-lg font-semibold text-slate-900">
            {T.title}
          </h2>
          <p className="text-sm text-slate-500">{T.subtitle}</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={filterId} className="mb-1 block text-xs font-medium text-slate-600">
              {T.filterLabel}
            </label>
            <select
              id={filterId}
              value={diseaseId}
              onChange={(e) => setDiseaseId(e.target.value)}
              className={cn(
                'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm focus:border-brand-600',
                'focus:outline-none focus:ring-2 focus:ring-brand-100',
              )}
            >
              <option value="">{T.allDiseases}</option>
              {data?.diseases.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
          <a
            href={csvHref}
            download
            className={cn(
              'inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4',
              'text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-none',
              'focus-visible:ring-2 focus-visible:ring-slate-400',
            )}
          >
            <Download className="h-4 w-4" aria-hidden />
            {T.exportCsv}
          </a>
        </div>
      </div>
      {!data ? (
        detections.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {T.loadFailed}
          </p>
        ) : (
          <Spinner />
        )
      ) : (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
          <div className="xl:col-span-2">
            <h3 className="mb-2 text-sm font-semibold text-slate-800">{T.weeklyTitle}</h3>
            <WeeklyChart data={data} />
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              aria-expanded={showTable}
              aria-controls={tableId}
              onClick={() => setShowTable((v) => !v)}
            >
              {showTable ? T.hideTable : T.showTable}
            </Button>
            <div id={tableId} hidden={!showTable} className="mt-3" data-testid="detections-table">
              {showTable && <WeeklyTable data={data} />}
            </div>
          </div>
          <div className="space-y-6">
            <div>
              <h3 className="mb-2 text-sm font-semibold text-slate-800">{T.topTitle}</h3>
              {data.top.length === 0 ? (
                <p className="text-sm text-slate-500">{T.none}</p>
              ) : (
                <ol className="space-y-2" data-testid="detections-top">
                  {data.top.map((t) => (
                    <li key={t.diseaseId}>
                      <div className="flex justify-between text-sm">
                        <span className="text-slate-800">{t.name}</span>
                        <span className="tabular-nums font-medium text-slate-900">{t.reports}</span>
                      </div>
                      <div aria-hidden className="mt-1 h-2 rounded-full bg-slate-100">
                        <div className="h-2 rounded-full bg-rose-500" style={{ width: `${(100 * t.reports) / topMax}%` }} />
                      </div>
                    </li>
                  ))}
                </ol>
              )}
            </div>
            {data.models.length > 0 && (
              <div>
                <h3 className="mb-2 text-sm font-semibold text-slate-800">{T.modelTitle}</h3>
                <div data-testid="detections-models">
                  <TableFrame dense columns={[T.modelVersion, T.reports]}>
                    {data.models.map((m) => (
                      <tr key={m.modelVersion}>
                        <th scope="row" className="px-2.5 py-1.5 text-left font-normal text-slate-700">
                          <span className="font-mono text-xs">{m.modelVersion}</span>
                          {!m.known && (
                            <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">
                              {T.unknownModel}
                            </span>
                          )}
                        </th>
                        <td className="px-2.5 py-1.5 tabular-nums text-slate-900">{m.reports}</td>
                      </tr>
                    ))}
                  </TableFrame>
                </div>
              </div>
            )}
          </div>
          <div className="xl:col-span-3">
            <h3 className="mb-2 text-sm font-semibold text-slate-800">
              {T.municipalityTitle}
              {diseaseId && data.diseases.find((d) => d.id === diseaseId)
                ? ` · ${data.diseases.find((d) => d.id === diseaseId)!.name}`
                : ''}
            </h3>
            <div data-testid="detections-municipalities" className="max-w-xl">
              <TableFrame dense columns={[T.municipality, T.reports]}>
                {data.municipalities.map((m) => (
                  <tr key={m.municipality ?? ''}>
                    <th scope="row" className="px-2.5 py-1.5 text-left font-normal text-slate-700">
                      {m.municipality ?? T.notGiven}
                    </th>
                    <td className="px-2.5 py-1.5 tabular-nums text-slate-900">{m.reports}</td>
                  </tr>
                ))}
                <tr className="bg-slate-50">
                  <th scope="row" className="px-2.5 py-1.5 text-left font-semibold text-slate-800">
                    {T.total}
                  </th>
                  <td className="px-2.5 py-1.5 font-semibold tabular-nums text-slate-900">
                    {data.municipalities.reduce((a, m) => a + m.reports, 0)}
                  </td>
                </tr>
              </TableFrame>
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
