import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { EvaluationReport } from '../../../common/schemas/models';
import { cn } from '../../components/ui/cn';

const RIGHT: [number, number, number] = [21, 128, 61]; // green-700: the diagonal
const WRONG: [number, number, number] = [194, 65, 12]; // orange-700: the mistakes

/** The cell's colour: white towards the hue as the row's share grows. */
function shade(hue: [number, number, number], share: number): [number, number, number] {
  return hue.map((c) => Math.round(255 + (c - 255) * Math.min(1, share))) as [number, number, number];
}

/** Black or white, whichever reads better on the colour (one of them always reaches 4.5:1). */
function textOn([r, g, b]: [number, number, number]): string {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

export interface Cell {
  actual: string;
  predicted: string;
}

/**
 * The confusion matrix as a heat map: rows the photos' true classes, columns the predictions; a
 * cell's colour is its share of the row (green on the diagonal, orange off it). Each non-empty
 * cell is a button that shows its photos.
 */
export function ConfusionMatrix({
  report,
  selected,
  onSelect,
}: {
  report: EvaluationReport;
  selected: Cell | null;
  onSelect(cell: Cell): void;
}) {
  const { classes, matrix } = report;
  return (
    <div className="overflow-auto rounded-lg border border-slate-200" data-testid="confusion-matrix">
      <table className="border-separate border-spacing-0.5 text-xs">
        <caption className="sr-only">{`${T.report.confusion}. ${S.report.matrixHelp}`}</caption>
        <thead>
          <tr>
            <th scope="col" className="sticky left-0 z-10 bg-white p-1 text-left align-bottom font-semibold text-slate-700">
              <span className="block">{S.report.trueClass} ↓</span>
              <span className="block">{S.report.predicted} →</span>
            </th>
            {classes.map((c) => (
              <th key={c.key} scope="col" className="h-32 w-10 bg-white p-1 align-bottom font-medium text-slate-700">
                <span
                  className="inline-block max-h-32 overflow-hidden text-ellipsis whitespace-nowrap [writing-mode:vertical-rl] rotate-180"
                  title={c.name}
                >
                  {c.name}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {classes.map((row, i) => {
            const counts = matrix[i] ?? [];
            const total = counts.reduce((a, b) => a + b, 0);
            return (
              <tr key={row.key}>
                <th
                  scope="row"
                  className="sticky left-0 z-10 max-w-28 truncate bg-white sm:max-w-48 px-2 py-1 text-left font-medium text-slate-700"
                  title={row.name}
                >
                  {row.name}
                </th>
                {classes.map((col, j) => {
                  const count = counts[j] ?? 0;
                  const share = total > 0 ? count / total : 0;
                  const diagonal = i === j;
                  const bg =
                    count === 0 ? ([255, 255, 255] as [number, number, number]) : shade(diagonal ? RIGHT : WRONG, 0.15 + 0.85 * share);
                  const style = { background: `rgb(${bg.join(',')})`, color: count === 0 ? undefined : textOn(bg) };
                  const frame = cn(
                    'h-10 w-10 min-w-10 text-center tabular-nums',
                    diagonal ? 'ring-2 ring-inset ring-green-800' : 'ring-1 ring-inset ring-slate-200',
                  );
                  // An empty cell stays blank to the eye (the heat map reads faster), "0" to a screen reader.
                  if (count === 0)
                    return (
                      <td key={col.key} className={cn(frame, 'relative')} style={style} data-cell={`${i}-${j}`}>
                        <span className="sr-only">0</span>
                      </td>
                    );
                  const pressed = selected?.actual === row.key && selected.predicted === col.key;
                  return (
                    <td key={col.key} className="p-0" data-cell={`${i}-${j}`}>
                      <button
                        type="button"
                        aria-pressed={pressed}
                        aria-label={S.report.cellLabel(row.name, col.name, count, share)}
                        title={S.report.cellLabel(row.name, col.name, count, share)}
                        onClick={() => onSelect({ actual: row.key, predicted: col.key })}
                        style={style}
                        className={cn(
                          frame,
                          'block rounded-sm font-semibold hover:outline hover:outline-2 hover:outline-slate-900 ' +
                            'focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-1 ' +
                            'focus-visible:outline-brand-700',
                          pressed && 'outline outline-[3px] outline-slate-900',
                        )}
                      >
                        {count}
                      </button>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
