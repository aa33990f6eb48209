import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { EvaluationReport } from '../../../common/schemas/models';
import { AxisTitles, ChartFrame } from './chart-frame';
import { formatPercent } from './format';
import { ScrollTable } from './per-class-table';

const BAR = '#1d4ed8';

/**
 * The reliability diagram: per tenth of the model's best score, the share of its photos that
 * are right, against the diagonal a model whose scores are chances would follow. Plain SVG,
 * the numbers in a table below it.
 */
export function CalibrationChart({ report }: { report: EvaluationReport }) {
  const { bins, ece } = report.calibration;
  const W = 640;
  const H = 300;
  const pad = { left: 70, right: 20, top: 16, bottom: 48 };
  const x = (v: number) => pad.left + v * (W - pad.left - pad.right);
  const y = (v: number) => H - pad.bottom - v * (H - pad.top - pad.bottom);
  const desc = S.report.calibrationDesc(ece);
  return (
    <figure className="m-0">
      <ChartFrame title={S.report.calibration} description={desc} width={W} height={H} testId="calibration-chart">
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={pad.left} x2={W - pad.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
            <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="12" fill="#475569">{`${v * 100} %`}</text>
            <text x={x(v)} y={H - pad.bottom + 16} textAnchor="middle" fontSize="12" fill="#475569">
              {v.toFixed(2)}
            </text>
          </g>
        ))}
        <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} stroke="#94a3b8" strokeDasharray="6 4" />
        {bins.map((b) =>
          b.accuracy === null ? null : (
            <rect
              key={b.from}
              x={x(b.from) + 3}
              width={x(b.to) - x(b.from) - 6}
              y={y(b.accuracy)}
              height={y(0) - y(b.accuracy)}
              fill={BAR}
              fillOpacity="0.8"
            >
              <title>{S.report.calibrationBin(b.from, b.to, b.count, b.accuracy)}</title>
            </rect>
          ),
        )}
        <AxisTitles x={S.report.calibrationX} y={S.report.calibrationY} width={W} height={H} pad={pad} />
      </ChartFrame>
      <figcaption className="mt-1 text-sm text-slate-700" data-testid="calibration-summary">
        {desc}
      </figcaption>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">{S.report.showNumbers}</summary>
        <div className="mt-2 max-w-md">
          <ScrollTable
            label={S.report.tableOf(S.report.calibration)}
            columns={[S.report.calibrationRange, S.report.calibrationCount, S.report.calibrationY]}
          >
            {bins.map((b) => (
              <tr key={b.from}>
                <th scope="row" className="px-2.5 py-1.5 text-left font-medium tabular-nums text-slate-700">
                  {`${b.from.toFixed(1)}–${b.to.toFixed(1)}`}
                </th>
                <td className="px-2.5 py-1.5 tabular-nums text-slate-800">{b.count}</td>
                <td className="px-2.5 py-1.5 tabular-nums text-slate-800">{formatPercent(b.accuracy)}</td>
              </tr>
            ))}
          </ScrollTable>
        </div>
      </details>
    </figure>
  );
}
