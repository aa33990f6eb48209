import { useId } from 'react';
import { useFormContext } from 'react-hook-form';
import { FieldError } from '../../components/ui/form';
import { cn } from '../../components/ui/cn';

/**
 * The security-question select of Account Settings. A question on the account that is no
 * longer in the option list stays visible (and selected) so saving does not silently drop it.
 */
export function QuestionSelect({
  name,
  label,
  placeholder,
  questions,
  current,
  disabled,
}: {
  name: string;
  label: string;
  placeholder: string;
  questions: string[];
  current?: string | null | undefined;
  disabled?: boolean;
}) {
  const { register, getFieldState, formState } = useFormContext();
  const id = useId();
  const { error } = getFieldState(name, formState);
  const options = current && !questions.includes(current) ? [current, ...questions] : questions;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'block h-10 w-full rounded-lg border bg-white px-3 text-sm shadow-sm outline-none transition ' +
            'focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100',
          error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
        )}
        {...register(name)}
      >
        <option value="">{placeholder}</option>
        {options.map((q) => (
          <option key={q} value={q}>
            {q}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}
