/**
 * A file's upload, then the server's work on it: a bar that fills with the bytes sent, then
 * moves while the server answers (a spreadsheet's or a translators' file's dry run and import).
 */
export function UploadProgress({
  label,
  fraction,
  uploading,
}: {
  label: string;
  fraction: number;
  uploading: (percent: number) => string;
}) {
  const percent = Math.round(fraction * 100);
  return (
    <div className="space-y-2" role="status">
      <p className="text-sm text-slate-700">{fraction < 1 ? uploading(percent) : label}</p>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={label}
      >
        <div
          className={
            fraction < 1
              ? 'h-full rounded-full bg-brand-600 transition-[width]'
              : 'h-full w-full animate-pulse rounded-full bg-brand-600/70'
          }
          style={fraction < 1 ? { width: `${percent}%` } : undefined}
        />
      </div>
    </div>
  );
}
