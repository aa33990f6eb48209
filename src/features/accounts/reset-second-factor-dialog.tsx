import { useId, useState } from 'react';
import { reauthSchema, type AdminAccount, type ReauthInput } from '../../../common/schemas/accounts';
import { SETTINGS } from '../../../common/profile';
import { SECOND_FACTOR } from '../../../common/second-factor';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Form, applyServerErrors, useZodForm } from '../../components/ui/form';
import { ReauthFields } from '../../components/ui/reauth-fields';
import { useToast } from '../../components/ui/toast';
import { useResetSecondFactor } from './api';

/** A super admin removes another admin's second factor (lost phone), confirming with their own password. */
export function ResetSecondFactorDialog({ account, onClose }: { account: AdminAccount | null; onClose(): void }) {
  return account ? <ResetForm key={account.id} account={account} onClose={onClose} /> : null;
}

function ResetForm({ account, onClose }: { account: AdminAccount; onClose(): void }) {
  const formId = useId();
  const toast = useToast();
  const reset = useResetSecondFactor();
  const [error, setError] = useState<string | null>(null);
  const form = useZodForm(reauthSchema, { defaultValues: { currentPassword: '', code: '' }, mode: 'onSubmit' });

  async function onSubmit(proof: ReauthInput) {
    setError(null);
    try {
      await reset.mutateAsync({ id: account.id, proof });
      toast.show(SECOND_FACTOR.resetDone);
      onClose();
    } catch (err) {
      form.setValue('code', '');
      if (!applyServerErrors(form as never, err)) setError((err as Error).message);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !reset.isPending) onClose();
      }}
      title={SECOND_FACTOR.reset}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={reset.isPending}>
            {SECOND_FACTOR.cancel}
          </Button>
          <Button type="submit" form={formId} variant="danger" disabled={reset.isPending}>
            {SECOND_FACTOR.reset}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">{SECOND_FACTOR.resetConfirm(account.fullname)}</p>
      <Form form={form} onSubmit={onSubmit} id={formId} className="mt-4">
        <ReauthFields intro={SETTINGS.confirmChange} mayHaveSecondFactor />
      </Form>
      {error && (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Dialog>
  );
}
