import { cn } from './cn';

/** Initials from the first letter of the first and last word of the name (docs/PRODUCT.md section 2). */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]![0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]![0] ?? '') : '';
  return (first + last).toUpperCase();
}

export function Avatar({ name, photoURL, className }: { name: string; photoURL?: string | null; className?: string }) {
  if (photoURL) {
    return <img src={photoURL} alt="" className={cn('h-9 w-9 rounded-full object-cover', className)} />;
  }
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white',
        className,
      )}
    >
      {initials(name)}
    </span>
  );
}
