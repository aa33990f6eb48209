import { useId, useRef, useState, type ReactNode } from 'react';
import { FileUp } from 'lucide-react';
import { FILE_PICKER_TEXTS } from '../../../common/texts';
import { Button } from './button';
import { cn } from './cn';

/**
 * One file chosen with a button or dropped on the box: the file input itself stays for screen
 * readers and tests (`testId`), the box says what is chosen.
 */
export function FilePicker({
  label,
  accept,
  file,
  onFile,
  chosenText,
  hint,
  testId,
  disabled,
}: {
  label: string;
  accept: string;
  file: File | null;
  onFile(file: File | null): void;
  chosenText?: (file: File) => string;
  hint?: ReactNode;
  testId?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-lg border border-dashed px-3 py-3',
          over ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-white',
        )}
        onDragOver={(e) => {
          if (disabled) return;
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (!disabled) onFile(e.dataTransfer.files[0] ?? null);
        }}
      >
        <input
          ref={input}
          id={id}
          type="file"
          accept={accept}
          className="sr-only"
          data-testid={testId}
          disabled={disabled}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => onFile(e.target.files?.[0] ?? null)}
        />
        <Button variant="secondary" size="sm" onClick={() => input.current?.click()} disabled={disabled} tabIndex={-1} aria-hidden>
          <FileUp className="h-4 w-4" aria-hidden />
          {file ? FILE_PICKER_TEXTS.another : FILE_PICKER_TEXTS.choose}
        </Button>
        <span className="min-w-0 flex-1 truncate text-sm text-slate-600">
          {file ? (chosenText ? chosenText(file) : file.name) : FILE_PICKER_TEXTS.orDrop}
        </span>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}
