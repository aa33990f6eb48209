import { useCallback, useEffect, useState } from 'react';
import { Plus } from 'lucide-react';
import { ACCOUNTS } from '../../../common/accounts';
import type { AdminAccount } from '../../../common/schemas/accounts';
import { SESSIONS } from '../../../common/sessions';
import { SessionsList } from '../../components/sessions/sessions-list';
import { Button } from '../../components/ui/button';
import { ConfirmByTyping } from '../../components/ui/confirm-by-typing';
import { Dialog } from '../../components/ui/dialog';
import { ExportMenu } from '../../components/ui/export-menu';
import { PageHeader } from '../../components/ui/page-header';
import { TableFrame } from '../../components/ui/table-frame';
import { Pagination } from '../../components/ui/pagination';
import { SearchInput } from '../../components/ui/search-input';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { CreateAccountDialog, EditAccountDialog } from './account-form-dialog';
import { AccountRow } from './account-row';
import { useAccountList, useDeleteAccount, useRestrictAccount, useUnlockAccount, useUnrestrictAccount } from './api';
import { ReinviteDialog } from './reinvite-dialog';
import { ResetSecondFactorDialog } from './reset-second-factor-dialog';

const C = ACCOUNTS.columns;
const M = ACCOUNTS.messages;
const K = ACCOUNTS.confirm;

/** Admin accounts (docs/PRODUCT.md section 2), for super admins: the router guards it with accounts.manage. */
export function AccountsPage() {
  const { session } = useSession();
  const toast = useToast();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const list = useAccountList(q, page);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AdminAccount | null>(null);
  const [restricting, setRestricting] = useState<AdminAccount | null>(null);
  const [deleting, setDeleting] = useState<AdminAccount | null>(null);
  const [undeletable, setUndeletable] = useState<AdminAccount | null>(null);
  const [sessionsOf, setSessionsOf] = useState<AdminAccount | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [resetting, setResetting] = useState<AdminAccount | null>(null);
  const [reinviting, setReinviting] = useState<AdminAccount | null>(null);
  const restrict = useRestrictAccount();
  const unrestrict = useUnrestrictAccount();
  const unlock = useUnlockAccount();
  const remove = useDeleteAccount();
  const me = session?.user.id;

  // The server clamps a page past the end (after deletes elsewhere); follow it.
  const served = list.data?.page;
  useEffect(() => {
    if (served !== undefined && served !== page && !list.isPlaceholderData) setPage(served);
  }, [served, page, list.isPlaceholderData]);

  const onSearch = useCallback((value: string) => {
    setQ(value.trim());
    setPage(1);
  }, []);

  function openRestrict(account: AdminAccount) {
    setActionError(null);
    setUndeletable(null);
    setRestricting(account);
  }

  function openDelete(account: AdminAccount) {
    setActionError(null);
    if (account.hasActivities) setUndeletable(account);
    else setDeleting(account);
  }

  async function confirmRestrict() {
    if (!restricting) return;
    try {
      await restrict.mutateAsync({ id: restricting.id, confirmName: restricting.fullname });
      toast.show(M.restricted);
      setRestricting(null);
    } catch (err) {
      setActionError(M.restrictError((err as Error).message));
    }
  }

  async function doUnrestrict(account: AdminAccount) {
    try {
      await unrestrict.mutateAsync(account.id);
      toast.show(M.unrestricted);
    } catch (err) {
      toast.show(M.unrestrictError((err as Error).message), { tone: 'error', durationMs: 4000 });
    }
  }

  async function doUnlock(account: AdminAccount) {
    try {
      await unlock.mutateAsync(account.id);
      toast.show(M.unlocked);
    } catch (err) {
      toast.show(M.unlockError((err as Error).message), { tone: 'error', durationMs: 4000 });
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ id: deleting.id, confirmName: deleting.fullname });
      toast.show(M.deleted);
      setDeleting(null);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'has_activities') {
        setUndeletable(deleting);
        setDeleting(null);
        return;
      }
      setActionError(M.deleteError((err as Error).message));
    }
  }

  const items = list.data?.items ?? [];
  return (
    <div>
      <PageHeader
        title={ACCOUNTS.title}
        subtitle={ACCOUNTS.subtitle}
        actions={
          <>
            <SearchInput value={q} onChange={onSearch} placeholder={ACCOUNTS.searchPlaceholder} label={ACCOUNTS.searchLabel} />
            <ExportMenu url="/api/accounts/export" search={q.trim()} />
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden />
              {ACCOUNTS.addNew}
            </Button>
          </>
        }
      />

      <TableFrame
        columns={[C.fullname, C.email, C.username, C.role, C.status, C.createdAt, C.lastLogin, { label: C.action, pinned: true }]}
        dense
        stacked
        label={ACCOUNTS.title}
      >
        {list.isLoading ? (
          <tr>
            <td colSpan={8} className="px-3 py-10 text-center text-slate-500">
              <span className="inline-flex items-center gap-2">
                <Spinner className="h-5 w-5" label={ACCOUNTS.loading} />
                {ACCOUNTS.loading}
              </span>
            </td>
          </tr>
        ) : list.isError ? (
          <tr>
            <td colSpan={8} className="px-3 py-10 text-center text-red-600" role="alert">
              {list.error.message}
            </td>
          </tr>
        ) : items.length === 0 ? (
          <tr>
            <td colSpan={8} className="px-3 py-10 text-center text-slate-500">
              {ACCOUNTS.empty}
            </td>
          </tr>
        ) : (
          items.map((a) => (
            <AccountRow
              key={a.id}
              account={a}
              self={a.id === me}
              unrestricting={unrestrict.isPending}
              onEdit={() => setEditing(a)}
              onUnrestrict={() => void doUnrestrict(a)}
              onRestrict={() => openRestrict(a)}
              onResetFactor={() => setResetting(a)}
              onUnlock={() => void doUnlock(a)}
              onReinvite={() => setReinviting(a)}
              onSessions={() => setSessionsOf(a)}
              onDelete={() => openDelete(a)}
            />
          ))
        )}
      </TableFrame>
      {list.data && <Pagination page={list.data.page} pageCount={list.data.pageCount} onPageChange={setPage} />}

      <CreateAccountDialog open={creating} onOpenChange={setCreating} />
      <EditAccountDialog
        account={editing}
        onOpenChange={(o) => {
          if (!o) setEditing(null);
        }}
      />

      <ConfirmByTyping
        open={restricting !== null}
        onOpenChange={(o) => {
          if (!o) setRestricting(null);
        }}
        title={K.restrictTitle}
        description={restricting ? K.restrictBody(restricting.fullname) : ''}
        expected={restricting?.fullname ?? ''}
        trim
        mismatchText={M.nameMismatch}
        confirmLabel={K.restrictLabel}
        busyLabel={K.restricting}
        onConfirm={confirmRestrict}
        error={actionError}
      />

      <ConfirmByTyping
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title={K.deleteTitle}
        description={deleting ? K.deleteBody(deleting.fullname) : ''}
        expected={deleting?.fullname ?? ''}
        trim
        mismatchText={M.nameMismatch}
        confirmLabel={K.deleteLabel}
        busyLabel={K.deleting}
        onConfirm={confirmDelete}
        error={actionError}
      />

      <ResetSecondFactorDialog account={resetting} onClose={() => setResetting(null)} />
      <ReinviteDialog account={reinviting} onClose={() => setReinviting(null)} />

      <Dialog
        open={sessionsOf !== null}
        onOpenChange={(o) => {
          if (!o) setSessionsOf(null);
        }}
        title={sessionsOf ? SESSIONS.adminHeading(sessionsOf.fullname) : ''}
        size="md"
        footer={
          <Button variant="secondary" onClick={() => setSessionsOf(null)}>
            {K.close}
          </Button>
        }
      >
        {sessionsOf && <SessionsList scope={{ kind: 'account', accountId: sessionsOf.id }} />}
      </Dialog>

      <Dialog
        open={undeletable !== null}
        onOpenChange={(o) => {
          if (!o) setUndeletable(null);
        }}
        title={K.deleteTitle}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setUndeletable(null)}>
              {K.close}
            </Button>
            {undeletable && undeletable.displayStatus !== 'restricted' && (
              <Button variant="danger" onClick={() => openRestrict(undeletable)}>
                {K.restrictInstead}
              </Button>
            )}
          </>
        }
      >
        <p role="alert" className="font-medium text-red-700">
          {M.cannotDeleteHasActivities}
        </p>
        <p className="mt-2 text-sm text-slate-600">{K.cannotDeleteBody}</p>
      </Dialog>
    </div>
  );
}
