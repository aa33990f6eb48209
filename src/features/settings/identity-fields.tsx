import type { UseFormReturn } from 'react-hook-form';
import type { Profile, ProfileFormInput, ProfileFormValues } from '../../../common/schemas/profile';
import { SETTINGS } from '../../../common/settings';
import { TextField } from '../../components/ui/form';
import { useSecondFactorStatus } from './api';

/**
 * The email and the security question and answer are the ways back into an account: changing
 * them takes the current password (and a code, with two-step sign-in). The fields show as soon
 * as one of those changes, or when the server asks (its confirmation lasts a few minutes, after
 * which it asks again).
 */
export function IdentityFields({ form, stored, mayHaveSecondFactor }: {
  form: UseFormReturn<ProfileFormInput, unknown, ProfileFormValues>;
  stored: Profile;
  mayHaveSecondFactor: boolean;
}) {
  const twoStep = useSecondFactorStatus(mayHaveSecondFactor);
  const [email, question, answer] = form.watch(['email', 'securityQuestion', 'securityAnswer']);
  const { errors } = form.formState;
  const changing = (email ?? '').trim().toLowerCase() !== (stored.email ?? '').toLowerCase()
    || (question ?? '') !== (stored.securityQuestion ?? '') || (answer ?? '').trim() !== '';
  if (!changing && !errors.currentPassword && !errors.code) return null;
  const asksCode = Boolean(twoStep.data?.enabled) || Boolean(errors.code);
  return (
    <section className="rounded-xl border border-amber-200 bg-amber-50 p-4" aria-labelledby="settings-confirm" data-testid="settings-confirm">
      <p id="settings-confirm" className="text-sm text-amber-900">{SETTINGS.confirmIdentity}</p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <TextField name="currentPassword" label={SETTINGS.currentPassword} type="password" autoComplete="current-password" />
        {asksCode && <TextField name="code" label={SETTINGS.confirmIdentityCode} autoComplete="one-time-code" />}
      </div>
    </section>
  );
}
