import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, Monitor } from 'lucide-react';
import { relativeTime } from '../../../common/activity';
import { fullDate } from '../../../common/history-dates';
import type { SessionList } from '../../../common/schemas/sessions';
import { SESSIONS } from '../../../common/sessions';
import { api } from '../../lib/api';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { useToast } from '../ui/toast';

/** Whose sessions: the signed-in user's own (Account Settings) or an account's (Accounts, super admin). */
export type SessionsScope = { kind: 'own' } | { kind: 'account'; accountId: string };

function paths(scope: SessionsScope) {
  if (scope.kind === 'own') {
    return {
      list: '/api/profile/sessions',
      one: (id: string) => `/api/profile/sessions/${encodeURIComponent(id)}`,
      bulk: '/api/profile/sessions/sign-out-others',
    };
  }
  const base = `/api/accounts/${encodeURIComponent(scope.accountId)}/sessions`;
  return { list: base, one: (id: string) => `${base}/${encodeURIComponent(id)}`, bulk: `${base}/sign-out-all` };
}

/** Open sessions (device, IP, signed in, last active; this one marked), with Sign out per session and for all the others. */
export function SessionsList({ scope }: { scope: SessionsScope }) {
  const p = paths(scope);
  const key = ['sessions', scope.kind === 'own' ? 'own' : scope.accountId] as const;
  const queryClient = useQueryClient();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => api<SessionList>(p.list, { signal }), staleTime: 0 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const endOne = useMutation({ mutationFn: (id: string) => api<void>(p.one(id), { method: 'DELETE' }), onSettled: refresh });
  const endMany = useMutation({ mutationFn: () => api<{ ended: number }>(p.bulk, { method: 'POST' }), onSettled: refresh });

  async function run(action: () => Promise<string>) {
    setError(null);
    try {
      toast.show(await action());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  const items = list.data?.items ?? [];
  const others = items.filter((s) => !s.current);
  const busy = endOne.isPending || endMany.isPending;
  return (
    <div data-testid="sessions-list">
      <p className="text-xs text-slate-500">{SESSIONS.intro}</p>
      {list.isPending ? (
        <div className="flex items-center gap-2 py-4 text-sm text-slate-500">
          <Spinner className="h-4 w-4" label="Loading" />
        </div>
      ) : items.length === 0 ? (
        <p className="py-3 text-sm text-slate-500">{SESSIONS.none}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {items.map((s) => (
            <li key={s.id} className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex min-w-0 items-start gap-3">
                <Monitor className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-800">
                    {s.device}
                    {s.current && (
                      <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">
                        {SESSIONS.thisSession}
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-slate-500">
                    {SESSIONS.ip}: {s.ip ?? SESSIONS.unknownIp} · {SESSIONS.signedIn}: {fullDate(s.signedInAt)} · {SESSIONS.lastActive}:{' '}
                    <span title={fullDate(s.lastActiveAt)}>{relativeTime(s.lastActiveAt)}</span>
                  </p>
                </div>
              </div>
              {!s.current && (
                <Button
                  size="sm"
                  variant="secondary"
                  className="shrink-0 self-start whitespace-nowrap sm:self-auto"
                  disabled={busy}
                  aria-label={SESSIONS.signOutLabel(s.device)}
                  onClick={() =>
                    void run(async () => {
                      await endOne.mutateAsync(s.id);
                      return SESSIONS.signedOutOne;
                    })
                  }
                >
                  <LogOut className="h-4 w-4" aria-hidden />
                  {SESSIONS.signOut}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <Button
          size="sm"
          variant="secondary"
          className="mt-3"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const { ended } = await endMany.mutateAsync();
              return scope.kind === 'own' ? SESSIONS.signedOutOthers(ended) : SESSIONS.signedOutAll(ended);
            })
          }
        >
          <LogOut className="h-4 w-4" aria-hidden />
          {scope.kind === 'own' ? SESSIONS.signOutEverywhereElse : SESSIONS.signOutAll}
        </Button>
      )}
      {error && (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
