import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATALOG_LIMITS, type CatalogKind } from '../../../common/catalog';
import type {
  CatalogSort,
  CatalogCreateInput,
  CatalogEntryDetail,
  CatalogList,
  CatalogUpdateInput,
  PhotoMoved,
  PhotoMoveInput,
  PhotoSettings,
  StagedImage,
} from '../../../common/schemas/catalog';
import type { OptionLists } from '../../../common/schemas/maintenance';
import type { DatasetHealth } from '../../../common/schemas/dataset';
import { api } from '../../lib/api';
import { sentForReview, type Saved } from '../../lib/review';
import { sendForm } from '../../lib/upload';

// Keys start with the collection name: the live stream refreshes them after every change.
export const catalogKeys = {
  all: (kind: CatalogKind) => [kind.collection] as const,
  list: (kind: CatalogKind, search: string, order?: CatalogOrder) => [kind.collection, 'list', search, order ?? null] as const,
  detail: (kind: CatalogKind, id: string | null) => [kind.collection, 'detail', id] as const,
};

/** A list's order: newest first without one. */
export interface CatalogOrder {
  sort: CatalogSort;
  dir: 'asc' | 'desc';
}

/** Server-side search, newest first unless `order` says, in pages of 50 (docs/PRODUCT.md section 9). */
export function useCatalogList(kind: CatalogKind, search: string, order?: CatalogOrder) {
  return useInfiniteQuery({
    queryKey: catalogKeys.list(kind, search, order),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ offset: String(pageParam), limit: String(CATALOG_LIMITS.pageSize) });
      if (search.trim()) params.set('search', search.trim());
      if (order) {
        params.set('sort', order.sort);
        params.set('dir', order.dir);
      }
      return api<CatalogList>(`/api/${kind.route}?${params}`, { signal });
    },
    getNextPageParam: (last) => (last.offset + last.items.length < last.total ? last.offset + last.items.length : undefined),
  });
}

/** The managed Affected Parts list (File maintenance), for useOptionLists (lib/option-lists.ts). */
export const affectedPartsOf = (lists: OptionLists) => lists.diseases.affectedParts;

export function useCatalogEntry(kind: CatalogKind, id: string | null) {
  return useQuery({
    queryKey: catalogKeys.detail(kind, id),
    enabled: id !== null,
    queryFn: ({ signal }) => api<CatalogEntryDetail>(`/api/${kind.route}/${encodeURIComponent(id!)}`, { signal }),
  });
}

export function useSaveEntry(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: null; values: CatalogCreateInput } | { id: string; values: CatalogUpdateInput }) =>
      input.id === null
        ? api<Saved<CatalogEntryDetail>>(`/api/${kind.route}`, { method: 'POST', body: input.values })
        : api<Saved<CatalogEntryDetail>>(`/api/${kind.route}/${encodeURIComponent(input.id)}`, { method: 'PUT', body: input.values }),
    onSuccess: (saved) => {
      // Sent for review (202): the record stays as published.
      if (sentForReview(saved)) return;
      queryClient.setQueryData(catalogKeys.detail(kind, (saved as CatalogEntryDetail).id), saved);
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all(kind) });
    },
  });
}

export function useDeleteEntry(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Saved<void>>(`/api/${kind.route}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all(kind) });
    },
  });
}

/**
 * Moves one stored photo of an entry to a place in its order (0: the main photo), on the edit
 * version given; where the changes need review, the answer is the pending change (202).
 */
export function movePhoto(kind: CatalogKind, id: string, input: PhotoMoveInput): Promise<Saved<PhotoMoved>> {
  return api<Saved<PhotoMoved>>(`/api/${kind.route}/${encodeURIComponent(id)}/photos/move`, { method: 'POST', body: input });
}

/** Discards staged photos that will not be saved (best effort; the server cleans up after a day anyway). */
export async function discardStaged(kind: CatalogKind, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    await api(`/api/${kind.route}/images/discard`, { method: 'POST', body: { ids: ids.slice(i, i + 1000) } }).catch(() => undefined);
  }
}

/** Uploads one photo (progress per file); resolves with the staged image. */
export function uploadPhoto(
  kind: CatalogKind,
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
  keepOriginal = false,
): Promise<StagedImage> {
  const form = new FormData();
  form.append('file', file, file.name);
  return sendForm<StagedImage>(`/api/${kind.route}/images${keepOriginal ? '?keepOriginal=true' : ''}`, form, onProgress, signal);
}

export const photoSettingsQuery = {
  queryKey: ['photo-settings'] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) => api<PhotoSettings>('/api/photo-settings', signal ? { signal } : {}),
  staleTime: Infinity,
};

/** How photos are sized before they leave the browser (PHOTO_MAX_EDGE) and whether this account may keep originals. */
export function usePhotoSettings() {
  return useQuery(photoSettingsQuery);
}

/** The disease photos' health (super admins); refreshed live with every change of a disease or its photos. */
export function useDatasetHealth(pending = false) {
  return useQuery({
    queryKey: ['rice_local_diseases', 'dataset-health', pending],
    queryFn: ({ signal }) => api<DatasetHealth>(`/api/dataset-health${pending ? '?pending=true' : ''}`, { signal }),
    staleTime: 0,
  });
}

/**
 * Takes a photo out of its disease, or puts a removed one back (Dataset health); the screen
 * refreshes. Where the diseases' changes need review the answer is the pending change (202).
 */
export function usePhotoRemoval() {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['rice_local_diseases'] });
  };
  return {
    remove: useMutation({
      mutationFn: ({ imageId, diseaseId }: { imageId: string; diseaseId: string }) =>
        api<unknown>(`/api/dataset-health/photos/${encodeURIComponent(imageId)}/remove`, { method: 'POST', body: { diseaseId } }),
      onSuccess: refresh,
    }),
    putBack: useMutation({
      mutationFn: (imageId: string) =>
        api<unknown>(`/api/dataset-health/photos/${encodeURIComponent(imageId)}/put-back`, { method: 'POST' }),
      onSuccess: refresh,
    }),
  };
}
