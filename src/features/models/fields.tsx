/** A labelled progress bar (upload, evaluation). */
export function ProgressBar({ label, fraction, text }: { label: string; fraction: number | null; text: string }) {
  const percent = fraction === null ? undefined : Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="space-y-1">
      <p className="text-sm text-slate-700">{text}</p>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
      >
        <div
          className={
            percent === undefined
              ? 'h-full w-full animate-pulse rounded-full bg-brand-600/70'
              : 'h-full rounded-full bg-brand-600 transition-[width]'
          }
          style={percent === undefined ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
