import { useState } from 'react';
import { Languages } from 'lucide-react';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../ui/button';

/**
 * An edit dialog's way to the record's translations: it opens them at once, or, while the form
 * has unsaved changes, asks to save or cancel first (the translations are of the saved English).
 */
export function TranslateButton({ dirty, disabled, onTranslate }: { dirty: () => boolean; disabled: boolean; onTranslate(): void }) {
  const [ask, setAsk] = useState(false);
  return (
    <div className="mr-auto flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        disabled={disabled}
        onClick={() => {
          if (dirty()) setAsk(true);
          else onTranslate();
        }}
      >
        <Languages className="h-4 w-4" aria-hidden />
        {TRANSLATE_TEXTS.button}
      </Button>
      {ask && (
        <p role="status" className="text-sm text-amber-800">
          {TRANSLATE_TEXTS.saveFirst}
        </p>
      )}
    </div>
  );
}
