import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { EvaluationReport } from '../../../common/schemas/models';
import { AxisTitles, ChartFrame } from './chart-frame';
import { formatPercent } from './format';
import { ScrollTable } from './per-class-table';

const LINE = '#1d4ed8';
const MARK = '#b91c1c';

/**
 * Accuracy of the answered photos against the share answered, as the confidence threshold moves,
 * in plain SVG; the app's threshold is a dot with its label. The numbers are in the table below it.
 */
export function CoverageChart({ report }: { report: EvaluationReport }) {
  const W = 640;
  const H = 320;
  const pad = { left: 70, right: 20, top: 16, bottom: 48 };
  const points = report.coverage
    .filter((p): p is typeof p & { accuracy: number } => p.accuracy !== null)
    .sort((a, b) => a.coverage - b.coverage);
  const lowest = Math.min(1, ...points.map((p) => p.accuracy), report.atThreshold.accuracy ?? 1);
  // The accuracy axis starts at the tenth below the lowest value, so the curve is not squashed at the top.
  const yMin = Math.max(0, Math.floor(lowest * 10 - 0.5) / 10);
  const x = (coverage: number) => pad.left + coverage * (W - pad.left - pad.right);
  const y = (accuracy: number) => H - pad.bottom - ((accuracy - yMin) / (1 - yMin || 1)) * (H - pad.top - pad.bottom);
  const yTicks = [0, 1, 2, 3, 4].map((k) => yMin + ((1 - yMin) * k) / 4);
  const at = report.atThreshold;
  const labelLeft = at.coverage > 0.6;
  return (
    <figure className="m-0">
      {/* Not narrower than its text can be read: on a phone it scrolls sideways. */}
      <ChartFrame
        title={T.report.coverage}
        description={S.report.coverageDesc(report.threshold, at.coverage, at.accuracy)}
        width={W}
        height={H}
        testId="coverage-chart"
      >
        {yTicks.map((v) => (
          <g key={v}>
            <line x1={pad.left} x2={W - pad.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
            <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="12" fill="#475569">{`${Number((v * 100).toFixed(1))} %`}</text>
          </g>
        ))}
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={x(v)} x2={x(v)} y1={pad.top} y2={H - pad.bottom} stroke="#f1f5f9" />
            <text x={x(v)} y={H - pad.bottom + 16} textAnchor="middle" fontSize="12" fill="#475569">{`${v * 100} %`}</text>
          </g>
        ))}
        <AxisTitles x={S.report.coverageX} y={S.report.coverageY} width={W} height={H} pad={pad} />
        {points.length > 1 && (
          <polyline fill="none" stroke={LINE} strokeWidth="2.5" points={points.map((p) => `${x(p.coverage)},${y(p.accuracy)}`).join(' ')} />
        )}
        {points.map((p) => (
          <circle key={p.threshold} cx={x(p.coverage)} cy={y(p.accuracy)} r="2.5" fill={LINE}>
            <title>{`${S.report.threshold} ${p.threshold.toFixed(2)}: ${formatPercent(p.coverage)}, ${formatPercent(p.accuracy)}`}</title>
          </circle>
        ))}
        {at.accuracy !== null && (
          <g data-testid="threshold-mark">
            <circle cx={x(at.coverage)} cy={y(at.accuracy)} r="6" fill={MARK} stroke="#fff" strokeWidth="2" />
            <text
              x={x(at.coverage) + (labelLeft ? -10 : 10)}
              y={y(at.accuracy) + 18}
              textAnchor={labelLeft ? 'end' : 'start'}
              fontSize="13"
              fontWeight="600"
              fill={MARK}
            >
              {S.report.thresholdMark(report.threshold)}
            </text>
          </g>
        )}
      </ChartFrame>
      <figcaption className="mt-1 text-sm text-slate-700">{S.report.coverageDesc(report.threshold, at.coverage, at.accuracy)}</figcaption>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">{S.report.showNumbers}</summary>
        <div className="mt-2 max-w-md">
          <ScrollTable label={S.report.tableOf(T.report.coverage)} columns={[S.report.threshold, S.report.coverageX, S.report.coverageY]}>
            {report.coverage.map((p) => (
              <tr key={p.threshold} className={p.threshold === report.threshold ? 'bg-red-50' : undefined}>
                <th scope="row" className="px-2.5 py-1.5 text-left font-medium tabular-nums text-slate-700">
                  {p.threshold.toFixed(2)}
                </th>
                <td className="px-2.5 py-1.5 tabular-nums text-slate-800">{formatPercent(p.coverage)}</td>
                <td className="px-2.5 py-1.5 tabular-nums text-slate-800">{formatPercent(p.accuracy)}</td>
              </tr>
            ))}
          </ScrollTable>
        </div>
      </details>
    </figure>
  );
}
