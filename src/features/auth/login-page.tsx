import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { LogIn } from 'lucide-react';
import { TIMINGS } from '../../../common/limits';
import type { SecondFactorChallenge } from '../../../common/schemas/second-factor';
import { APP, LOGIN } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { Form, TextField, applyServerErrors, useLazyZodForm } from '../../components/ui/form';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { clearLogoutReason, takeLogoutReason, takeReturnTo } from '../../lib/storage';
import { LiveClock } from './live-clock';

// Not in the login bundle: Zod with the login schema (fetched at the first keystroke), the
// recovery steps (when the link is used) and the second step (after a right password of an
// account with a second factor).
const loadLoginSchema = () => import('../../../common/schemas/auth').then((m) => m.loginSchema);
const ForgotPasswordDialog = lazy(() => import('./forgot-password-dialog').then((m) => ({ default: m.ForgotPasswordDialog })));
const SecondFactorStep = lazy(() => import('./second-factor-step'));

export function LoginPage() {
  const navigate = useNavigate();
  const { status, login, refresh } = useSession();
  const form = useLazyZodForm(loadLoginSchema, { defaultValues: { identifier: '', password: '', code: '' }, mode: 'onSubmit' });
  const [busy, setBusy] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  // A locked account: its owner may sign in at once with the password and a code.
  const [locked, setLocked] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [autoLogout, setAutoLogout] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  // The unlock link of a lockout notice (/login#unlock=…): sent with the password, once.
  const [unlockToken, setUnlockToken] = useState<string | null>(null);

  useEffect(() => {
    const match = /^#unlock=([^&]+)/.exec(window.location.hash);
    if (!match) return;
    try {
      setUnlockToken(decodeURIComponent(match[1]!));
    } catch {
      // A link cut or changed on its way: signing in works as without one.
    }
    // Off the address bar and the history: the link is not kept where others could read it.
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, []);

  useEffect(() => {
    const reason = takeLogoutReason();
    if (reason)
      setAutoLogout(
        reason === 'inactivity'
          ? LOGIN.autoLogoutInactivity
          : reason === 'signed_out'
            ? LOGIN.autoLogoutSignedOut
            : LOGIN.autoLogoutSessionEnded,
      );
  }, []);

  // The username field gets the focus just after the page is first drawn, not while React
  // inserts it (autoFocus): focusing forces the whole page's layout inside that task, and a slow
  // phone then has one long task where it could have two shorter ones.
  useEffect(() => {
    if (challenge) return undefined;
    const t = setTimeout(() => {
      if (document.activeElement === document.body) form.setFocus('identifier');
    });
    return () => clearTimeout(t);
  }, [form, challenge]);

  if (status === 'authenticated' && !redirecting) return <Navigate to="/dashboard" replace />;

  async function signedIn() {
    setRedirecting(true);
    await new Promise((resolve) => setTimeout(resolve, TIMINGS.loginRedirectDelayMs));
    const info = await refresh();
    // Back to the page a sign-out the user did not ask for left (inactivity, a session ended).
    navigate((info && takeReturnTo(info.user.id)) ?? '/dashboard', { replace: true });
  }

  async function onSubmit(values: { identifier: string; password: string; code?: string }) {
    setBusy(true);
    setError(null);
    try {
      const base = { identifier: values.identifier, password: values.password };
      const result = await login(locked && values.code ? values : unlockToken ? { ...base, unlockToken } : base);
      if ('secondFactor' in result) {
        setBusy(false);
        form.setValue('password', '');
        setChallenge(result);
        return;
      }
      await signedIn();
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.reason === 'locked') setLocked(true);
      if (err instanceof ApiError && (err.code === 'ACCOUNT_DELETED' || err.code === 'ACCOUNT_RESTRICTED')) setBlocked(err.message);
      else if (err instanceof ApiError && applyServerErrors(form as never, err)) return;
      else if (
        err instanceof ApiError &&
        (err.code === 'INVALID_CREDENTIALS' || err.code === 'INVALID_UNLOCK' || err.code === 'RATE_LIMITED')
      )
        setError(err.message);
      else setError(LOGIN.genericError);
    }
  }

  return (
    <div className="relative flex min-h-screen flex-col bg-cover bg-center" style={{ backgroundImage: 'url(/login-bg.svg)' }}>
      <div className="absolute inset-0 bg-gradient-to-br from-brand-900/70 via-brand-800/40 to-transparent" aria-hidden />
      <header className="relative flex items-start justify-between p-6">
        <div className="flex items-center gap-3 text-white">
          <img src="/logo.svg" alt="" className="h-12 w-12" />
          <div>
            <p className="text-xl font-bold drop-shadow">{APP.name}</p>
            <p className="text-sm opacity-90">Rice varieties, pests and diseases for Tarlac farmers</p>
          </div>
        </div>
        <LiveClock />
      </header>

      <main className="relative flex flex-1 items-center justify-center px-4 py-8">
        <div className="w-full max-w-md rounded-2xl bg-white/95 p-8 shadow-2xl backdrop-blur">
          {challenge ? (
            <Suspense
              fallback={
                <div className="flex justify-center py-10">
                  <Spinner />
                </div>
              }
            >
              <SecondFactorStep
                challenge={challenge}
                onSignedIn={() => void signedIn()}
                onRestart={(message) => {
                  setChallenge(null);
                  setError(message || null);
                }}
              />
            </Suspense>
          ) : (
            <>
              <h1 className="text-2xl font-bold text-slate-900">Welcome back</h1>
              <p className="mb-6 mt-1 text-sm text-slate-500">Sign in to manage the rice-information app.</p>
              <Form form={form} onSubmit={onSubmit} className="space-y-4">
                <TextField name="identifier" label={LOGIN.usernameLabel} autoComplete="username" onInput={() => setError(null)} />
                <TextField
                  name="password"
                  label={LOGIN.passwordLabel}
                  autoComplete="current-password"
                  revealable
                  onInput={() => setError(null)}
                />
                {unlockToken && !locked && (
                  <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="login-unlock-link">
                    {LOGIN.unlockLinkHelp}
                  </p>
                )}
                {locked && (
                  <div className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-3" data-testid="login-locked">
                    <p className="text-sm text-amber-900">{LOGIN.lockedHelp}</p>
                    <TextField name="code" label={LOGIN.unlockCodeLabel} autoComplete="one-time-code" onInput={() => setError(null)} />
                  </div>
                )}
                <div className="flex justify-end">
                  <button type="button" className="text-sm font-medium text-brand-700 hover:underline" onClick={() => setForgotOpen(true)}>
                    {LOGIN.forgotPassword}
                  </button>
                </div>
                {error && (
                  <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
                    {error}
                  </p>
                )}
                <Button type="submit" className="w-full" disabled={busy}>
                  <LogIn className="h-4 w-4" aria-hidden />
                  {busy ? LOGIN.submitting : LOGIN.submit}
                </Button>
              </Form>
            </>
          )}
        </div>
      </main>

      <footer className="relative p-4 text-center text-xs text-white/90">
        <p>{APP.departmentCredit}</p>
        <p>{APP.copyright}</p>
      </footer>

      <Dialog
        open={blocked !== null}
        onOpenChange={(o) => !o && setBlocked(null)}
        title={LOGIN.blockedTitle}
        size="sm"
        hideClose
        footer={<Button onClick={() => setBlocked(null)}>{LOGIN.ok}</Button>}
      >
        <p className="text-sm text-slate-700">{blocked ?? LOGIN.defaultRestricted}</p>
      </Dialog>
      <Dialog
        open={autoLogout !== null}
        onOpenChange={(o) => {
          if (!o) {
            clearLogoutReason();
            setAutoLogout(null);
          }
        }}
        title={LOGIN.autoLogoutTitle}
        size="sm"
        hideClose
        footer={
          <Button
            onClick={() => {
              clearLogoutReason();
              setAutoLogout(null);
            }}
          >
            {LOGIN.ok}
          </Button>
        }
      >
        <p className="text-sm text-slate-700">{autoLogout}</p>
      </Dialog>
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open onOpenChange={setForgotOpen} />
        </Suspense>
      )}
    </div>
  );
}
