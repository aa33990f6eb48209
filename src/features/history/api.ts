import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { HISTORY_LIMITS } from '../../../common/history';
import type { HistoryCount, HistoryDetail, HistoryFilters, HistoryPage, HistoryUsers } from '../../../common/schemas/history';
import { api, ApiError } from '../../lib/api';

/** The filters as the API's (and the screen's) query string; defaults are left out. */
export function filtersToParams(filters: HistoryFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (filters.range !== 'all') p.set('range', filters.range);
  if (filters.range === 'custom') {
    if (filters.from) p.set('from', filters.from);
    if (filters.to) p.set('to', filters.to);
  }
  if (filters.action) p.set('action', filters.action);
  if (filters.collection) p.set('collection', filters.collection);
  if (filters.user) p.set('user', filters.user);
  if (filters.q) p.set('q', filters.q);
  return p;
}

// Keys start with 'audit_logs': the live stream refreshes them after every change, including
// an entry with no change of its own (a blocked login is announced as topic 'audit_logs').
/** A custom range with neither date yet: nothing to ask the server until one is chosen. */
export const awaitingDates = (filters: HistoryFilters): boolean => filters.range === 'custom' && !filters.from && !filters.to;

export function useHistoryPages(filters: HistoryFilters) {
  const params = filtersToParams(filters).toString();
  return useInfiniteQuery({
    enabled: !awaitingDates(filters),
    queryKey: ['audit_logs', 'list', params],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const p = new URLSearchParams(params);
      p.set('limit', String(HISTORY_LIMITS.pageSize));
      if (pageParam) p.set('cursor', pageParam);
      return api<HistoryPage>(`/api/history?${p}`, { signal });
    },
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });
}

export function useHistoryCount(filters: HistoryFilters) {
  const params = filtersToParams(filters).toString();
  return useQuery({
    queryKey: ['audit_logs', 'count', params],
    enabled: !awaitingDates(filters),
    queryFn: ({ signal }) => api<HistoryCount>(`/api/history/count?${params}`, { signal }),
    staleTime: 0,
  });
}

export function useHistoryEntry(id: string | null) {
  return useQuery({
    queryKey: ['audit_logs', 'entry', id],
    queryFn: ({ signal }) => api<HistoryDetail>(`/api/history/${encodeURIComponent(id!)}`, { signal }),
    enabled: id !== null,
  });
}

export function useHistoryUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['accounts', 'history-users'],
    queryFn: async () => (await api<HistoryUsers>('/api/history/users')).items,
    enabled,
    staleTime: 60_000,
  });
}

export interface ExportProgress {
  bytes: number;
  rows: number;
}

/**
 * Downloads the CSV the server streams: the body is read chunk by chunk (rows counted as
 * they arrive, for the progress bar), then saved through a Blob URL under the server's
 * file name (history-logs-{date}.csv).
 */
export async function downloadCsv(
  filters: HistoryFilters,
  onProgress: (p: ExportProgress) => void,
  signal: AbortSignal,
): Promise<{ fileName: string; rows: number }> {
  const response = await fetch(`/api/history/export.csv?${filtersToParams(filters)}`, { credentials: 'same-origin', signal });
  if (!response.ok || !response.body) {
    let message = 'Export failed.';
    try {
      message = ((await response.json()) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      /* keep */
    }
    throw new ApiError(response.status, 'EXPORT_FAILED', message);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'history-logs.csv';
  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let bytes = 0;
  let newlines = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
    const now = performance.now();
    if (now - lastReport > 100) {
      lastReport = now;
      onProgress({ bytes, rows: Math.max(0, newlines - 1) });
    }
  }
  const rows = Math.max(0, newlines - 1);
  onProgress({ bytes, rows });
  const url = URL.createObjectURL(new Blob(chunks, { type: 'text/csv;charset=utf-8' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return { fileName, rows };
}
