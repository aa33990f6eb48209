import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { FieldError } from './form';
import { cn } from './cn';

/**
 * Choice fields for the one form wrapper (useZodForm + Form): a select, a group of checkboxes
 * holding a list of strings, and a single checkbox holding a boolean. Errors show like
 * TextField's (after touch or submit). Values no longer offered stay visible and can be cleared.
 */
export interface ChoiceOption {
  value: string;
  label?: string;
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name'> {
  name: string;
  label: string;
  options: ChoiceOption[];
  placeholder: string;
  /** Shown beside a stored value that is not among the options any more. */
  staleSuffix?: string;
}

export function SelectField({ name, label, options, placeholder, staleSuffix, className, disabled, ...rest }: SelectFieldProps) {
  const { register, getFieldState, formState, watch } = useFormContext();
  const id = useId();
  const errorId = `${id}-error`;
  const { error } = getFieldState(name, formState);
  const current = watch(name) as string | undefined;
  const stale = current && !options.some((o) => o.value === current) ? current : null;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        // A new element when the choices change (the lists arriving, a live change of them): the
        // form then sets its value again, where an option swapped under the selection loses it.
        key={options.map((o) => o.value).join('\u0000')}
        id={id}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(
          'block h-10 w-full rounded-lg border bg-white px-3 text-sm shadow-sm outline-none transition ' +
            'focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100',
          error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
        )}
        {...rest}
        {...register(name)}
      >
        <option value="">{placeholder}</option>
        {stale && <option value={stale}>{staleSuffix ? `${stale} ${staleSuffix}` : stale}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label ?? o.value}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={error?.message} />
    </div>
  );
}

export function CheckboxGroupField({
  name,
  label,
  options,
  disabled,
  staleSuffix,
  className,
}: {
  name: string;
  label: string;
  options: ChoiceOption[];
  disabled?: boolean;
  staleSuffix?: string;
  className?: string;
}) {
  const { control } = useFormContext();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => {
        const selected: string[] = Array.isArray(field.value) ? (field.value as string[]) : [];
        const stale = selected
          .filter((v) => !options.some((o) => o.value === v))
          .map((value) => ({ value, label: staleSuffix ? `${value} ${staleSuffix}` : value }));
        const all = [...options, ...stale];
        const toggle = (value: string, on: boolean) => {
          const next = on ? [...selected, value] : selected.filter((v) => v !== value);
          // Keep the options' order, whatever the click order was.
          field.onChange(all.map((o) => o.value).filter((v) => next.includes(v)));
        };
        return (
          <fieldset
            className={className}
            aria-invalid={fieldState.error ? true : undefined}
            aria-describedby={fieldState.error ? errorId : undefined}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) field.onBlur();
            }}
          >
            <legend className="mb-1 block text-sm font-medium text-slate-700">{label}</legend>
            <div
              className={cn(
                'flex flex-wrap gap-2 rounded-lg border px-3 py-2',
                fieldState.error ? 'border-red-400' : 'border-slate-300',
                disabled && 'bg-slate-100',
              )}
            >
              {all.map((o) => (
                <label
                  key={o.value}
                  className={cn(
                    'inline-flex items-center gap-2 rounded-md px-2 py-1 text-sm text-slate-700',
                    disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer hover:bg-slate-50',
                  )}
                >
                  <input
                    type="checkbox"
                    name={field.name}
                    value={o.value}
                    checked={selected.includes(o.value)}
                    disabled={disabled}
                    onChange={(e) => toggle(o.value, e.target.checked)}
                    className="h-4 w-4 rounded border-slate-300 accent-brand-700"
                  />
                  {o.label ?? o.value}
                </label>
              ))}
              {all.length === 0 && <span className="py-1 text-sm text-slate-400">—</span>}
            </div>
            <FieldError id={errorId} message={fieldState.error?.message} />
          </fieldset>
        );
      }}
    />
  );
}

export function CheckboxField({
  name,
  label,
  hint,
  className,
  disabled,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  className?: string;
  disabled?: boolean;
}) {
  const { register, getFieldState, formState } = useFormContext();
  const id = useId();
  const { error } = getFieldState(name, formState);
  return (
    <div className={className}>
      <label htmlFor={id} className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-700">
        <input
          id={id}
          type="checkbox"
          disabled={disabled}
          className="h-4 w-4 rounded border-slate-300 accent-brand-700"
          {...register(name)}
        />
        {label}
      </label>
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}
