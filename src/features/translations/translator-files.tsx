import { cn } from '../../components/ui/cn';
import { useState } from 'react';
import { Download, Upload } from 'lucide-react';
import type { Language } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { translationFileUrl, type FileFormat } from '../../lib/languages';
import { TranslationImportDialog } from './import-dialog';

const T = TRANSLATE_TEXTS.files;
const FORMATS: readonly FileFormat[] = ['xliff', 'csv', 'xlsx'];

/** Per language in use: its file for translators in each format (plain download links), and Import. */
export function TranslatorFiles({ languages }: { languages: readonly Language[] }) {
  const [importing, setImporting] = useState<Language | null>(null);
  return (
    <section aria-labelledby="files-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="files-heading" className="text-lg font-semibold text-slate-900">
        {T.title}
      </h2>
      <p className="mb-4 text-sm text-slate-500">{T.intro}</p>
      <ul className="divide-y divide-slate-100">
        {languages.map((l) => (
          <li key={l.code} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-testid="language-files" data-code={l.code}>
            <span className="basis-full font-medium text-slate-900 sm:w-48 sm:basis-auto">
              {l.name} <span className="font-normal text-slate-500">({l.code})</span>
            </span>
            <span className="flex min-w-0 flex-1 flex-wrap items-center gap-2" role="group" aria-label={T.exportLabel(l.name)}>
              <Download className="h-4 w-4 text-slate-500" aria-hidden />
              {FORMATS.map((f) => (
                <a
                  key={f}
                  href={translationFileUrl(l.code, f)}
                  download
                  className={cn(
                    'whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium text-brand-700 ring-1',
                    'ring-inset ring-slate-200 hover:bg-brand-50 focus-visible:outline-none',
                    'focus-visible:ring-2 focus-visible:ring-brand-600',
                  )}
                >
                  {T.formats[f]}
                </a>
              ))}
            </span>
            <Button variant="secondary" size="sm" onClick={() => setImporting(l)} aria-label={T.importLabel(l.name)}>
              <Upload className="h-4 w-4" aria-hidden />
              {T.import}
            </Button>
          </li>
        ))}
      </ul>
      <TranslationImportDialog language={importing} onClose={() => setImporting(null)} />
    </section>
  );
}
