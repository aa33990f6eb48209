import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { CheckCircle2, KeyRound } from 'lucide-react';
import { newPasswordSchema, type NewPasswordInput } from '../../../common/schemas/recovery';
import { RECOVERY } from '../../../common/profile';
import { APP } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Form, TextField, applyServerErrors, useZodForm } from '../../components/ui/form';
import { PasswordChecklist } from '../../components/ui/password-checklist';
import { Spinner } from '../../components/ui/spinner';
import { api, ApiError } from '../../lib/api';

type State = 'checking' | 'invalid' | 'ready' | 'done';

/**
 * /reset-password#token=…: the page of the emailed link; the new password follows the same
 * checklist. The token rides in the fragment, which the browser never sends, so no server or
 * proxy log holds it; links of the older ?token= form still work.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const { hash } = useLocation();
  const token = new URLSearchParams(hash.slice(1)).get('token') ?? params.get('token') ?? '';
  const [state, setState] = useState<State>(token ? 'checking' : 'invalid');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useZodForm(newPasswordSchema, { defaultValues: { newPassword: '', confirmPassword: '' }, mode: 'onSubmit' });
  const password = form.watch('newPassword') ?? '';

  useEffect(() => {
    if (!token) return;
    let live = true;
    api('/api/recovery/email-link/check', { method: 'POST', body: { token }, skipAuthHandling: true })
      .then(() => {
        if (live) setState('ready');
      })
      .catch(() => {
        if (live) setState('invalid');
      });
    return () => {
      live = false;
    };
  }, [token]);

  async function onSubmit(values: NewPasswordInput) {
    setBusy(true);
    setError(null);
    try {
      await api('/api/recovery/email-link', { method: 'POST', body: { ...values, token }, skipAuthHandling: true });
      setState('done');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setState('invalid');
      else if (!applyServerErrors(form as never, err))
        setError(err instanceof ApiError && err.status < 500 && err.status > 0 ? err.message : RECOVERY.genericError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="relative flex min-h-screen flex-col bg-cover bg-center" style={{ backgroundImage: 'url(/login-bg.svg)' }}>
      <div className="absolute inset-0 bg-gradient-to-br from-brand-900/70 via-brand-800/40 to-transparent" aria-hidden />
      <header className="relative flex items-center gap-3 p-6 text-white">
        <img src="/logo.svg" alt="" className="h-12 w-12" />
        <p className="text-xl font-bold drop-shadow">{APP.name}</p>
      </header>
      <main className="relative flex flex-1 items-center justify-center px-4 py-8">
        <div className="w-full max-w-md rounded-2xl bg-white/95 p-8 shadow-2xl backdrop-blur">
          <div className="mb-4 flex h-11 w-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            {state === 'done' ? <CheckCircle2 className="h-6 w-6" aria-hidden /> : <KeyRound className="h-6 w-6" aria-hidden />}
          </div>
          <h1 className="text-2xl font-bold text-slate-900">{RECOVERY.linkTitle}</h1>
          {state === 'checking' && (
            <p className="mt-4 flex items-center gap-3 text-sm text-slate-500">
              <Spinner className="h-5 w-5" /> {RECOVERY.linkChecking}
            </p>
          )}
          {state === 'invalid' && (
            <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {RECOVERY.linkInvalid}
            </p>
          )}
          {state === 'done' && (
            <p role="status" className="mt-4 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">
              {RECOVERY.success} {RECOVERY.linkDone}
            </p>
          )}
          {state === 'ready' && (
            <>
              <p className="mb-6 mt-1 text-sm text-slate-500">{RECOVERY.linkIntro}</p>
              <Form form={form} onSubmit={onSubmit} className="space-y-4">
                <TextField
                  name="newPassword"
                  label={RECOVERY.newPassword}
                  autoComplete="new-password"
                  revealable
                  autoFocus
                  hint={<PasswordChecklist password={password} className="mt-2" />}
                />
                <TextField name="confirmPassword" label={RECOVERY.confirmPassword} autoComplete="new-password" revealable />
                {error && (
                  <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
                    {error}
                  </p>
                )}
                <Button type="submit" className="w-full" disabled={busy}>
                  {busy ? RECOVERY.busy : RECOVERY.reset}
                </Button>
              </Form>
            </>
          )}
          {state !== 'ready' && state !== 'checking' && (
            <Link to="/login" className="mt-6 inline-flex text-sm font-medium text-brand-700 hover:underline">
              {RECOVERY.backToLogin}
            </Link>
          )}
        </div>
      </main>
      <footer className="relative p-4 text-center text-xs text-white/90">
        <p>{APP.departmentCredit}</p>
        <p>{APP.copyright}</p>
      </footer>
    </div>
  );
}
