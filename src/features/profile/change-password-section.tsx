import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { changePasswordSchema, type ChangePasswordInput } from '../../../common/schemas/profile';
import { CHANGE_PASSWORD } from '../../../common/profile';
import { Button } from '../../components/ui/button';
import { Form, TextField, applyServerErrors, useZodForm } from '../../components/ui/form';
import { PasswordChecklist } from '../../components/ui/password-checklist';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useSecondFactorStatus } from '../../lib/second-factor';
import { changePassword } from './api';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '', code: '' };

/**
 * Account Settings, 'Password': the current password (and a code with two-step sign-in), the
 * new one with the live checklist, and its confirmation. Its own form, beside the profile's.
 */
export function ChangePasswordSection({ disabled, mayHaveSecondFactor }: { disabled?: boolean; mayHaveSecondFactor: boolean }) {
  const toast = useToast();
  const secondFactor = useSecondFactorStatus(mayHaveSecondFactor);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useZodForm(changePasswordSchema, { defaultValues: EMPTY, mode: 'onSubmit' });
  const password = form.watch('newPassword') ?? '';
  const asksCode = Boolean(secondFactor.data?.enabled) || Boolean(form.formState.errors.code);

  function close() {
    setOpen(false);
    setError(null);
    form.reset(EMPTY);
  }

  async function onSubmit(values: ChangePasswordInput) {
    setBusy(true);
    setError(null);
    try {
      await changePassword(values);
      close();
      toast.show(CHANGE_PASSWORD.done);
    } catch (err) {
      form.setValue('code', '');
      if (!applyServerErrors(form as never, err))
        setError(err instanceof ApiError && err.code !== 'INTERNAL' ? err.message : CHANGE_PASSWORD.failed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="rounded-xl border border-slate-200 p-4" aria-labelledby="settings-password" data-testid="change-password-section">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="text-sm text-slate-600">
          <h3 id="settings-password" className="text-xs font-semibold uppercase tracking-wider text-slate-500">
            {CHANGE_PASSWORD.section}
          </h3>
          <p className="mt-1 text-xs text-slate-500">{CHANGE_PASSWORD.intro}</p>
        </div>
        {!open && (
          <Button variant="secondary" size="sm" className="shrink-0" disabled={disabled} onClick={() => setOpen(true)}>
            <KeyRound className="h-4 w-4" aria-hidden /> {CHANGE_PASSWORD.open}
          </Button>
        )}
      </div>
      {open && (
        <Form form={form} onSubmit={onSubmit} className="mt-4 space-y-4 border-t border-slate-100 pt-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="currentPassword"
              label={CHANGE_PASSWORD.currentPassword}
              type="password"
              autoComplete="current-password"
              autoFocus
              onInput={() => setError(null)}
            />
            {asksCode ? (
              <TextField name="code" label={CHANGE_PASSWORD.code} autoComplete="one-time-code" inputMode="numeric" />
            ) : (
              <div className="max-sm:hidden" aria-hidden />
            )}
            <TextField
              name="newPassword"
              label={CHANGE_PASSWORD.newPassword}
              autoComplete="new-password"
              revealable
              onInput={() => setError(null)}
              hint={<PasswordChecklist password={password} className="mt-2" />}
            />
            <TextField name="confirmPassword" label={CHANGE_PASSWORD.confirmPassword} autoComplete="new-password" revealable />
          </div>
          {error && (
            <p
              role="alert"
              className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
              data-testid="change-password-error"
            >
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" disabled={busy || disabled}>
              {busy ? CHANGE_PASSWORD.busy : CHANGE_PASSWORD.submit}
            </Button>
            <Button variant="secondary" size="sm" disabled={busy} onClick={close}>
              {CHANGE_PASSWORD.cancel}
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}
