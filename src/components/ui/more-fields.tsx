import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { useFormContext } from 'react-hook-form';
import { cn } from './cn';
import { FieldError } from './form';

const control = (error: boolean) =>
  cn(
    'block w-full rounded-lg border bg-white px-3 text-sm shadow-sm outline-none transition focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100',
    error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
  );

/** The field's error message (names may be paths, 'mean.0'), and its label/hint/error ids. */
function useField(name: string, hint: ReactNode) {
  const { register, getFieldState, formState } = useFormContext();
  const id = useId();
  const message = getFieldState(name, formState).error?.message;
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].join(' ').trim() || undefined;
  return { register, id, message, describedBy };
}

function Hint({ id, children }: { id: string; children?: ReactNode }) {
  return children ? (
    <p id={id} className="mt-1 text-xs text-slate-600">
      {children}
    </p>
  ) : null;
}

/** A number of the form (read as a number; an empty box is NaN, which the schema refuses). */
export function NumberField({
  name,
  label,
  hint,
  step = 'any',
  min,
  max,
  className,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  step?: string;
  min?: number;
  max?: number;
  className?: string;
}) {
  const { register, id, message, describedBy } = useField(name, hint);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        step={step}
        min={min}
        max={max}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy}
        className={cn(control(!!message), 'h-10')}
        {...register(name, { valueAsNumber: true })}
      />
      <Hint id={`${id}-hint`}>{hint}</Hint>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

export function TextAreaField({
  name,
  label,
  hint,
  rows = 3,
  grow = false,
  className,
  ...rest
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  rows?: number;
  /** Grows with its text (up to 24 rem), where a long text would scroll inside a small box. */
  grow?: boolean;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'>) {
  const { register, id, message, describedBy } = useField(name, hint);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy}
        className={cn(control(!!message), 'py-2', grow && 'min-h-24 max-h-96 [field-sizing:content]')}
        {...rest}
        {...register(name)}
      />
      <Hint id={`${id}-hint`}>{hint}</Hint>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

/** A select whose every option is a valid value (no empty choice; SelectField has one). */
export function OptionsField({
  name,
  label,
  options,
  className,
  disabled,
}: {
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  className?: string;
  disabled?: boolean;
}) {
  const { register, id, message, describedBy } = useField(name, undefined);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        disabled={disabled}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy}
        className={cn(control(!!message), 'h-10')}
        {...register(name)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}
