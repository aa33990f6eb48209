import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LANGUAGE_TEXTS as L, TRANSLATED_COLLECTIONS, type TranslatedCollection } from '../../../common/languages';
import { can } from '../../../common/permissions';
import { TRANSLATE_TEXTS, translatedCollectionLabel } from '../../../common/translate-texts';
import { CompletenessBars } from '../../components/translations/completeness-bars';
import { TranslationEditor } from '../../components/translations/translation-editor';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useCompleteness, useLanguages, type StatusFilter } from '../../lib/languages';
import { useSession } from '../../lib/session';
import { StatusList } from './status-list';
import { TranslatorFiles } from './translator-files';

const T = TRANSLATE_TEXTS;
const FILTERS: readonly StatusFilter[] = ['all', 'missing', 'stale'];

/** The Translations screen: completeness, the records missing or needing an update in a language (each opens the editor), and the translators' files. */
export function TranslationsPage() {
  const { session } = useSession();
  const role = session?.user.role;
  const languages = useLanguages();
  const completeness = useCompleteness();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<{ collection: TranslatedCollection; recordId: string; name: string } | null>(null);

  // Option values are File Maintenance's: listed for those who maintain them.
  const collections = TRANSLATED_COLLECTIONS.filter((c) => c !== 'maintenance' || can(role, 'maintenance.manage'));
  const listed = [...(languages.data ?? [])].sort((a, b) => Number(b.enabled) - Number(a.enabled));
  const language = listed.find((l) => l.code === params.get('lang')) ?? listed[0] ?? null;
  const collection = collections.find((c) => c === params.get('collection')) ?? collections[0]!;
  const filter = FILTERS.find((f) => f === params.get('filter')) ?? 'all';
  const choose = (next: Record<string, string>) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(next)) p.set(k, v);
        return p;
      },
      { replace: true },
    );
  const canEdit = (c: TranslatedCollection) => can(role, c === 'maintenance' ? 'maintenance.manage' : 'content.update');
  const filterLabel = (f: StatusFilter) => (f === 'all' ? L.filters.all : L.filters[f](language?.name ?? ''));

  return (
    <div className="space-y-6">
      <PageHeader title={T.screen.title} subtitle={T.screen.subtitle} />
      <section aria-labelledby="completeness-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="completeness-heading" className="text-lg font-semibold text-slate-900">
          {T.completeness.byLanguage}
        </h2>
        <p className="mb-4 text-sm text-slate-500">{T.completeness.subtitle}</p>
        {completeness.data ? (
          <CompletenessBars
            data={completeness.data}
            collections={collections}
            link={(c, lang, f) => `?${new URLSearchParams({ collection: c, lang, filter: f })}`}
          />
        ) : completeness.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {completeness.error.message}
          </p>
        ) : (
          <Spinner />
        )}
      </section>

      {languages.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      ) : languages.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {languages.error.message}
        </p>
      ) : !language ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">{T.noLanguages}</p>
      ) : (
        <>
          <section aria-labelledby="status-heading" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 id="status-heading" className="sr-only">
              {filterLabel(filter)}
            </h2>
            <div className="flex flex-wrap items-end gap-3">
              <label className="text-sm font-medium text-slate-700">
                <span className="mb-1 block">{T.language}</span>
                <select
                  value={language.code}
                  onChange={(e) => choose({ lang: e.target.value })}
                  className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm"
                >
                  {listed.map((l) => (
                    <option key={l.code} value={l.code}>
                      {l.enabled ? l.name : T.languages.notInUse(l.name)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="text-sm font-medium text-slate-700">
                <span className="mb-1 block">{T.screen.collection}</span>
                <select
                  value={collection}
                  onChange={(e) => choose({ collection: e.target.value })}
                  className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm"
                >
                  {collections.map((c) => (
                    <option key={c} value={c}>
                      {translatedCollectionLabel(c)}
                    </option>
                  ))}
                </select>
              </label>
              <div role="group" aria-label={T.screen.filters} className="flex flex-wrap gap-2 pb-1">
                {FILTERS.map((f) => (
                  <Button
                    key={f}
                    size="sm"
                    variant={f === filter ? 'primary' : 'secondary'}
                    aria-pressed={f === filter}
                    onClick={() => choose({ filter: f })}
                  >
                    {filterLabel(f)}
                  </Button>
                ))}
              </div>
            </div>
            <StatusList
              collection={collection}
              language={language}
              filter={filter}
              onOpen={(item) => setEditing({ collection, recordId: item.recordId, name: item.name })}
            />
          </section>
          <TranslatorFiles languages={listed} />
        </>
      )}

      <Dialog
        open={editing !== null}
        onOpenChange={(o) => {
          if (!o) setEditing(null);
        }}
        title={editing?.name ?? ''}
        description={editing ? `${translatedCollectionLabel(editing.collection)}: ${T.tab}` : undefined}
        size="xl"
        footer={
          <Button variant="secondary" onClick={() => setEditing(null)}>
            {T.languages.close}
          </Button>
        }
      >
        {editing && (
          <TranslationEditor
            collection={editing.collection}
            recordId={editing.recordId}
            canEdit={canEdit(editing.collection)}
            initialLang={language?.code}
          />
        )}
      </Dialog>
    </div>
  );
}
