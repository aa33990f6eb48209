import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import {
  secondFactorCodeFormSchema,
  secondFactorPasswordFormSchema,
  secondFactorProofFormSchema,
  type SecondFactorSetupStart,
} from '../../../common/schemas/second-factor';
import { manilaShortDate } from '../../../common/manila-time';
import { SECOND_FACTOR } from '../../../common/second-factor';
import { Button } from '../../components/ui/button';
import { Form, TextField, applyServerErrors, useZodForm } from '../../components/ui/form';
import { RecoveryCodesView, TotpSetupView } from '../../components/ui/second-factor';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { secondFactorKey, useSecondFactorStatus } from '../../lib/second-factor';
import { secondFactorApi } from './api';

type Mode =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'setup'; setup: SecondFactorSetupStart }
  | { kind: 'proof'; action: 'off' | 'codes' }
  | { kind: 'codes'; codes: string[] };

function messageOf(err: unknown): string {
  return err instanceof ApiError && err.code !== 'INTERNAL' ? err.message : SECOND_FACTOR.invalidCode;
}

/** Account Settings, 'Two-step sign-in' (super admins; the server refuses it to other roles). */
export function SecondFactorSection({ disabled }: { disabled?: boolean }) {
  const status = useSecondFactorStatus(true);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const codeForm = useZodForm(secondFactorCodeFormSchema, { defaultValues: { code: '' }, mode: 'onSubmit' });
  const proofForm = useZodForm(secondFactorProofFormSchema, { defaultValues: { password: '', code: '' }, mode: 'onSubmit' });
  const passwordForm = useZodForm(secondFactorPasswordFormSchema, { defaultValues: { password: '' }, mode: 'onSubmit' });

  const s = status.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: secondFactorKey });
  const reset = () => {
    setMode({ kind: 'idle' });
    setError(null);
    codeForm.reset({ code: '' });
    proofForm.reset({ password: '', code: '' });
    passwordForm.reset({ password: '' });
  };

  async function startSetup(values: { password: string }) {
    setBusy(true);
    setError(null);
    try {
      setMode({ kind: 'setup', setup: await secondFactorApi.setup(values) });
    } catch (err) {
      passwordForm.setValue('password', '');
      if (!applyServerErrors(passwordForm as never, err)) setError(messageOf(err));
      void refresh();
    } finally {
      setBusy(false);
    }
  }

  async function confirmSetup(values: { code: string }) {
    if (mode.kind !== 'setup') return;
    setBusy(true);
    setError(null);
    try {
      const result = await secondFactorApi.enable({ setupToken: mode.setup.setupToken, code: values.code });
      queryClient.setQueryData(secondFactorKey, result.status);
      setMode({ kind: 'codes', codes: result.recoveryCodes });
      toast.show(SECOND_FACTOR.turnedOn);
    } catch (err) {
      codeForm.setValue('code', '');
      if (!applyServerErrors(codeForm as never, err)) setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function confirmProof(body: { password: string; code: string }) {
    if (mode.kind !== 'proof') return;
    setBusy(true);
    setError(null);
    try {
      if (mode.action === 'off') {
        queryClient.setQueryData(secondFactorKey, await secondFactorApi.disable(body));
        reset();
        toast.show(SECOND_FACTOR.turnedOff);
      } else {
        const result = await secondFactorApi.newCodes(body);
        queryClient.setQueryData(secondFactorKey, result.status);
        setMode({ kind: 'codes', codes: result.recoveryCodes });
        toast.show(SECOND_FACTOR.codesMade);
      }
    } catch (err) {
      proofForm.setValue('code', '');
      if (!applyServerErrors(proofForm as never, err)) setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      className="rounded-xl border border-slate-200 p-4"
      aria-labelledby="settings-second-factor"
      data-testid="second-factor-section"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="text-sm text-slate-600">
          <h3 id="settings-second-factor" className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-slate-500">
            {SECOND_FACTOR.section}
            {s && (
              <span
                className={
                  s.enabled
                    ? 'rounded-full bg-green-100 px-2 py-0.5 text-[11px] font-semibold text-green-800'
                    : 'rounded-full bg-slate-100 px-2 py-0.5 text-[11px] font-semibold text-slate-600'
                }
                data-testid="second-factor-status"
              >
                {s.enabled ? SECOND_FACTOR.statusOn : SECOND_FACTOR.statusOff}
              </span>
            )}
          </h3>
          <p className="mt-1 text-xs text-slate-500">{SECOND_FACTOR.intro}</p>
          {s?.enabled && (
            <p className="mt-1 text-xs text-slate-600" data-testid="second-factor-codes-left">
              {s.enabledAt ? `${SECOND_FACTOR.statusOnSince(manilaShortDate(Date.parse(s.enabledAt)))} · ` : ''}
              {SECOND_FACTOR.codesLeft(s.recoveryCodesLeft)}
            </p>
          )}
          {s?.required && <p className="mt-1 text-xs text-amber-700">{SECOND_FACTOR.requiredForRole}</p>}
        </div>
        {s && mode.kind === 'idle' && (
          <div className="flex shrink-0 flex-wrap gap-2">
            {s.enabled ? (
              <>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy || disabled}
                  onClick={() => {
                    setError(null);
                    setMode({ kind: 'proof', action: 'codes' });
                  }}
                >
                  <KeyRound className="h-4 w-4" aria-hidden /> {SECOND_FACTOR.newCodes}
                </Button>
                {!s.required && (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={busy || disabled}
                    onClick={() => {
                      setError(null);
                      setMode({ kind: 'proof', action: 'off' });
                    }}
                  >
                    <ShieldOff className="h-4 w-4" aria-hidden /> {SECOND_FACTOR.turnOff}
                  </Button>
                )}
              </>
            ) : (
              <Button
                size="sm"
                disabled={busy || disabled}
                onClick={() => {
                  setError(null);
                  setMode({ kind: 'password' });
                }}
              >
                <ShieldCheck className="h-4 w-4" aria-hidden /> {SECOND_FACTOR.turnOn}
              </Button>
            )}
          </div>
        )}
      </div>

      {mode.kind === 'password' && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-600">{SECOND_FACTOR.turnOnIntro}</p>
          <Form form={passwordForm} onSubmit={startSetup} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
            <TextField
              name="password"
              label={SECOND_FACTOR.password}
              type="password"
              autoComplete="current-password"
              autoFocus
              className="sm:w-56"
              onInput={() => setError(null)}
            />
            <div className="flex gap-2 sm:mt-6">
              <Button type="submit" disabled={busy}>
                {busy ? SECOND_FACTOR.confirming : SECOND_FACTOR.continueSetup}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={reset}>
                {SECOND_FACTOR.cancel}
              </Button>
            </div>
          </Form>
        </div>
      )}

      {mode.kind === 'setup' && (
        <div className="mt-4 space-y-4 border-t border-slate-100 pt-4">
          <TotpSetupView setup={mode.setup} />
          <Form form={codeForm} onSubmit={confirmSetup} className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <TextField
              name="code"
              label={SECOND_FACTOR.confirmCode}
              autoComplete="one-time-code"
              inputMode="numeric"
              placeholder="123456"
              autoFocus
              className="sm:w-48 [&_input]:font-mono [&_input]:tracking-widest"
              onInput={() => setError(null)}
            />
            <div className="flex gap-2 sm:mt-6">
              <Button type="submit" size="md" disabled={busy}>
                {busy ? SECOND_FACTOR.confirming : SECOND_FACTOR.confirm}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={reset}>
                {SECOND_FACTOR.cancel}
              </Button>
            </div>
          </Form>
        </div>
      )}

      {mode.kind === 'proof' && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-600">{SECOND_FACTOR.proofIntro}</p>
          <Form form={proofForm} onSubmit={confirmProof} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
            <TextField
              name="password"
              label={SECOND_FACTOR.password}
              type="password"
              autoComplete="current-password"
              autoFocus
              className="sm:w-48"
              onInput={() => setError(null)}
            />
            <TextField
              name="code"
              label={SECOND_FACTOR.confirmCode}
              autoComplete="one-time-code"
              className="sm:w-40"
              onInput={() => setError(null)}
            />
            <div className="flex gap-2 sm:mt-6">
              <Button type="submit" variant={mode.action === 'off' ? 'danger' : 'primary'} disabled={busy}>
                {busy ? SECOND_FACTOR.confirming : mode.action === 'off' ? SECOND_FACTOR.turnOff : SECOND_FACTOR.newCodes}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={reset}>
                {SECOND_FACTOR.cancel}
              </Button>
            </div>
          </Form>
        </div>
      )}

      {mode.kind === 'codes' && (
        <div className="mt-4 space-y-3 border-t border-slate-100 pt-4">
          <RecoveryCodesView codes={mode.codes} />
          <Button size="sm" onClick={reset}>
            {SECOND_FACTOR.done}
          </Button>
        </div>
      )}

      {error && (
        <p
          role="alert"
          className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
          data-testid="second-factor-error"
        >
          {error}
        </p>
      )}
    </section>
  );
}
