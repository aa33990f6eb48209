import { useId, useMemo, useState } from 'react';
import { useWatch, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { ACCOUNTS } from '../../../common/accounts';
import {
  accountAddFormSchema,
  accountUpdateSchema,
  emailField,
  usernameField,
  type AccountAddFormValues,
  type AccountUpdateFormValues,
  type AdminAccount,
  type InvitationResult,
} from '../../../common/schemas/accounts';
import { SHELL } from '../../../common/texts';
import type { Role } from '../../../common/permissions';
import { accountCreateNeedsReauth, accountEditNeedsReauth } from '../../../common/reauth';
import { SETTINGS } from '../../../common/profile';
import { ReauthFields } from '../../components/ui/reauth-fields';
import { Button } from '../../components/ui/button';
import { ConflictDialog } from '../../components/ui/conflict-dialog';
import { Dialog } from '../../components/ui/dialog';
import { Form, applyServerErrors, useKeepTouchedFields, useZodForm } from '../../components/ui/form';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { AccountFields } from './account-fields';
import { useAccount, useCreateAccount, useInviteAccount, useUpdateAccount } from './api';
import { InvitationSent } from './invitation-sent';
import { useAvailability } from './use-availability';

const F = ACCOUNTS.form;
const M = ACCOUNTS.messages;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Username and email are checked on the server 400 ms after typing stops; Save waits for both. */
function useUniquenessChecks(form: UseFormReturn<FieldValues, unknown, FieldValues>, account: AdminAccount | null) {
  const username = (useWatch({ control: form.control, name: 'username' }) as string | undefined) ?? '';
  const email = (useWatch({ control: form.control, name: 'email' }) as string | undefined) ?? '';
  const usernameCheck = useAvailability('username', username, {
    valid: usernameField.safeParse(username).success,
    excludeId: account?.id,
    original: account?.username,
  });
  const emailCheck = useAvailability('email', email, {
    valid: emailField.safeParse(email).success,
    excludeId: account?.id,
    original: account?.email ?? undefined,
  });
  return { usernameCheck, emailCheck, passed: usernameCheck.passed && emailCheck.passed };
}

/** After a failed save: field messages go onto the form, a taken name onto its check, the rest into the alert. */
function handleSaveError(
  form: UseFormReturn<FieldValues, unknown, FieldValues>,
  err: unknown,
  checks: ReturnType<typeof useUniquenessChecks>,
  setError: (m: string) => void,
) {
  if (err instanceof ApiError) {
    applyServerErrors(form, err);
    if (err.fields.username === M.usernameTaken) checks.usernameCheck.markTaken();
    if (err.fields.email === M.emailTaken) checks.emailCheck.markTaken();
  }
  setError(M.saveError(errorText(err)));
}

/** The editor's password (and code) for the changes of common/reauth.ts, shown once the form makes one. */
function AccountReauth({ form, account }: { form: UseFormReturn<FieldValues, unknown, FieldValues>; account: AdminAccount | null }) {
  const values = useWatch({ control: form.control }) as { email?: string; password?: string; role?: Role };
  const { errors } = form.formState;
  const needed = account
    ? accountEditNeedsReauth(
        { email: account.email, role: account.role },
        { email: values.email ?? '', password: values.password, role: values.role },
      )
    : accountCreateNeedsReauth({ role: values.role ?? 'ADMIN' });
  if (!needed && !errors.currentPassword && !errors.code) return null;
  return (
    <div className="mt-4">
      <ReauthFields intro={SETTINGS.confirmChange} mayHaveSecondFactor testId="accounts-confirm" />
    </div>
  );
}

function SaveError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
      {message}
    </p>
  );
}

function Footer({
  formId,
  busy,
  canSave,
  onCancel,
  label = F.save,
}: {
  formId: string;
  busy: boolean;
  canSave: boolean;
  onCancel(): void;
  label?: string;
}) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        {SHELL.cancel}
      </Button>
      <Button type="submit" form={formId} disabled={!canSave || busy}>
        {busy ? F.saving : label}
      </Button>
    </>
  );
}

/** Add New Admin. */
export function CreateAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return open ? <CreateAccountForm onDone={() => onOpenChange(false)} /> : null;
}

function CreateAccountForm({ onDone }: { onDone(): void }) {
  const formId = useId();
  const toast = useToast();
  const create = useCreateAccount();
  const invite = useInviteAccount();
  const [error, setError] = useState<string | null>(null);
  const [invited, setInvited] = useState<InvitationResult | null>(null);
  const form = useZodForm(accountAddFormSchema, {
    defaultValues: { fullname: '', email: '', username: '', password: '', role: 'ADMIN', method: 'password' },
  });
  const generic = form as unknown as UseFormReturn<FieldValues, unknown, FieldValues>;
  const checks = useUniquenessChecks(generic, null);
  const method = form.watch('method');
  const busy = create.isPending || invite.isPending;

  async function onSubmit({ method: chosen, password, ...values }: AccountAddFormValues) {
    setError(null);
    try {
      if (chosen === 'invite') {
        setInvited(await invite.mutateAsync(values));
      } else {
        await create.mutateAsync({ ...values, password });
        onDone();
      }
      toast.show(M.created);
    } catch (err) {
      handleSaveError(generic, err, checks, setError);
    }
  }

  if (invited) {
    return (
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o) onDone();
        }}
        title={invited.delivery === 'email' ? ACCOUNTS.invite.sentTitle : ACCOUNTS.invite.linkTitle}
        size="md"
        footer={<Button onClick={onDone}>{ACCOUNTS.invite.done}</Button>}
      >
        <InvitationSent result={invited} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !busy) onDone();
      }}
      title={F.addTitle}
      size="lg"
      footer={
        <Footer
          formId={formId}
          busy={busy}
          canSave={checks.passed}
          onCancel={onDone}
          label={method === 'invite' ? ACCOUNTS.invite.submit : F.save}
        />
      }
    >
      <Form form={form} onSubmit={onSubmit} id={formId}>
        <AccountFields usernameState={checks.usernameCheck.state} emailState={checks.emailCheck.state} editing={false} invite={method} />
        <AccountReauth form={generic} account={null} />
        <SaveError message={error} />
      </Form>
    </Dialog>
  );
}

/** Edit Admin: the role selector is disabled; an empty password keeps the stored one. */
export function EditAccountDialog({ account, onOpenChange }: { account: AdminAccount | null; onOpenChange(open: boolean): void }) {
  return account ? <EditAccountForm key={account.id} account={account} onDone={() => onOpenChange(false)} /> : null;
}

function formValues(a: AdminAccount): AccountUpdateFormValues {
  return { fullname: a.fullname, email: a.email ?? '', username: a.username, password: '', version: a.version };
}

function EditAccountForm({ account: opened, onDone }: { account: AdminAccount; onDone(): void }) {
  const formId = useId();
  const toast = useToast();
  const update = useUpdateAccount();
  const live = useAccount(opened);
  const account = live.data ?? opened;
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ current: AdminAccount; version: number } | null>(null);
  const form = useZodForm(accountUpdateSchema, { defaultValues: formValues(opened) });
  const generic = form as unknown as UseFormReturn<FieldValues, unknown, FieldValues>;
  const serverValues = useMemo(() => formValues(account), [account]);
  useKeepTouchedFields(generic, serverValues);
  const checks = useUniquenessChecks(generic, account);

  async function onSubmit(values: AccountUpdateFormValues) {
    setError(null);
    try {
      await update.mutateAsync({ id: opened.id, body: values });
      toast.show(M.updated);
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT' && err.body) {
        const body = err.body as { current?: AdminAccount; currentVersion?: number };
        if (body.current && typeof body.currentVersion === 'number') {
          setConflict({ current: body.current, version: body.currentVersion });
          return;
        }
      }
      handleSaveError(generic, err, checks, setError);
    }
  }

  const gone = live.error instanceof ApiError && live.error.status === 404;
  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o && !update.isPending) onDone();
        }}
        title={F.editTitle}
        size="lg"
        footer={<Footer formId={formId} busy={update.isPending} canSave={checks.passed && !gone} onCancel={onDone} />}
      >
        <Form form={form} onSubmit={onSubmit} id={formId}>
          <AccountFields
            usernameState={checks.usernameCheck.state}
            emailState={checks.emailCheck.state}
            editing
            lockedRole={account.role}
            passwordHint={<p className="mt-1 text-xs text-slate-500">{F.keepPasswordHint}</p>}
          />
          <AccountReauth form={generic} account={account} />
          <SaveError message={gone ? M.saveError(live.error?.message ?? '') : error} />
        </Form>
      </Dialog>
      <ConflictDialog
        open={conflict !== null}
        onOpenChange={(o) => {
          if (!o) setConflict(null);
        }}
        onReload={() => {
          if (conflict) form.reset(formValues(conflict.current), { keepDirtyValues: true });
          setConflict(null);
        }}
        onOverwrite={() => {
          if (conflict) form.setValue('version', conflict.version);
          setConflict(null);
          void form.handleSubmit(onSubmit)();
        }}
      />
    </>
  );
}
