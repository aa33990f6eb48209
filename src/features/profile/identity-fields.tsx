import type { UseFormReturn } from 'react-hook-form';
import type { Profile, ProfileFormInput, ProfileFormValues } from '../../../common/schemas/profile';
import { SETTINGS } from '../../../common/profile';
import { ReauthFields } from '../../components/ui/reauth-fields';

/**
 * The email and the security question and answer are the ways back into an account: changing
 * them takes the current password (and a code, with a second factor). The fields show as soon
 * as one of those changes, or when the server asks (its confirmation lasts a few minutes, after
 * which it asks again).
 */
export function IdentityFields({
  form,
  stored,
  mayHaveSecondFactor,
}: {
  form: UseFormReturn<ProfileFormInput, unknown, ProfileFormValues>;
  stored: Profile;
  mayHaveSecondFactor: boolean;
}) {
  const [email, question, answer] = form.watch(['email', 'securityQuestion', 'securityAnswer']);
  const { errors } = form.formState;
  const changing =
    (email ?? '').trim().toLowerCase() !== (stored.email ?? '').toLowerCase() ||
    (question ?? '') !== (stored.securityQuestion ?? '') ||
    (answer ?? '').trim() !== '';
  if (!changing && !errors.currentPassword && !errors.code) return null;
  return <ReauthFields intro={SETTINGS.confirmIdentity} mayHaveSecondFactor={mayHaveSecondFactor} testId="settings-confirm" />;
}
