import { useState } from 'react';
import { Check, Pencil, X } from 'lucide-react';
import { LANGUAGE_TEXTS as L } from '../../../common/languages';
import { updateLanguageSchema, type Language } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { applyServerErrors, Form, TextField, useZodForm } from '../../components/ui/form';
import { useUpdateLanguage } from '../../lib/languages';

const T = TRANSLATE_TEXTS.languages;
const nameSchema = updateLanguageSchema.pick({ name: true });

/** A language's name, and Rename: the name edited in place (the code stays; the server checks the name as on add). */
export function LanguageName({ language, onRenamed }: { language: Language; onRenamed(from: string, to: string): void }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateLanguage();
  const form = useZodForm(nameSchema, { defaultValues: { name: language.name } });
  const [error, setError] = useState<string | null>(null);

  async function submit({ name }: { name: string }) {
    setError(null);
    if (name === language.name) {
      setEditing(false);
      return;
    }
    try {
      await update.mutateAsync({ ...language, name });
      setEditing(false);
      onRenamed(language.name, name);
    } catch (err) {
      if (!applyServerErrors(form as never, err)) setError((err as Error).message);
    }
  }

  if (!editing) {
    return (
      <span className="flex items-center gap-2">
        <span className="font-medium text-slate-900">{language.name}</span>
        <Button
          variant="ghost"
          size="sm"
          aria-label={T.rename(language.name)}
          onClick={() => {
            form.reset({ name: language.name });
            setEditing(true);
          }}
        >
          <Pencil className="h-4 w-4" aria-hidden />
        </Button>
      </span>
    );
  }
  return (
    <Form form={form} onSubmit={(v) => submit(v)} className="flex items-start gap-2">
      <TextField name="name" label={`${L.name} (${language.code})`} autoComplete="off" autoFocus />
      <Button type="submit" size="sm" aria-label={T.saveName} disabled={update.isPending}>
        <Check className="h-4 w-4" aria-hidden />
      </Button>
      <Button type="button" variant="ghost" size="sm" aria-label={T.cancelRename} onClick={() => setEditing(false)}>
        <X className="h-4 w-4" aria-hidden />
      </Button>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </Form>
  );
}
