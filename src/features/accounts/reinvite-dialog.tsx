import { useId, useState } from 'react';
import { ACCOUNTS } from '../../../common/accounts';
import { reauthSchema, type AdminAccount, type InvitationResult, type ReauthInput } from '../../../common/schemas/accounts';
import { accountCreateNeedsReauth } from '../../../common/reauth';
import { SETTINGS } from '../../../common/profile';
import { SHELL } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Form, applyServerErrors, useZodForm } from '../../components/ui/form';
import { ReauthFields } from '../../components/ui/reauth-fields';
import { useReinviteAccount } from './api';
import { InvitationSent } from './invitation-sent';

const I = ACCOUNTS.invite;

/** A new invitation link for an account without a password; a super admin's account asks the editor's password, as adding one does. */
export function ReinviteDialog({ account, onClose }: { account: AdminAccount | null; onClose(): void }) {
  return account ? <ReinviteForm key={account.id} account={account} onClose={onClose} /> : null;
}

function ReinviteForm({ account, onClose }: { account: AdminAccount; onClose(): void }) {
  const formId = useId();
  const reinvite = useReinviteAccount();
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<InvitationResult | null>(null);
  const form = useZodForm(reauthSchema, { defaultValues: { currentPassword: '', code: '' }, mode: 'onSubmit' });

  async function onSubmit(proof: ReauthInput) {
    setError(null);
    try {
      setResult(await reinvite.mutateAsync({ id: account.id, proof }));
    } catch (err) {
      form.setValue('code', '');
      if (!applyServerErrors(form as never, err)) setError(ACCOUNTS.messages.reinviteError((err as Error).message));
    }
  }

  if (result) {
    return (
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o) onClose();
        }}
        title={result.delivery === 'email' ? I.sentTitle : I.linkTitle}
        size="md"
        footer={<Button onClick={onClose}>{I.done}</Button>}
      >
        <InvitationSent result={result} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !reinvite.isPending) onClose();
      }}
      title={I.resendTitle}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={reinvite.isPending}>
            {SHELL.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={reinvite.isPending}>
            {reinvite.isPending ? ACCOUNTS.form.saving : I.resendSubmit}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">{I.resendBody(account.fullname)}</p>
      <Form form={form} onSubmit={onSubmit} id={formId} className="mt-4">
        {accountCreateNeedsReauth({ role: account.role }) && <ReauthFields intro={SETTINGS.confirmChange} mayHaveSecondFactor />}
      </Form>
      {error && (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Dialog>
  );
}
