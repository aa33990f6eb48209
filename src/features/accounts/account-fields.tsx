import { useId, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Check, Loader2, X } from 'lucide-react';
import { ACCOUNTS } from '../../../common/accounts';
import { PasswordChecklist } from '../../components/ui/password-checklist';
import { ROLES, type Role } from '../../../common/permissions';
import { SHELL } from '../../../common/texts';
import { cn } from '../../components/ui/cn';
import { TextField } from '../../components/ui/form';
import type { AvailabilityState } from './use-availability';

const F = ACCOUNTS.form;
const M = ACCOUNTS.messages;

const AVAILABILITY_TEXT: Record<'username' | 'email', Partial<Record<AvailabilityState, string>>> = {
  username: { available: M.usernameAvailable, taken: M.usernameTaken, error: M.usernameUnverified, checking: F.checking },
  email: { available: M.emailAvailable, taken: M.emailTaken, error: M.emailUnverified, checking: F.checking },
};

/** The uniqueness result under a field: green when free, red when taken, amber when the check failed. */
export function AvailabilityHint({ field, state }: { field: 'username' | 'email'; state: AvailabilityState }) {
  const text = AVAILABILITY_TEXT[field][state];
  if (!text) return null;
  const tone =
    state === 'available' ? 'text-green-700' : state === 'taken' ? 'text-red-600' : state === 'error' ? 'text-amber-700' : 'text-slate-500';
  return (
    <p
      className={cn('mt-1 flex items-center gap-1 text-sm', tone)}
      data-testid={`${field}-availability`}
      role={state === 'checking' ? undefined : 'status'}
    >
      {state === 'checking' && <Loader2 className="h-3.5 w-3.5 animate-spin" aria-hidden />}
      {state === 'available' && <Check className="h-3.5 w-3.5" aria-hidden />}
      {state === 'taken' && <X className="h-3.5 w-3.5" aria-hidden />}
      {text}
    </p>
  );
}

/** The role selector: a form field when adding, a disabled display of the current role when editing. */
export function RoleSelect({ lockedRole }: { lockedRole?: Role }) {
  const { register } = useFormContext();
  const id = useId();
  const common =
    'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm outline-none ' +
    'focus:border-brand-600 focus:ring-2 focus:ring-brand-100 disabled:cursor-not-allowed ' +
    'disabled:bg-slate-100 disabled:text-slate-500';
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {F.role}
      </label>
      {lockedRole ? (
        <>
          <select id={id} className={common} disabled value={lockedRole} aria-describedby={`${id}-hint`}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {SHELL.roleLabel[r]}
              </option>
            ))}
          </select>
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            {F.roleLockedHint}
          </p>
        </>
      ) : (
        <select id={id} className={common} {...register('role')}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {SHELL.roleLabel[r]}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

/** Full name, email, username, password (with its checklist) and role, shared by add and edit. */
export function AccountFields({
  usernameState,
  emailState,
  editing,
  lockedRole,
  passwordHint,
}: {
  usernameState: AvailabilityState;
  emailState: AvailabilityState;
  editing: boolean;
  lockedRole?: Role;
  passwordHint?: ReactNode;
}) {
  const password = (useWatch({ name: 'password' }) as string | undefined) ?? '';
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <TextField name="fullname" label={F.fullname} autoComplete="off" className="sm:col-span-2" />
      <TextField
        name="email"
        label={F.email}
        type="email"
        autoComplete="off"
        hint={<AvailabilityHint field="email" state={emailState} />}
      />
      <TextField name="username" label={F.username} autoComplete="off" hint={<AvailabilityHint field="username" state={usernameState} />} />
      <div className="sm:col-span-2">
        <TextField
          name="password"
          label={F.password}
          revealable
          autoComplete="new-password"
          hint={
            <>
              {passwordHint}
              {(!editing || password.length > 0) && <PasswordChecklist password={password} className="mt-2" />}
            </>
          }
        />
      </div>
      <div className="sm:col-span-2 sm:w-1/2 sm:pr-2">
        <RoleSelect {...(lockedRole ? { lockedRole } : {})} />
      </div>
    </div>
  );
}
