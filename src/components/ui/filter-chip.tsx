import { cn } from './cn';

/** A toggle among a list's filters (a count by result, "Missing in …"): pressed when it is the one shown. */
export function FilterChip({
  active,
  onClick,
  label,
  tone,
  testId,
}: {
  active: boolean;
  onClick(): void;
  label: string;
  tone?: string | undefined;
  testId?: string | undefined;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      data-testid={testId}
      className={cn(
        'rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset transition-colors ' +
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
        tone ?? 'bg-white text-slate-700',
        active ? 'ring-slate-900' : tone ? 'ring-transparent' : 'ring-slate-300',
      )}
    >
      {label}
    </button>
  );
}
