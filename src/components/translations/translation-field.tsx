import { useId } from 'react';
import { AlertTriangle, Check } from 'lucide-react';
import { LANGUAGE_TEXTS as L } from '../../../common/languages';
import { manilaDateTime } from '../../../common/manila-time';
import type { Language, RecordTranslations } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS as T } from '../../../common/translate-texts';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { WordChanges } from '../ui/word-changes';

type Field = RecordTranslations['fields'][number];

/** The English a translation was made from → the English now, word by word (removed struck through, added underlined). */
export function EnglishChange({ before, after }: { before: string; after: string }) {
  return (
    <p
      className="whitespace-pre-wrap break-words rounded-md bg-white px-2 py-1.5 text-sm text-slate-800 ring-1 ring-amber-200"
      lang="en"
      data-testid="english-diff"
    >
      <WordChanges before={before} after={after} labels={T} />
    </p>
  );
}

/**
 * One field: its English on the left, the translation on the right (stacked on a phone). A
 * translation made from older English says so, shows what changed, and can be confirmed.
 */
export function TranslationField({
  field,
  language,
  value,
  dirty,
  canEdit,
  busy,
  error,
  onChange,
  onConfirm,
}: {
  field: Field;
  language: Language;
  value: string;
  dirty: boolean;
  canEdit: boolean;
  busy: boolean;
  error?: string | undefined;
  onChange(text: string): void;
  onConfirm(): void;
}) {
  const id = useId();
  const saved = field.translations[language.code];
  const stale = saved?.stale === true;
  const rows = Math.min(10, Math.max(3, Math.ceil(Math.max(field.source.length, value.length) / 60)));
  const describedBy = [stale ? `${id}-stale` : '', error ? `${id}-error` : '', `${id}-state`].filter(Boolean).join(' ');
  return (
    <section
      aria-labelledby={`${id}-label`}
      className="space-y-2 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0"
      data-testid="translation-field"
      data-field={field.field}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`${id}-label`} className="text-sm font-semibold text-slate-900">
          {field.label}
        </h3>
        {stale && (
          <span
            className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
            data-testid="stale-badge"
          >
            <AlertTriangle className="h-3.5 w-3.5" aria-hidden />
            {L.stale}
          </span>
        )}
        {!saved && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{L.missing}</span>}
      </div>
      {stale && saved && (
        <div id={`${id}-stale`} className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <p>{L.staleHelp}</p>
          <p className="font-medium">{T.englishChange}</p>
          <EnglishChange before={saved.sourceThen} after={field.source} />
          {canEdit && !dirty && (
            <Button variant="secondary" size="sm" onClick={onConfirm} disabled={busy} aria-label={`${L.confirm}: ${field.label}`}>
              <Check className="h-4 w-4" aria-hidden />
              {L.confirm}
            </Button>
          )}
        </div>
      )}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <div className="min-w-0">
          <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{L.source}</p>
          <p
            className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800 md:min-h-[4.5rem]"
            lang="en"
            data-testid="english-source"
          >
            {field.source}
          </p>
        </div>
        <div className="min-w-0">
          <label htmlFor={`${id}-text`} className="mb-1 block text-xs font-semibold uppercase tracking-wide text-slate-600">
            {language.name}
          </label>
          <textarea
            id={`${id}-text`}
            aria-label={T.fieldIn(field.label, language.name)}
            lang={language.code}
            rows={rows}
            value={value}
            readOnly={!canEdit}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className={cn(
              'block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm outline-none transition focus:ring-2 read-only:bg-slate-50',
              error
                ? 'border-red-400 focus:ring-red-200'
                : dirty
                  ? 'border-brand-600 focus:ring-brand-100'
                  : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
            )}
          />
          <p id={`${id}-state`} className="mt-1 min-h-4 text-xs text-slate-600">
            {dirty
              ? value.trim() === '' && saved
                ? T.emptyRemoves
                : T.unsaved(1)
              : saved
                ? T.lastSaved(manilaDateTime(new Date(saved.updatedAt)), saved.updatedByName)
                : ''}
          </p>
          {error && (
            <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-600">
              {error}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
