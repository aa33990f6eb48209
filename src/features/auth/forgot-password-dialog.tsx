import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useFormContext } from 'react-hook-form';
import {
  answerFieldsSchema,
  identifySchema,
  newPasswordSchema,
  type AnswerFields,
  type IdentifyInput,
  type NewPasswordInput,
} from '../../../common/schemas/recovery';
import { RECOVERY } from '../../../common/profile';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Form, TextField, applyServerErrors, useZodForm } from '../../components/ui/form';
import { PasswordChecklist } from '../../components/ui/password-checklist';
import { useToast } from '../../components/ui/toast';
import { api, ApiError } from '../../lib/api';
import { QueryProvider } from '../../lib/query-client';

type Step = { n: 1 } | { n: 2; recoveryId: string } | { n: 3; resetToken: string };

/**
 * Forgot Password (docs/PRODUCT.md sections 4 and 5): identify the account, answer its security
 * question, set a new password with the live checklist. Each step is one call of the
 * server's recovery flow. Cancel and success both close the dialog and return to step 1.
 */
export function ForgotPasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  // Mounted only while open: every opening starts fresh at step 1 with empty fields. The login
  // page has no query cache of its own (it arrives with the shell); this dialog brings it.
  return open ? (
    <QueryProvider>
      <RecoveryDialog onClose={() => onOpenChange(false)} />
    </QueryProvider>
  ) : null;
}

function RecoveryDialog({ onClose }: { onClose(): void }) {
  const toast = useToast();
  const [step, setStep] = useState<Step>({ n: 1 });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Field messages go under their field; the rest in the error box ('Something went wrong'). */
  function handleError(err: unknown, form: { setError: (...args: never[]) => void }) {
    if (err instanceof ApiError && (err.body?.reason === 'recovery_expired' || err.body?.reason === 'token_invalid')) {
      setStep({ n: 1 });
      setError(err.message);
    } else if (applyServerErrors(form as never, err)) {
      setError(null);
    } else if (err instanceof ApiError && err.status === 429) {
      setError(err.message);
    } else {
      setError(RECOVERY.genericError);
    }
  }

  async function call<T>(path: string, body: unknown): Promise<T> {
    return api<T>(path, { method: 'POST', body, skipAuthHandling: true });
  }

  const footer = (
    <>
      <Button variant="secondary" onClick={onClose}>
        {RECOVERY.cancel}
      </Button>
      <Button type="submit" form="forgot-password-form" disabled={busy}>
        {busy ? RECOVERY.busy : step.n === 1 ? RECOVERY.next : step.n === 2 ? RECOVERY.verify : RECOVERY.reset}
      </Button>
    </>
  );

  const common = { busy, setBusy, setError, handleError, call };
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={RECOVERY.title}
      size="md"
      footer={footer}
      description={
        <span>
          {RECOVERY.stepOf(step.n)} · {step.n === 1 ? RECOVERY.step1Intro : step.n === 2 ? RECOVERY.step2Intro : RECOVERY.step3Intro}
        </span>
      }
    >
      <ol className="mb-4 flex gap-2" aria-hidden>
        {[1, 2, 3].map((n) => (
          <li key={n} className={cn('h-1.5 flex-1 rounded-full', n <= step.n ? 'bg-brand-600' : 'bg-slate-200')} />
        ))}
      </ol>
      {step.n === 1 && <IdentifyStep {...common} onDone={(recoveryId) => setStep({ n: 2, recoveryId })} />}
      {step.n === 2 && <AnswerStep {...common} recoveryId={step.recoveryId} onDone={(resetToken) => setStep({ n: 3, resetToken })} />}
      {step.n === 3 && (
        <PasswordStep
          {...common}
          resetToken={step.resetToken}
          onDone={() => {
            toast.show(RECOVERY.success);
            onClose();
          }}
        />
      )}
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
          data-testid="forgot-error"
        >
          {error}
        </p>
      )}
    </Dialog>
  );
}

interface StepProps {
  busy: boolean;
  setBusy(busy: boolean): void;
  setError(error: string | null): void;
  handleError(err: unknown, form: unknown): void;
  call<T>(path: string, body: unknown): Promise<T>;
}

function useStep<T>(props: StepProps, run: (values: T) => Promise<void>, form: unknown) {
  return async (values: T) => {
    props.setBusy(true);
    props.setError(null);
    try {
      await run(values);
    } catch (err) {
      props.handleError(err, form as never);
    } finally {
      props.setBusy(false);
    }
  };
}

function IdentifyStep(props: StepProps & { onDone(recoveryId: string): void }) {
  const form = useZodForm(identifySchema, { defaultValues: { identifier: '' }, mode: 'onSubmit' });
  const submit = useStep<IdentifyInput>(
    props,
    async (values) => {
      const { recoveryId } = await props.call<{ recoveryId: string }>('/api/recovery/identify', values);
      props.onDone(recoveryId);
    },
    form,
  );
  return (
    <Form id="forgot-password-form" form={form} onSubmit={submit}>
      <TextField name="identifier" label={RECOVERY.identifier} autoComplete="username" autoFocus onInput={() => props.setError(null)} />
    </Form>
  );
}

function AnswerStep(props: StepProps & { recoveryId: string; onDone(resetToken: string): void }) {
  const form = useZodForm(answerFieldsSchema, { defaultValues: { question: '', answer: '' }, mode: 'onSubmit' });
  const questions = useQuery({
    queryKey: ['recovery', 'questions'],
    queryFn: () => api<{ securityQuestions: string[] }>('/api/recovery/questions', { skipAuthHandling: true }),
    select: (d) => d.securityQuestions,
  });
  const submit = useStep<AnswerFields>(
    props,
    async (values) => {
      const { resetToken } = await props.call<{ resetToken: string }>('/api/recovery/verify', { ...values, recoveryId: props.recoveryId });
      props.onDone(resetToken);
    },
    form,
  );
  return (
    <Form id="forgot-password-form" form={form} onSubmit={submit} className="space-y-4">
      <Select
        name="question"
        label={RECOVERY.question}
        placeholder={RECOVERY.questionPlaceholder}
        options={questions.data ?? []}
        disabled={questions.isLoading}
        onInput={() => props.setError(null)}
      />
      <TextField name="answer" label={RECOVERY.answer} autoComplete="off" onInput={() => props.setError(null)} />
    </Form>
  );
}

function PasswordStep(props: StepProps & { resetToken: string; onDone(): void }) {
  const form = useZodForm(newPasswordSchema, { defaultValues: { newPassword: '', confirmPassword: '' }, mode: 'onSubmit' });
  const password = form.watch('newPassword') ?? '';
  const submit = useStep<NewPasswordInput>(
    props,
    async (values) => {
      await props.call('/api/recovery/reset', { ...values, resetToken: props.resetToken });
      props.onDone();
    },
    form,
  );
  return (
    <Form id="forgot-password-form" form={form} onSubmit={submit} className="space-y-4">
      <TextField
        name="newPassword"
        label={RECOVERY.newPassword}
        autoComplete="new-password"
        revealable
        autoFocus
        hint={<PasswordChecklist password={password} className="mt-2" />}
        onInput={() => props.setError(null)}
      />
      <TextField
        name="confirmPassword"
        label={RECOVERY.confirmPassword}
        autoComplete="new-password"
        revealable
        onInput={() => props.setError(null)}
      />
    </Form>
  );
}

function Select({
  name,
  label,
  placeholder,
  options,
  disabled,
  onInput,
}: {
  name: string;
  label: string;
  placeholder: string;
  options: string[];
  disabled?: boolean;
  onInput?: () => void;
}) {
  const { register, getFieldState, formState } = useFormContext();
  const id = useId();
  const { error } = getFieldState(name, formState);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        disabled={disabled}
        onInput={onInput}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'block h-10 w-full rounded-lg border bg-white px-3 text-sm shadow-sm outline-none transition focus:ring-2 disabled:bg-slate-100',
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
