import { useId, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Check, Loader2, X } from 'lucide-react';
import { ACCOUNTS, roleAbilities } from '../../../common/accounts';
import { PasswordChecklist } from '../../components/ui/password-checklist';
import { ROLES, type Role } from '../../../common/permissions';
import { SHELL } from '../../../common/texts';
import { cn } from '../../components/ui/cn';
import { TextField } from '../../components/ui/form';
import type { AvailabilityState } from './use-availability';

const F = ACCOUNTS.form;
const M = ACCOUNTS.messages;
const I = ACCOUNTS.invite;

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

/** What the chosen role can and cannot do, in plain words from the role table (common/accounts.ts). */
export function RoleAbilities({ role }: { role: Role }) {
  const { can, cannot } = roleAbilities(role);
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="role-abilities" aria-live="polite">
      <p className="font-medium text-slate-800">{I.abilitiesTitle(SHELL.roleLabel[role])}</p>
      <ul className="mt-1.5 space-y-1 text-slate-700">
        {can.map((line) => (
          <li key={line} className="flex gap-1.5">
            <Check className="mt-0.5 h-4 w-4 shrink-0 text-green-700" aria-hidden />
            <span>{line}</span>
          </li>
        ))}
      </ul>
      {cannot.length > 0 && (
        <>
          <p className="mt-2 font-medium text-slate-800">{I.cannotTitle}</p>
          <ul className="mt-1 space-y-1 text-slate-600">
            {cannot.map((line) => (
              <li key={line} className="flex gap-1.5">
                <X className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" aria-hidden />
                <span>{line}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Add New Admin's choice: a password typed here, or an invitation link the new admin sets one with. */
export function PasswordMethod() {
  const { register } = useFormContext();
  const options = [
    { value: 'password', label: I.typed, hint: I.typedHint },
    { value: 'invite', label: I.byLink, hint: I.byLinkHint },
  ] as const;
  return (
    <fieldset className="sm:col-span-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">{I.methodLegend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label
            key={o.value}
            className="flex cursor-pointer gap-2 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input type="radio" value={o.value} className="mt-0.5 accent-brand-700" {...register('method')} />
            <span>
              <span className="block font-medium text-slate-800">{o.label}</span>
              <span className="block text-xs text-slate-600">{o.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Full name, email, username, password (with its checklist) and role, shared by add and edit. */
export function AccountFields({
  usernameState,
  emailState,
  editing,
  lockedRole,
  passwordHint,
  invite,
}: {
  usernameState: AvailabilityState;
  emailState: AvailabilityState;
  editing: boolean;
  lockedRole?: Role;
  passwordHint?: ReactNode;
  /** Add New Admin offers the choice of an invitation; with it chosen, no password is typed. */
  invite?: 'password' | 'invite';
}) {
  const password = (useWatch({ name: 'password' }) as string | undefined) ?? '';
  const chosenRole = (useWatch({ name: 'role' }) as Role | undefined) ?? 'ADMIN';
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
      {invite && <PasswordMethod />}
      {invite !== 'invite' && (
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
      )}
      <div className="sm:col-span-2 sm:w-1/2 sm:pr-2">
        <RoleSelect {...(lockedRole ? { lockedRole } : {})} />
      </div>
      <div className="sm:col-span-2">
        <RoleAbilities role={lockedRole ?? chosenRole} />
      </div>
    </div>
  );
}
