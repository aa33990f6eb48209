import { Ban, KeyRound, LockOpen, MonitorSmartphone, Pencil, ShieldCheck, Trash2 } from 'lucide-react';
import { ACCOUNTS, type AccountDisplayStatus } from '../../../common/accounts';
import { manilaShortDate, manilaTime } from '../../../common/manila-time';
import type { AdminAccount } from '../../../common/schemas/accounts';
import { SESSIONS } from '../../../common/sessions';
import { SHELL } from '../../../common/texts';
import { SECOND_FACTOR } from '../../../common/second-factor';
import { cn } from '../../components/ui/cn';

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

function ActionButton({
  label,
  icon: Icon,
  onClick,
  tone = 'default',
  disabled,
}: {
  label: string;
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
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex h-7 w-7 items-center justify-center rounded-md transition-colors ' +
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ' +
          'disabled:cursor-not-allowed disabled:opacity-50',
        tones[tone],
      )}
    >
      <Icon className="h-4 w-4" aria-hidden />
    </button>
  );
}

interface RowActions {
  onEdit(): void;
  onUnrestrict(): void;
  onRestrict(): void;
  onResetFactor(): void;
  onUnlock(): void;
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
  onSessions,
  onDelete,
}: { account: AdminAccount; self: boolean; unrestricting: boolean } & RowActions) {
  return (
    <tr className="hover:bg-slate-50/60" data-testid="account-row" data-username={a.username}>
      <td className="min-w-[9rem] px-2.5 py-3 font-medium text-slate-900">
        {a.fullname}
        {self && <span className="ml-1 text-xs font-normal text-slate-500">{ACCOUNTS.you}</span>}
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
      </td>
      <td className="px-2.5 py-3 text-slate-700">
        <span className="block max-w-[13rem] truncate" title={a.email ?? undefined}>
          {a.email ?? ACCOUNTS.never}
        </span>
      </td>
      <td className="whitespace-nowrap px-2.5 py-3 text-slate-700">{a.username}</td>
      <td className="whitespace-nowrap px-2.5 py-3">
        <RoleBadge role={a.role} />
      </td>
      <td className="whitespace-nowrap px-2.5 py-3" data-testid="account-status">
        <StatusBadge status={a.displayStatus} />
      </td>
      <td className="whitespace-nowrap px-2.5 py-3 text-slate-600">
        <When iso={a.createdAt} />
      </td>
      <td className="whitespace-nowrap px-2.5 py-3 text-slate-600">
        <When iso={a.lastLogin} withTime />
      </td>
      <td className="whitespace-nowrap px-2.5 py-2">
        <div className="flex items-center gap-0.5">
          <ActionButton label={ACCOUNTS.actions.edit} icon={Pencil} onClick={onEdit} />
          {!self &&
            (a.displayStatus === 'restricted' ? (
              <ActionButton
                label={ACCOUNTS.actions.unrestrict}
                icon={ShieldCheck}
                tone="ok"
                onClick={onUnrestrict}
                disabled={unrestricting}
              />
            ) : (
              <ActionButton label={ACCOUNTS.actions.restrict} icon={Ban} tone="warn" onClick={onRestrict} />
            ))}
          {!self && a.signInLockedUntil && <ActionButton label={ACCOUNTS.actions.unlock} icon={LockOpen} tone="ok" onClick={onUnlock} />}
          {!self && a.hasSecondFactor && <ActionButton label={SECOND_FACTOR.reset} icon={KeyRound} tone="warn" onClick={onResetFactor} />}
          {!self && <ActionButton label={SESSIONS.viewSessionsLabel(a.fullname)} icon={MonitorSmartphone} onClick={onSessions} />}
          {!self && <ActionButton label={ACCOUNTS.actions.delete} icon={Trash2} tone="danger" onClick={onDelete} />}
        </div>
      </td>
    </tr>
  );
}
