import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ArrowLeft, Languages as LanguagesIcon } from 'lucide-react';
import { LANGUAGE_TEXTS as L, TRANSLATED_LISTS, type TranslatedListDoc } from '../../../common/languages';
import { MAINTENANCE } from '../../../common/maintenance';
import type { Language } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { TableFrame } from '../../components/ui/table-frame';
import { useToast } from '../../components/ui/toast';
import { useLanguages, useUpdateLanguage } from '../../lib/languages';
import { AddLanguageForm } from './add-language-form';
import { OptionValuesDialog, TRANSLATED_DOCS } from './option-values-dialog';
import { LanguageName } from './rename-language';

const T = TRANSLATE_TEXTS.languages;

/** File Maintenance, Languages (super admins): the languages with their In use switch, Add language, and the option values' translations. */
export function LanguagesPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const languages = useLanguages();
  const update = useUpdateLanguage();
  const [translating, setTranslating] = useState<{ doc: TranslatedListDoc; title: string } | null>(null);

  async function setInUse(language: Language, enabled: boolean) {
    try {
      await update.mutateAsync({ ...language, enabled });
      toast.show(T.inUse(language.name, enabled));
    } catch (err) {
      toast.show((err as Error).message, { tone: 'error' });
    }
  }

  const items = languages.data ?? [];
  return (
    <div className="space-y-6">
      <div>
        <Button variant="ghost" size="sm" className="-ml-2 mb-3" onClick={() => navigate('/dashboard/file_maintenance')}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          {MAINTENANCE.back}
        </Button>
        <PageHeader title={L.title} subtitle={L.subtitle} />
      </div>
      {languages.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner />
        </div>
      ) : languages.isError ? (
        <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-sm text-red-700">
          {languages.error.message}
        </p>
      ) : (
        <div className="max-w-3xl space-y-2">
          <TableFrame columns={[L.code, L.name, L.enabled]}>
            {items.length === 0 ? (
              <tr>
                <td colSpan={3} className="px-3 py-6 text-center text-slate-500">
                  {T.empty}
                </td>
              </tr>
            ) : (
              items.map((l) => (
                <tr key={l.code} data-testid="language-row" data-code={l.code}>
                  <td className="px-3 py-3 font-mono text-slate-700">{l.code}</td>
                  <td className="px-3 py-2">
                    <LanguageName language={l} onRenamed={(from, to) => toast.show(T.renamed(from, to))} />
                  </td>
                  <td className="px-3 py-3">
                    <Switch
                      checked={l.enabled}
                      label={`${L.enabled}: ${l.name}`}
                      disabled={update.isPending}
                      onChange={(on) => void setInUse(l, on)}
                    />
                  </td>
                </tr>
              ))
            )}
          </TableFrame>
          <p className="text-xs text-slate-500">{T.source}</p>
        </div>
      )}
      {languages.data && (
        <div className="max-w-3xl">
          <AddLanguageForm existing={items} onAdded={(name) => toast.show(T.added(name))} />
        </div>
      )}

      <section aria-labelledby="option-values-heading" className="max-w-3xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="option-values-heading" className="text-base font-semibold text-slate-900">
          {T.optionValues}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{T.optionValuesHint}</p>
        <ul className="mt-3 space-y-2">
          {TRANSLATED_DOCS.map(({ doc, title }) => (
            <li key={doc} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
              <span className="text-sm text-slate-800">
                <span className="font-medium">{title}</span>:{' '}
                {TRANSLATED_LISTS[doc].map((list) => MAINTENANCE.lists[list].title).join(', ')}
              </span>
              <Button variant="secondary" size="sm" onClick={() => setTranslating({ doc, title })}>
                <LanguagesIcon className="h-4 w-4" aria-hidden />
                {T.translateList(title)}
              </Button>
            </li>
          ))}
        </ul>
      </section>
      <OptionValuesDialog doc={translating?.doc ?? null} title={translating?.title ?? ''} onClose={() => setTranslating(null)} />
    </div>
  );
}
