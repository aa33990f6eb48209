import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountCreateInput,
  AccountInviteInput,
  AccountList,
  AccountUpdateFormValues,
  AdminAccount,
  InvitationResult,
  ReauthInput,
} from '../../../common/schemas/accounts';
import { api } from '../../lib/api';

// Keys start with 'accounts': the live stream refreshes them after every change to an account.
export const accountKeys = {
  all: ['accounts'] as const,
  list: (q: string, page: number) => ['accounts', 'list', { q, page }] as const,
  detail: (id: string) => ['accounts', 'detail', id] as const,
};

export function useAccountList(q: string, page: number) {
  return useQuery({
    queryKey: accountKeys.list(q, page),
    queryFn: () => api<AccountList>(`/api/accounts?${new URLSearchParams({ q, page: String(page) })}`),
    placeholderData: keepPreviousData,
  });
}

/** One account, live: the edit form follows changes made elsewhere (keeping touched fields). */
export function useAccount(account: AdminAccount | null) {
  return useQuery({
    queryKey: accountKeys.detail(account?.id ?? ''),
    queryFn: () => api<AdminAccount>(`/api/accounts/${encodeURIComponent(account!.id)}`),
    enabled: account !== null,
    initialData: account ?? undefined,
    staleTime: 0,
  });
}

export function checkAvailability(field: 'username' | 'email', value: string, excludeId: string | undefined, signal: AbortSignal) {
  const params = new URLSearchParams({ field, value, ...(excludeId ? { excludeId } : {}) });
  return api<{ available: boolean }>(`/api/accounts/availability?${params}`, { signal });
}

function useAccountMutation<TVars, TData = unknown>(fn: (vars: TVars) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useCreateAccount() {
  return useAccountMutation((body: AccountCreateInput) => api<AdminAccount>('/api/accounts', { method: 'POST', body }));
}

/** Add New Admin with an invitation: the answer holds the link when the server sends no email. */
export function useInviteAccount() {
  return useAccountMutation((body: AccountInviteInput) => api<InvitationResult>('/api/accounts/invitations', { method: 'POST', body }));
}

export function useUpdateAccount() {
  return useAccountMutation(({ id, body }: { id: string; body: AccountUpdateFormValues }) =>
    api<AdminAccount>(`/api/accounts/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  );
}

export function useRestrictAccount() {
  return useAccountMutation(({ id, confirmName }: { id: string; confirmName: string }) =>
    api<AdminAccount>(`/api/accounts/${encodeURIComponent(id)}/restrict`, { method: 'POST', body: { confirmName } }),
  );
}

export function useUnrestrictAccount() {
  return useAccountMutation((id: string) => api<AdminAccount>(`/api/accounts/${encodeURIComponent(id)}/unrestrict`, { method: 'POST' }));
}

export function useDeleteAccount() {
  return useAccountMutation(({ id, confirmName }: { id: string; confirmName: string }) =>
    api<void>(`/api/accounts/${encodeURIComponent(id)}`, { method: 'DELETE', body: { confirmName } }),
  );
}

/** A super admin ends an account's sign-in lock; audited and mailed on the server. */
export function useUnlockAccount() {
  return useAccountMutation((id: string) => api<AdminAccount>(`/api/accounts/${encodeURIComponent(id)}/unlock`, { method: 'POST' }));
}

/** A new invitation link for an account without a password; the old link stops working. */
export function useReinviteAccount() {
  return useAccountMutation(({ id, proof }: { id: string; proof: ReauthInput }) =>
    api<InvitationResult>(`/api/accounts/${encodeURIComponent(id)}/invitation`, { method: 'POST', body: proof }),
  );
}

/** A super admin removes another admin's second factor (lost phone); audited on the server. */
export function useResetSecondFactor() {
  return useAccountMutation(({ id, proof }: { id: string; proof: ReauthInput }) =>
    api<AdminAccount>(`/api/accounts/${encodeURIComponent(id)}/second-factor/reset`, { method: 'POST', body: proof }),
  );
}
