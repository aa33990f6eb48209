import { cn } from '../../components/ui/cn';
import { useState } from 'react';
import { Plus } from 'lucide-react';
import { LANGUAGE_TEXTS as L, SUGGESTED_LANGUAGES } from '../../../common/languages';
import { addLanguageSchema, type Language } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { applyServerErrors, Form, TextField, useZodForm } from '../../components/ui/form';
import { useAddLanguage } from '../../lib/languages';

const T = TRANSLATE_TEXTS.languages;

/** Add a language by ISO 639 code and name (the shared schema checks both); the department's usual ones are offered. */
export function AddLanguageForm({ existing, onAdded }: { existing: readonly Language[]; onAdded(name: string): void }) {
  const form = useZodForm(addLanguageSchema, { defaultValues: { code: '', name: '' } });
  const add = useAddLanguage();
  const [error, setError] = useState<string | null>(null);
  const suggestions = SUGGESTED_LANGUAGES.filter((s) => !existing.some((l) => l.code === s.code));

  async function submit(values: { code: string; name: string }) {
    setError(null);
    try {
      await add.mutateAsync(values);
      form.reset({ code: '', name: '' });
      onAdded(values.name);
    } catch (err) {
      if (!applyServerErrors(form as never, err)) setError((err as Error).message);
    }
  }

  return (
    <section aria-labelledby="add-language-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="add-language-heading" className="mb-3 text-base font-semibold text-slate-900">
        {L.add}
      </h2>
      {suggestions.length > 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span>{T.suggested}</span>
          {suggestions.map((s) => (
            <button
              key={s.code}
              type="button"
              aria-label={T.suggest(s.name, s.code)}
              onClick={() => {
                form.setValue('code', s.code, { shouldValidate: true });
                form.setValue('name', s.name, { shouldValidate: true });
              }}
              className={cn(
                'rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800 ring-1 ring-inset',
                'ring-brand-200 hover:bg-brand-100 focus-visible:outline-none focus-visible:ring-2',
                'focus-visible:ring-brand-600',
              )}
            >
              {s.name} ({s.code})
            </button>
          ))}
        </div>
      )}
      <Form form={form} onSubmit={(v) => submit(v)} className="grid grid-cols-1 gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-start">
        <TextField name="code" label={L.code} autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={3} />
        <TextField name="name" label={L.name} autoComplete="off" />
        <Button type="submit" className="sm:mt-6" disabled={add.isPending}>
          <Plus className="h-4 w-4" aria-hidden />
          {add.isPending ? T.adding : L.add}
        </Button>
      </Form>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      )}
    </section>
  );
}
