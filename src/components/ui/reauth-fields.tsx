import { useFormContext } from 'react-hook-form';
import { SETTINGS } from '../../../common/profile';
import { useSecondFactorStatus } from '../../lib/second-factor';
import { TextField } from './form';

/**
 * The signed-in user's current password, and a code when they have a second factor: asked by
 * the changes that could take an account over (Account Settings' email and question, the
 * Accounts screen's password, email and role changes, a new super admin, a second-factor reset).
 * The server decides (credentials/identity.ts); blank fields pass within 5 minutes of the last time.
 * Renders inside a Form whose values have `currentPassword` and `code`.
 */
export function ReauthFields({ intro, mayHaveSecondFactor, testId }: { intro: string; mayHaveSecondFactor: boolean; testId?: string }) {
  const secondFactor = useSecondFactorStatus(mayHaveSecondFactor);
  const { formState } = useFormContext();
  const asksCode = Boolean(secondFactor.data?.enabled) || Boolean(formState.errors.code);
  return (
    <section className="rounded-xl border border-amber-200 bg-amber-50 p-4" data-testid={testId}>
      <p className="text-sm text-amber-900">{intro}</p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <TextField name="currentPassword" label={SETTINGS.currentPassword} type="password" autoComplete="current-password" />
        {asksCode && <TextField name="code" label={SETTINGS.confirmIdentityCode} autoComplete="one-time-code" />}
      </div>
    </section>
  );
}
