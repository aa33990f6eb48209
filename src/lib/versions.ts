import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VersionCompare, VersionList, VersionRestoreInput, VersionRestoreResult } from '../../common/schemas/versions';
import { VERSION_API_BASE, type VersionCollection } from '../../common/versions';
import { api } from './api';
import type { Saved } from './review';

// Keys start with the collection's live topic: a save anywhere refreshes the panel.
export const versionKeys = {
  list: (collection: VersionCollection, id: string) => [collection, 'versions', id] as const,
  compare: (collection: VersionCollection, id: string, from: number, to: number) =>
    [collection, 'versions', id, 'compare', from, to] as const,
};

const basePath = (collection: VersionCollection, id: string) => `${VERSION_API_BASE[collection]}/${encodeURIComponent(id)}/versions`;

/** A record's versions, newest first, a page at a time. */
export function useVersions(collection: VersionCollection, id: string) {
  return useInfiniteQuery({
    queryKey: versionKeys.list(collection, id),
    queryFn: ({ pageParam, signal }) =>
      api<VersionList>(`${basePath(collection, id)}${pageParam ? `?before=${pageParam}` : ''}`, { signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    staleTime: 0,
  });
}

export function useVersionCompare(collection: VersionCollection, id: string, pair: { from: number; to: number } | null) {
  return useQuery({
    queryKey: versionKeys.compare(collection, id, pair?.from ?? 0, pair?.to ?? 0),
    queryFn: ({ signal }) => api<VersionCompare>(`${basePath(collection, id)}/compare?from=${pair!.from}&to=${pair!.to}`, { signal }),
    enabled: pair !== null && pair.from !== pair.to,
    staleTime: 60_000,
  });
}

export function useRestoreVersion(collection: VersionCollection, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ number, input }: { number: number; input: VersionRestoreInput }) =>
      api<Saved<VersionRestoreResult>>(`${basePath(collection, id)}/${number}/restore`, { method: 'POST', body: input }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [collection] });
    },
  });
}
