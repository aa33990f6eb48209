import type { ChangeEvent } from './live';

// The session provider lives in the login bundle; the query cache does not (lib/query-client.tsx).
// Before the signed-in screens have loaded it there is nothing cached to clear or refresh.
const cache = () => import('./query-client').then((m) => m.queryClient);

/** Signed out: nothing of the previous user stays in memory. */
export function clearQueries(): void {
  void cache().then((client) => client.clear());
}

/** A live event: refresh the queries it concerns (topic '*': everything, after a reconnect). */
export function refreshQueriesFor(event: ChangeEvent): void {
  void cache().then((client) =>
    client.invalidateQueries({
      predicate: (q) =>
        event.topic === '*' ||
        q.queryKey[0] === event.topic ||
        (q.queryKey[0] === 'dashboard' && event.topic !== 'scan_reports') ||
        q.queryKey[0] === 'audit_logs',
    }),
  );
}
