import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  useFormContext,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Eye, EyeOff } from 'lucide-react';
import { ApiError } from '../../lib/api';
import { cn } from './cn';

/**
 * The one form wrapper: react-hook-form with the zod schema the API uses too.
 * Errors show after a field is touched or after submit (docs/PRODUCT.md section 5).
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  props: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({ mode: 'onTouched', ...props, resolver: zodResolver(schema as never) as never });
}

/**
 * useZodForm for a schema fetched on demand: the first screen of a slow connection (login)
 * does not wait for Zod (~30 KB). The schema starts loading at the first keystroke, while the
 * user is still typing, and validation awaits it, so an early submit validates the same way.
 */
export function useLazyZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  load: () => Promise<S>,
  props: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const schema = useRef<Promise<S> | null>(null);
  const get = () => {
    schema.current ??= load().catch((err: unknown) => {
      schema.current = null;
      throw err;
    });
    return schema.current;
  };
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onTouched',
    ...props,
    resolver: (async (values: unknown, context: unknown, options: unknown) =>
      (zodResolver((await get()) as never) as (...a: unknown[]) => unknown)(values, context, options)) as never,
  });
  useEffect(() => {
    const sub = form.watch(() => {
      if (!schema.current) void get().catch(() => {});
    });
    return () => sub.unsubscribe();
  }, [form]); // eslint-disable-line react-hooks/exhaustive-deps
  return form;
}

export function Form<TIn extends FieldValues, TOut extends FieldValues>({
  form,
  onSubmit,
  children,
  className,
  id,
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  onSubmit: (values: TOut) => unknown;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <FormProvider {...form}>
      <form id={id} noValidate className={className} onSubmit={form.handleSubmit(onSubmit)}>
        {children}
      </form>
    </FormProvider>
  );
}

/** Puts the server's field messages (same texts as the schema's) onto the form. */
export function applyServerErrors<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, error: unknown): boolean {
  if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0) return false;
  for (const [field, message] of Object.entries(error.fields)) {
    form.setError(field as Path<T>, { type: 'server', message });
  }
  return true;
}

export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-600">
      {message}
    </p>
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  name: string;
  label: string;
  hint?: ReactNode;
  /** Adds a show/hide toggle to a password input. */
  revealable?: boolean;
}

export function TextField({ name, label, hint, revealable, type = 'text', className, ...rest }: TextFieldProps) {
  const { register, getFieldState, formState } = useFormContext();
  const id = useId();
  const errorId = `${id}-error`;
  const [revealed, setRevealed] = useState(false);
  const { error } = getFieldState(name, formState);
  const inputType = revealable ? (revealed ? 'text' : 'password') : type;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={inputType}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cn(
            'block h-10 w-full rounded-lg border bg-white px-3 text-sm shadow-sm outline-none transition focus:ring-2 disabled:bg-slate-100',
            error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
            revealable && 'pr-10',
          )}
          {...rest}
          {...register(name)}
        />
        {revealable && (
          <button
            type="button"
            onClick={() => setRevealed((v) => !v)}
            aria-label={revealed ? 'Hide password' : 'Show password'}
            aria-pressed={revealed}
            className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-slate-500 hover:text-slate-700"
          >
            {revealed ? <EyeOff className="h-4 w-4" /> : <Eye className="h-4 w-4" />}
          </button>
        )}
      </div>
      {hint}
      <FieldError id={errorId} message={error?.message} />
    </div>
  );
}

/**
 * Live data under an open edit form: when the record changes on the server, fields the user
 * has not touched take the new values and the fields they changed stay as they typed them.
 */
export function useKeepTouchedFields<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues>,
  serverValues: DefaultValues<T> | undefined,
): void {
  const last = useRef(serverValues);
  useEffect(() => {
    if (!serverValues || serverValues === last.current) return;
    last.current = serverValues;
    form.reset(serverValues, { keepDirtyValues: true, keepErrors: true, keepTouched: true });
  }, [form, serverValues]);
}
