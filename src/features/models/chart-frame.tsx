import { useId, type ReactNode } from 'react';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';

/**
 * A report chart's plot: plain SVG of width × height named by its title and description, in a
 * region that scrolls sideways (and takes the keyboard) where the screen is narrower than the
 * text can be read.
 */
export function ChartFrame({
  title,
  description,
  width,
  height,
  testId,
  children,
}: {
  title: string;
  description: string;
  width: number;
  height: number;
  testId: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const descId = useId();
  return (
    <div
      className="overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      role="region"
      aria-label={S.report.chartOf(title)}
      tabIndex={0}
    >
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full min-w-[440px] max-w-4xl"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        data-testid={testId}
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        {children}
      </svg>
    </div>
  );
}

/** The titles of a report chart's axes: x below the plot, y turned up along its left edge. */
export function AxisTitles({
  x,
  y,
  width,
  height,
  pad,
}: {
  x: string;
  y: string;
  width: number;
  height: number;
  pad: { left: number; right: number; top: number; bottom: number };
}) {
  const middle = (pad.top + height - pad.bottom) / 2;
  return (
    <>
      <text x={(pad.left + width - pad.right) / 2} y={height - 6} textAnchor="middle" fontSize="13" fill="#334155">
        {x}
      </text>
      <text x={14} y={middle} textAnchor="middle" fontSize="13" fill="#334155" transform={`rotate(-90 14 ${middle})`}>
        {y}
      </text>
    </>
  );
}
