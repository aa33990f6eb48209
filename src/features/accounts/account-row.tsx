import { Ban, KeyRound, LockOpen, MailPlus, MonitorSmartphone, Pencil, ShieldCheck, Trash2 } from 'lucide-react';
import { ACCOUNTS, type AccountDisplayStatus } from '../../../common/accounts';
import { manilaShortDate, manilaTime } from '../../../common/manila-time';
import type { AdminAccount } from '../../../common/schemas/accounts';
import { SESSIONS } from '../../../common/sessions';
import { SHELL } from '../../../common/texts';
import { SECOND_FACTOR } from '../../../common/second-factor';
import { cn } from '../../components/ui/cn';
import { Cell, pinnedCell, stackedRow } from '../../components/ui/table-frame';

const C = ACCOUNTS.columns;

/** A date in Philippine time; with `withTime` the time goes on a second, smaller line. */
function When({ iso, withTime }: { iso: string | null; withTime?: boolean }) {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return <span className="text-slate-400">{ACCOUNTS.never}</span>;
  return (
    <time dateTime={iso!} className="block leading-tight">
      {manilaShortDate(d)}
      {withTime && <span className="block text-xs text-slate-500">{manilaTime(d)}</span>}
    </time>
  );
}

const STATUS_STYLE: Record<AccountDisplayStatus, string> = {
  active: 'bg-green-100 text-green-800 ring-green-600/20',
  restricted: 'bg-red-100 text-red-800 ring-red-600/20',
  inactive: 'bg-amber-100 text-amber-800 ring-amber-600/20',
};

function StatusBadge({ status }: { status: AccountDisplayStatus }) {
  return (
    <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_STYLE[status])}>
      {ACCOUNTS.status[status]}
    </span>
  );
}

function RoleBadge({ role }: { role: AdminAccount['role'] }) {
  return (
    <span
      className={cn(
        'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium',
        role === 'SYSTEM_ADMIN' ? 'bg-brand-100 text-brand-800' : 'bg-slate-100 text-slate-700',
      )}
    >
      {SHELL.roleLabel[role]}
    </span>
  );
}

/**
 * A row action: an icon with a tooltip on wide screens, an icon and its word on phones (the
 * row is a card there). Its name says what it does and to which account.
 */
function ActionButton({
  label,
  name,
  icon: Icon,
  onClick,
  tone = 'default',
  disabled,
}: {
  label: string;
  /** The button's accessible name and tooltip. */
  name: string;
  icon: typeof Pencil;
  onClick(): void;
  tone?: 'default' | 'danger' | 'warn' | 'ok';
  disabled?: boolean;
}) {
  const tones = {
    default: 'text-slate-700 hover:bg-slate-100',
    danger: 'text-red-700 hover:bg-red-50',
    warn: 'text-amber-700 hover:bg-amber-50',
    ok: 'text-green-700 hover:bg-green-50',
  };
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={name}
      title={name}
      className={cn(
        'inline-flex h-7 w-7 items-center justify-center gap-1.5 rounded-md transition-colors ' +
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ' +
          'disabled:cursor-not-allowed disabled:opacity-50 ' +
          'max-sm:h-9 max-sm:w-auto max-sm:border max-sm:border-slate-200 max-sm:px-2.5 max-sm:text-sm max-sm:font-medium',
        tones[tone],
      )}
    >
      <Icon className="h-4 w-4 shrink-0" aria-hidden />
      <span className="sm:hidden" aria-hidden>
        {label}
      </span>
    </button>
  );
}

interface RowActions {
  onEdit(): void;
  onUnrestrict(): void;
  onRestrict(): void;
  onResetFactor(): void;
  onUnlock(): void;
  onReinvite(): void;
  onSessions(): void;
  onDelete(): void;
}

/** One account in the list, with the actions allowed on it (none but Edit on one's own). */
export function AccountRow({
  account: a,
  self,
  unrestricting,
  onEdit,
  onUnrestrict,
  onRestrict,
  onResetFactor,
  onUnlock,
  onReinvite,
  onSessions,
  onDelete,
}: { account: AdminAccount; self: boolean; unrestricting: boolean } & RowActions) {
  const on = (action: string) => ACCOUNTS.actionOn(action, a.fullname);
  return (
    <tr className={cn(stackedRow, 'hover:bg-slate-50/60')} data-testid="account-row" data-username={a.username}>
      <Cell
        label={C.fullname}
        main
        className="min-w-[9rem] px-2.5 font-medium text-slate-900 max-sm:flex-wrap max-sm:items-center max-sm:gap-y-1"
      >
        <span>
          {a.fullname}
          {self && <span className="ml-1 text-xs font-normal text-slate-500">{ACCOUNTS.you}</span>}
        </span>
        {a.needsPassword && (
          <span
            className="ml-1.5 rounded bg-amber-50 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-amber-800"
            data-testid="account-no-password"
            title={ACCOUNTS.noPasswordHint}
          >
            {ACCOUNTS.noPasswordBadge}
          </span>
        )}
        {a.signInLockedUntil && (
          <span
            className="ml-1.5 rounded bg-red-50 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-red-700"
            data-testid="account-locked"
            title={ACCOUNTS.lockedUntil(`${manilaShortDate(new Date(a.signInLockedUntil))} ${manilaTime(new Date(a.signInLockedUntil))}`)}
          >
            {ACCOUNTS.lockedBadge}
          </span>
        )}
        {a.hasSecondFactor && (
          <span
            className="ml-1.5 rounded bg-indigo-50 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-indigo-700"
            title={SECOND_FACTOR.section}
          >
            {SECOND_FACTOR.badge}
          </span>
        )}
      </Cell>
      <Cell label={C.email} className="px-2.5 text-slate-700">
        <span className="block max-w-[11rem] truncate max-sm:min-w-0 max-sm:max-w-none" title={a.email ?? undefined}>
          {a.email ?? ACCOUNTS.never}
        </span>
      </Cell>
      <Cell label={C.username} className="whitespace-nowrap px-2.5 text-slate-700 max-sm:whitespace-normal max-sm:break-all">
        {a.username}
      </Cell>
      <Cell label={C.role} className="whitespace-nowrap px-2.5">
        <RoleBadge role={a.role} />
      </Cell>
      <Cell label={C.status} className="whitespace-nowrap px-2.5" data-testid="account-status">
        <StatusBadge status={a.displayStatus} />
      </Cell>
      <Cell label={C.createdAt} className="whitespace-nowrap px-2.5 text-slate-600">
        <When iso={a.createdAt} />
      </Cell>
      <Cell label={C.lastLogin} className="whitespace-nowrap px-2.5 text-slate-600">
        <When iso={a.lastLogin} withTime />
      </Cell>
      <Cell label={C.action} className={cn('whitespace-nowrap px-2.5 py-2 max-sm:pt-2.5 max-sm:before:hidden', pinnedCell)}>
        <div className="flex items-center gap-0.5 max-sm:flex-wrap max-sm:gap-2">
          <ActionButton label={ACCOUNTS.actions.edit} name={on(ACCOUNTS.actions.edit)} icon={Pencil} onClick={onEdit} />
          {!self &&
            (a.displayStatus === 'restricted' ? (
              <ActionButton
                label={ACCOUNTS.actions.unrestrict}
                name={on(ACCOUNTS.actions.unrestrict)}
                icon={ShieldCheck}
                tone="ok"
                onClick={onUnrestrict}
                disabled={unrestricting}
              />
            ) : (
              <ActionButton
                label={ACCOUNTS.actions.restrict}
                name={on(ACCOUNTS.actions.restrict)}
                icon={Ban}
                tone="warn"
                onClick={onRestrict}
              />
            ))}
          {!self && a.needsPassword && (
            <ActionButton label={ACCOUNTS.actions.reinvite} name={on(ACCOUNTS.actions.reinvite)} icon={MailPlus} onClick={onReinvite} />
          )}
          {!self && a.signInLockedUntil && (
            <ActionButton label={ACCOUNTS.actions.unlock} name={on(ACCOUNTS.actions.unlock)} icon={LockOpen} tone="ok" onClick={onUnlock} />
          )}
          {!self && a.hasSecondFactor && (
            <ActionButton label={SECOND_FACTOR.reset} name={on(SECOND_FACTOR.reset)} icon={KeyRound} tone="warn" onClick={onResetFactor} />
          )}
          {!self && (
            <ActionButton
              label={ACCOUNTS.actions.sessions}
              name={SESSIONS.viewSessionsLabel(a.fullname)}
              icon={MonitorSmartphone}
              onClick={onSessions}
            />
          )}
          {!self && (
            <ActionButton
              label={ACCOUNTS.actions.delete}
              name={on(ACCOUNTS.actions.delete)}
              icon={Trash2}
              tone="danger"
              onClick={onDelete}
            />
          )}
        </div>
      </Cell>
    </tr>
  );
}
