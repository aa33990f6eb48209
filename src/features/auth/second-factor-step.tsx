import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { secondFactorCodeFormSchema, type SecondFactorChallenge } from '../../../common/schemas/second-factor';
import { SECOND_FACTOR } from '../../../common/second-factor';
import { LOGIN } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Form, TextField, applyServerErrors, useZodForm } from '../../components/ui/form';
import { RecoveryCodesView, TotpSetupView } from '../../components/ui/second-factor';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';

/**
 * The step after a right password (loaded only then, so the login page stays small): a code
 * from the app or a recovery code ('verify'), or setting up a required second factor
 * ('enroll': key, first code, then the recovery codes once).
 */
export default function SecondFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SecondFactorChallenge;
  /** The session is open: go on to the dashboard. */
  onSignedIn(): void;
  /** The challenge expired: back to the password. */
  onRestart(message: string): void;
}) {
  const { loginSecondFactor } = useSession();
  const form = useZodForm(secondFactorCodeFormSchema, { defaultValues: { code: '' }, mode: 'onSubmit' });
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const enroll = challenge.secondFactor === 'enroll';

  async function onSubmit(values: { code: string }) {
    setBusy(true);
    setError(null);
    try {
      const result = await loginSecondFactor({ challenge: challenge.challenge, code: values.code });
      if (result.recoveryCodes?.length) {
        setCodes(result.recoveryCodes);
        setBusy(false);
      } else {
        onSignedIn();
      }
    } catch (err) {
      setBusy(false);
      form.setValue('code', '');
      if (err instanceof ApiError && err.code === 'SIGN_IN_EXPIRED') onRestart(err.message);
      else if (err instanceof ApiError && applyServerErrors(form as never, err)) return;
      else if (err instanceof ApiError && err.code !== 'INTERNAL' && err.code !== 'NETWORK') setError(err.message);
      else setError(LOGIN.genericError);
    }
  }

  if (codes) {
    return (
      <div className="space-y-4" data-testid="second-factor-codes">
        <h1 className="text-2xl font-bold text-slate-900">{SECOND_FACTOR.turnedOn}</h1>
        <RecoveryCodesView codes={codes} />
        <Button className="w-full" onClick={onSignedIn}>
          {SECOND_FACTOR.continue}
        </Button>
      </div>
    );
  }

  return (
    <div data-testid="second-factor-step">
      <div className="flex items-center gap-2">
        <ShieldCheck className="h-6 w-6 text-brand-700" aria-hidden />
        <h1 className="text-2xl font-bold text-slate-900">{enroll ? SECOND_FACTOR.enrollTitle : SECOND_FACTOR.verifyTitle}</h1>
      </div>
      <p className="mb-5 mt-1 text-sm text-slate-500">
        {enroll ? SECOND_FACTOR.enrollIntro : recovery ? SECOND_FACTOR.recoveryIntro : SECOND_FACTOR.verifyIntro}
      </p>
      {enroll && challenge.setup && (
        <div className="mb-5">
          <TotpSetupView setup={challenge.setup} />
        </div>
      )}
      <Form form={form} onSubmit={onSubmit} className="space-y-4">
        <TextField
          key={recovery ? 'recovery' : 'app'}
          name="code"
          label={recovery ? SECOND_FACTOR.recoveryCodeLabel : SECOND_FACTOR.codeLabel}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          inputMode={recovery ? 'text' : 'numeric'}
          placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
          autoFocus
          spellCheck={false}
          className="[&_input]:font-mono [&_input]:tracking-widest"
          onInput={() => setError(null)}
        />
        {!enroll && (
          <div className="flex justify-end">
            <button
              type="button"
              className="text-sm font-medium text-brand-700 hover:underline"
              onClick={() => {
                setRecovery(!recovery);
                setError(null);
                form.clearErrors();
                form.setValue('code', '');
              }}
            >
              {recovery ? SECOND_FACTOR.useAppCode : SECOND_FACTOR.useRecoveryCode}
            </button>
          </div>
        )}
        {error && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? SECOND_FACTOR.verifying : SECOND_FACTOR.verify}
        </Button>
        <button type="button" className="block w-full text-center text-sm text-slate-500 hover:underline" onClick={() => onRestart('')}>
          {SECOND_FACTOR.backToLogin}
        </button>
      </Form>
    </div>
  );
}
