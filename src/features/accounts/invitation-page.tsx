import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CheckCircle2, UserPlus } from 'lucide-react';
import { INVITATION } from '../../../common/accounts';
import { newPasswordSchema, type NewPasswordInput } from '../../../common/schemas/recovery';
import { APP } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Form, TextField, applyServerErrors, useZodForm } from '../../components/ui/form';
import { PasswordChecklist } from '../../components/ui/password-checklist';
import { Spinner } from '../../components/ui/spinner';
import { api, ApiError } from '../../lib/api';

type State = { kind: 'checking' } | { kind: 'invalid' } | { kind: 'ready'; fullname: string; username: string } | { kind: 'done' };

/**
 * /invitation#token=…: a new admin sets the first password of the account a super admin made,
 * with the same checklist, then logs in. The token rides in the fragment, which the browser
 * never sends, so no server or proxy log holds it.
 */
export function InvitationPage() {
  const { hash } = useLocation();
  const token = new URLSearchParams(hash.slice(1)).get('token') ?? '';
  const [state, setState] = useState<State>(token ? { kind: 'checking' } : { kind: 'invalid' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useZodForm(newPasswordSchema, { defaultValues: { newPassword: '', confirmPassword: '' }, mode: 'onSubmit' });
  const password = form.watch('newPassword') ?? '';

  useEffect(() => {
    if (!token) return;
    let live = true;
    api<{ fullname: string; username: string }>('/api/invitations/check', { method: 'POST', body: { token }, skipAuthHandling: true })
      .then((found) => {
        if (live) setState({ kind: 'ready', fullname: found.fullname, username: found.username });
      })
      .catch(() => {
        if (live) setState({ kind: 'invalid' });
      });
    return () => {
      live = false;
    };
  }, [token]);

  async function onSubmit(values: NewPasswordInput) {
    setBusy(true);
    setError(null);
    try {
      await api('/api/invitations/accept', { method: 'POST', body: { ...values, token }, skipAuthHandling: true });
      setState({ kind: 'done' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setState({ kind: 'invalid' });
      else if (!applyServerErrors(form as never, err))
        setError(err instanceof ApiError && err.status < 500 && err.status > 0 ? err.message : INVITATION.genericError);
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
        <div className="w-full max-w-md rounded-2xl bg-white/95 p-8 shadow-2xl backdrop-blur max-sm:p-6">
          <div className="mb-4 flex h-11 w-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            {state.kind === 'done' ? <CheckCircle2 className="h-6 w-6" aria-hidden /> : <UserPlus className="h-6 w-6" aria-hidden />}
          </div>
          <h1 className="text-2xl font-bold text-slate-900">{INVITATION.title}</h1>
          {state.kind === 'checking' && (
            <p className="mt-4 flex items-center gap-3 text-sm text-slate-500">
              <Spinner className="h-5 w-5" /> {INVITATION.checking}
            </p>
          )}
          {state.kind === 'invalid' && (
            <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {INVITATION.invalid}
            </p>
          )}
          {state.kind === 'done' && (
            <p role="status" className="mt-4 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">
              {INVITATION.done}
            </p>
          )}
          {state.kind === 'ready' && (
            <>
              <p className="mb-6 mt-1 text-sm text-slate-600">{INVITATION.intro(state.fullname, state.username)}</p>
              <Form form={form} onSubmit={onSubmit} className="space-y-4">
                {/* For password managers: the account the new password belongs to. */}
                <input type="text" name="username" autoComplete="username" value={state.username} readOnly hidden />
                <TextField
                  name="newPassword"
                  label={INVITATION.newPassword}
                  autoComplete="new-password"
                  revealable
                  autoFocus
                  hint={<PasswordChecklist password={password} className="mt-2" />}
                />
                <TextField name="confirmPassword" label={INVITATION.confirmPassword} autoComplete="new-password" revealable />
                {error && (
                  <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
                    {error}
                  </p>
                )}
                <Button type="submit" className="w-full" disabled={busy}>
                  {busy ? INVITATION.busy : INVITATION.submit}
                </Button>
              </Form>
            </>
          )}
          {(state.kind === 'done' || state.kind === 'invalid') && (
            <Link to="/login" className="mt-6 inline-flex text-sm font-medium text-brand-700 hover:underline">
              {INVITATION.toLogin}
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
