import { cn } from './cn';
import { useEffect, useRef } from 'react';
import { ChevronDown, Download } from 'lucide-react';
import { EXPORT_TEXTS, SPREADSHEET_FORMATS } from '../../../common/spreadsheets';

const FORMAT_LABELS = { csv: EXPORT_TEXTS.csv, xlsx: EXPORT_TEXTS.xlsx } as const;

/**
 * "Export" with the two formats: plain download links of the list's export route with the search
 * the screen shows (or the selected records' `ids`), so the browser saves the file the server streams.
 */
export function ExportMenu({ url, search, ids, label }: { url: string; search: string; ids?: readonly string[]; label?: string }) {
  const menu = useRef<HTMLDetailsElement>(null);
  // A click anywhere else closes the menu, as a menu does.
  useEffect(() => {
    const close = (event: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) menu.current.open = false;
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, []);
  const href = (format: string) =>
    `${url}?format=${format}${search ? `&search=${encodeURIComponent(search)}` : ''}${ids ? `&ids=${encodeURIComponent(ids.join(','))}` : ''}`;
  return (
    <details
      ref={menu}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && menu.current) menu.current.open = false;
      }}
    >
      <summary
        className={cn(
          'inline-flex h-10 cursor-pointer list-none items-center gap-2 rounded-lg border',
          'border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400',
          '[&::-webkit-details-marker]:hidden',
        )}
      >
        <Download className="h-4 w-4" aria-hidden />
        {label ?? EXPORT_TEXTS.button}
        <ChevronDown className="h-4 w-4" aria-hidden />
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        {SPREADSHEET_FORMATS.map((format) => (
          <a
            key={format}
            href={href(format)}
            download
            onClick={() => {
              if (menu.current) menu.current.open = false;
            }}
            className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none"
          >
            {FORMAT_LABELS[format]}
          </a>
        ))}
        {search && <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500">{EXPORT_TEXTS.searchNote}</p>}
      </div>
    </details>
  );
}
