import { cn } from '../ui/cn';
import { useId, useState } from 'react';
import { Save } from 'lucide-react';
import type { TranslatedCollection } from '../../../common/languages';
import type { RecordTranslations } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS as T } from '../../../common/translate-texts';
import { ApiError } from '../../lib/api';
import { useRecordTranslations, useSaveTranslations, type SaveAnswer } from '../../lib/languages';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { TranslationField } from './translation-field';

type Notice = { tone: 'success' | 'error'; text: string } | null;
/** What the translator typed, by language then field (kept while they switch languages). */
type Drafts = Record<string, Record<string, string>>;

/** The fields whose typed text differs from the saved translation, in one language. */
function changedFields(data: RecordTranslations, drafts: Drafts, lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of data.fields) {
    const typed = drafts[lang]?.[f.field];
    if (typed !== undefined && typed !== (f.translations[lang]?.text ?? '')) out[f.field] = typed;
  }
  return out;
}

/**
 * A record's translations: a language of those in use, then field by field the English and
 * the translation. Save sends the record's version as the translator first saw it (409: the
 * newest is shown, what they typed is kept); with review on for the collection it is sent for
 * review (202). "Still correct" confirms a translation whose English changed since.
 */
export function TranslationEditor({
  collection,
  recordId,
  canEdit,
  initialLang,
}: {
  collection: TranslatedCollection;
  recordId: string;
  canEdit: boolean;
  initialLang?: string | undefined;
}) {
  const record = useRecordTranslations(collection, recordId);
  const save = useSaveTranslations(collection, recordId);
  const [chosen, setChosen] = useState<string | null>(initialLang ?? null);
  const [drafts, setDrafts] = useState<Drafts>({});
  // The version the typed text is based on: kept from the first keystroke until it is saved.
  const [pinned, setPinned] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pickerId = useId();

  const data = record.data;
  if (!data) {
    return record.isError ? (
      <p role="alert" className="text-sm text-red-600">
        {record.error.message}
      </p>
    ) : (
      <div className="flex justify-center py-8">
        <Spinner label={T.tab} />
      </div>
    );
  }
  // Every language, in use or not yet: translations are made before a language is turned on.
  const languages = [...data.languages].sort((a, b) => Number(b.enabled) - Number(a.enabled));
  const language = languages.find((l) => l.code === chosen) ?? languages[0];
  if (!language) return <p className="text-sm text-slate-600">{T.noLanguages}</p>;
  if (data.fields.length === 0) return <p className="text-sm text-slate-600">{T.noFields}</p>;
  const lang = language.code;
  const changed = changedFields(data, drafts, lang);
  const changedCount = Object.keys(changed).length;
  const unsavedIn = (code: string) => Object.keys(changedFields(data, drafts, code)).length;
  const anyUnsaved = languages.some((l) => unsavedIn(l.code) > 0);
  const translated = data.fields.filter((f) => f.translations[lang]).length;
  const stale = data.fields.filter((f) => f.translations[lang]?.stale).length;

  function edit(field: string, text: string) {
    // The first change since everything was saved is based on the version shown now.
    if (pinned === null || !anyUnsaved) setPinned(data!.version);
    setDrafts((d) => ({ ...d, [lang]: { ...d[lang], [field]: text } }));
    setNotice(null);
  }

  async function send(body: { texts: Record<string, string>; confirm: string[] }, done: (answer: SaveAnswer) => void) {
    setNotice(null);
    setErrors({});
    const othersLeft = languages.some((l) => l.code !== lang && unsavedIn(l.code) > 0) || (body.confirm.length > 0 && changedCount > 0);
    try {
      const answer = await save.mutateAsync({ lang, body: { version: (anyUnsaved ? pinned : null) ?? data!.version, ...body } });
      // Our own save moved the version: text still typed elsewhere is based on it now.
      setPinned(othersLeft ? ('saved' in answer ? answer.saved.version : pinned) : null);
      done(answer);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') {
        setNotice({ tone: 'error', text: T.conflict });
        const fresh = await record.refetch();
        setPinned(changedCount > 0 || othersLeft ? (fresh.data?.version ?? null) : null);
        return;
      }
      if (err instanceof ApiError) setErrors(err.fields);
      setNotice({ tone: 'error', text: (err as Error).message });
    }
  }

  const saveAll = () =>
    send({ texts: changed, confirm: [] }, (answer) => {
      setDrafts((d) => ({ ...d, [lang]: {} }));
      setNotice({ tone: 'success', text: 'review' in answer ? answer.review.message : T.saved(language.name) });
    });
  const confirm = (field: string, label: string) =>
    send({ texts: {}, confirm: [field] }, (answer) => {
      setNotice({ tone: 'success', text: 'review' in answer ? answer.review.message : T.confirmed(label) });
    });

  return (
    <div className="space-y-4" data-testid="translation-editor">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-1">
        <div>
          <label htmlFor={pickerId} className="mb-1 block text-xs font-semibold uppercase tracking-wide text-slate-600">
            {T.language}
          </label>
          <select
            id={pickerId}
            value={lang}
            onChange={(e) => {
              setChosen(e.target.value);
              setNotice(null);
              setErrors({});
            }}
            className={cn(
              'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm',
              'focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100',
            )}
          >
            {languages.map((l) => {
              const n = l.code === lang ? 0 : unsavedIn(l.code);
              return (
                <option key={l.code} value={l.code}>
                  {l.enabled ? l.name : T.languages.notInUse(l.name)}
                  {n > 0 ? ` (${T.unsaved(n)})` : ''}
                </option>
              );
            })}
          </select>
        </div>
        <p className="pb-2 text-sm text-slate-600" data-testid="translation-progress">
          {T.progress(translated, data.fields.length, stale)}
        </p>
      </div>
      {!canEdit && <p className="text-sm text-slate-600">{T.readOnly}</p>}
      <div className="space-y-4">
        {data.fields.map((f) => (
          <TranslationField
            key={`${lang}:${f.field}`}
            field={f}
            language={language}
            canEdit={canEdit}
            busy={save.isPending}
            value={drafts[lang]?.[f.field] ?? f.translations[lang]?.text ?? ''}
            dirty={f.field in changed}
            error={errors[f.field]}
            onChange={(text) => edit(f.field, text)}
            onConfirm={() => void confirm(f.field, f.label)}
          />
        ))}
      </div>
      {canEdit && (
        // Save stays in reach while the fields scroll, with what it did beside it.
        <div className="sticky -bottom-4 z-10 -mx-1 flex flex-wrap items-center justify-end gap-x-3 gap-y-2 border-t border-slate-200 bg-white px-1 py-3">
          {notice && (
            <p
              role={notice.tone === 'error' ? 'alert' : 'status'}
              className={
                notice.tone === 'error'
                  ? 'mr-auto rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700'
                  : 'mr-auto rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800'
              }
            >
              {notice.text}
            </p>
          )}
          {changedCount > 0 && <span className="text-sm font-medium text-brand-800">{T.unsaved(changedCount)}</span>}
          <Button onClick={() => void saveAll()} disabled={changedCount === 0 || save.isPending}>
            <Save className="h-4 w-4" aria-hidden />
            {save.isPending ? T.saving : T.save}
          </Button>
        </div>
      )}
    </div>
  );
}
