import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewCollection } from '../../common/review';
import type {
  ApproveInput,
  PendingChange,
  PendingChangeDetail,
  ReviewCount,
  ReviewList,
  ReviewListQuery,
  ReviewNext,
  ReviewSettings,
  Submitted,
} from '../../common/schemas/review';
import { api } from './api';

/**
 * Review before publishing (server/modules/publishing/review): one hook per endpoint. Every key starts with
 * the live topic 'review', so any change to the queue anywhere refreshes what is shown.
 */
export const reviewKeys = {
  all: ['review'] as const,
  settings: ['review', 'settings'] as const,
  count: ['review', 'count'] as const,
  list: (query: ReviewFilter) => ['review', 'changes', query] as const,
  detail: (id: string) => ['review', 'change', id] as const,
};

/** The list's query as the screens give it (the server's defaults fill the rest). */
export type ReviewFilter = Partial<Pick<ReviewListQuery, 'state' | 'collection' | 'recordId' | 'mine' | 'limit'>>;

/** What a reviewed save answers: its usual body, or (HTTP 202) the pending change it became. */
export type Saved<T> = T | Submitted;

/**
 * The pending change a save became, when its collection's changes need review: the route
 * answered 202 with `{review, message}` instead of its usual body (api() and sendForm() give any
 * 2xx body to their caller). null for a save that was applied.
 */
export function sentForReview(result: unknown): Submitted | null {
  if (typeof result !== 'object' || result === null) return null;
  const { review, message } = result as Partial<Submitted>;
  return typeof message === 'string' &&
    typeof review === 'object' &&
    review !== null &&
    typeof review.id === 'string' &&
    typeof review.state === 'string'
    ? (result as Submitted)
    : null;
}

/** Which collections' changes need review (File Maintenance's switches). */
export function useReviewSettings(enabled = true) {
  return useQuery({
    queryKey: reviewKeys.settings,
    queryFn: ({ signal }) => api<ReviewSettings>('/api/review/settings', { signal }),
    enabled,
    staleTime: 0,
  });
}

export function useSetReviewSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ collection, enabled }: { collection: ReviewCollection; enabled: boolean }) =>
      api<ReviewSettings>(`/api/review/settings/${collection}`, { method: 'PUT', body: { enabled } }),
    onSuccess: (settings) => {
      queryClient.setQueryData(reviewKeys.settings, settings);
    },
  });
}

function listUrl(query: ReviewFilter, after: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  if (after) params.set('after', after);
  return `/api/review/changes?${params}`;
}

/** Pending changes, oldest first, a keyset page at a time ("Load more" asks for `next`). */
export function useReviewChanges(query: ReviewFilter, enabled = true) {
  return useInfiniteQuery({
    queryKey: reviewKeys.list(query),
    queryFn: ({ pageParam, signal }) => api<ReviewList>(listUrl(query, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
    staleTime: 0,
  });
}

/** How many changes wait for this account's review, and how many of its own came back. */
export function useReviewCount() {
  return useQuery({
    queryKey: reviewKeys.count,
    queryFn: ({ signal }) => api<ReviewCount>('/api/review/count', { signal }),
    staleTime: 60_000,
  });
}

/** One change: compared, previewed, and what this account may do with it. */
export function useReviewChange(id: string) {
  return useQuery({
    queryKey: reviewKeys.detail(id),
    queryFn: ({ signal }) => api<PendingChangeDetail>(`/api/review/changes/${encodeURIComponent(id)}`, { signal }),
    staleTime: 0,
  });
}

/** The decisions on a change; each names the change's version it was made on. */
export type ReviewDecision =
  | { action: 'approve'; body: ApproveInput }
  | { action: 'reject'; body: { version: number; comment: string } }
  | { action: 'publish'; body: { version: number; reason?: string } }
  | { action: 'schedule'; body: { version: number; publishAt: string | null } }
  | { action: 'withdraw' | 'rebase'; body: { version: number } };

export function useReviewDecision(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, body }: ReviewDecision) =>
      api<PendingChangeDetail>(`/api/review/changes/${encodeURIComponent(id)}/${action}`, { method: 'POST', body }),
    onSuccess: (detail) => {
      queryClient.setQueryData(reviewKeys.detail(id), detail);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all, predicate: (q) => q.queryKey[1] !== 'change' });
    },
    // A refusal (409: moved, or the record moved) shows the change as it is now.
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.detail(id) });
    },
  });
}

/** The next change waiting for this reviewer after `after` (never their own), or null when none is left. */
export function nextChange(after: string): Promise<ReviewNext> {
  return api<ReviewNext>(`/api/review/next?after=${encodeURIComponent(after)}`);
}

/** A record's open change, and the collection's new entries waiting, for the lists' badges. */
export interface OpenChanges {
  byRecord: Map<string, PendingChange>;
  newCount: number;
}

export function openChangesOf(list: ReviewList | undefined): OpenChanges {
  const byRecord = new Map<string, PendingChange>();
  let newCount = 0;
  for (const change of list?.items ?? []) {
    if (change.recordId) byRecord.set(change.recordId, change);
    else if (change.action === 'create' && change.state === 'pending') newCount += 1;
  }
  return { byRecord, newCount };
}
