import { cn } from './cn';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';

/** A search box that reports its value after the user pauses typing; "/" anywhere on the page puts the cursor in it (shell/layout.tsx). */
export function SearchInput({
  value,
  onChange,
  placeholder,
  label = 'Search',
  delayMs = 250,
}: {
  value: string;
  onChange(value: string): void;
  placeholder: string;
  label?: string;
  delayMs?: number;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const t = setTimeout(() => onChange(text), delayMs);
    return () => clearTimeout(t);
  }, [text, value, onChange, delayMs]);
  return (
    <div className="relative w-full sm:w-80">
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
      <input
        type="search"
        aria-label={label}
        aria-keyshortcuts="/"
        data-page-search=""
        placeholder={placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className={cn(
          'block h-10 w-full rounded-lg border border-slate-300 bg-white pl-9 pr-3 text-sm shadow-sm',
          'outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100',
        )}
      />
    </div>
  );
}
