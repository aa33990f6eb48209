import { cn } from './cn';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span
      role="status"
      aria-label={label}
      className={cn('inline-block h-6 w-6 animate-spinner rounded-full border-2 border-brand-600 border-t-transparent', className)}
    />
  );
}

export function FullPageSpinner() {
  return (
    <div className="flex h-full min-h-screen items-center justify-center">
      <Spinner className="h-10 w-10" />
    </div>
  );
}
