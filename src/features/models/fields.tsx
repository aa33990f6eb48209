import { useId, type ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { cn } from '../../components/ui/cn';
import { FieldError } from '../../components/ui/form';

const control = (error: boolean) => cn(
  'block w-full rounded-lg border bg-white px-3 text-sm shadow-sm outline-none transition focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100',
  error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
);

function messageOf(errors: Record<string, unknown>, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node as { message?: string } | undefined)?.message;
}

function Hint({ id, children }: { id: string; children?: ReactNode }) {
  return children ? <p id={id} className="mt-1 text-xs text-slate-600">{children}</p> : null;
}

/** A number of the form (read as a number; an empty box is NaN, which the schema refuses). */
export function NumberField({ name, label, hint, step = 'any', min, max, className }: { name: string; label: string; hint?: ReactNode; step?: string; min?: number; max?: number; className?: string }) {
  const { register, formState } = useFormContext();
  const id = useId();
  const error = messageOf(formState.errors, name);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">{label}</label>
      <input id={id} type="number" inputMode="decimal" step={step} min={min} max={max} aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].join(' ').trim() || undefined}
        className={cn(control(!!error), 'h-10')} {...register(name, { valueAsNumber: true })} />
      <Hint id={`${id}-hint`}>{hint}</Hint>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function TextAreaField({ name, label, hint, rows = 3, className }: { name: string; label: string; hint?: ReactNode; rows?: number; className?: string }) {
  const { register, formState } = useFormContext();
  const id = useId();
  const error = messageOf(formState.errors, name);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">{label}</label>
      <textarea id={id} rows={rows} aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].join(' ').trim() || undefined}
        className={cn(control(!!error), 'py-2')} {...register(name)} />
      <Hint id={`${id}-hint`}>{hint}</Hint>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A select whose every option is a valid value (no empty choice). */
export function OptionsField({ name, label, options, className, disabled }: { name: string; label: string; options: Array<{ value: string; label: string }>; className?: string; disabled?: boolean }) {
  const { register, formState } = useFormContext();
  const id = useId();
  const error = messageOf(formState.errors, name);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">{label}</label>
      <select id={id} disabled={disabled} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
        className={cn(control(!!error), 'h-10')} {...register(name)}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A labelled progress bar (upload, evaluation). */
export function ProgressBar({ label, fraction, text }: { label: string; fraction: number | null; text: string }) {
  const percent = fraction === null ? undefined : Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="space-y-1">
      <p className="text-sm text-slate-700">{text}</p>
      <div className="h-2 overflow-hidden rounded-full bg-slate-200" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={text}>
        <div className={percent === undefined ? 'h-full w-full animate-pulse rounded-full bg-brand-600/70' : 'h-full rounded-full bg-brand-600 transition-[width]'}
          style={percent === undefined ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
