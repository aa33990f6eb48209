import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OptionLists } from '../../../common/schemas/maintenance';
import type {
  IncompleteVarieties,
  Variety,
  VarietyInput,
  VarietyList,
  VarietyListQuery,
  VarietyNameTaken,
} from '../../../common/schemas/varieties';
import { VARIETY_TOPIC } from '../../../common/varieties';
import type { ImportMapping, ImportOnErrors, ImportPreview, ImportReport } from '../../../common/schemas/spreadsheets';
import { api } from '../../lib/api';
import { useNameTaken } from '../../lib/name-taken';
import { sentForReview, type Saved } from '../../lib/review';
import { sendForm } from '../../lib/upload';

// Keys start with the live topic: every change of a variety anywhere refreshes them.
export const varietyKeys = {
  all: [VARIETY_TOPIC] as const,
  list: (query: VarietyListParams) => [VARIETY_TOPIC, 'list', query] as const,
  detail: (id: string) => [VARIETY_TOPIC, 'detail', id] as const,
  incomplete: (page: number) => [VARIETY_TOPIC, 'incomplete', page] as const,
};

/** Another live variety named `name` (trimmed, any case), asked a moment after the typing stops. */
export const useVarietyNameTaken = (name: string, exceptId: string | null) =>
  useNameTaken<NonNullable<VarietyNameTaken['taken']>>(VARIETY_TOPIC, '/api/varieties/name-taken', name, exceptId);

/** Needs completing: live records that lack required fields (GET /api/varieties/incomplete). */
export function useIncompleteVarieties(page: number) {
  return useQuery({
    queryKey: varietyKeys.incomplete(page),
    queryFn: ({ signal }) => api<IncompleteVarieties>(`/api/varieties/incomplete?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** What the list asks for: the search, the page, the sort and the filters set (GET /api/varieties). */
export type VarietyListParams = { search: string; page: number } & Partial<
  Pick<VarietyListQuery, 'sort' | 'dir' | 'tarlac' | 'season' | 'environment' | 'year' | 'missing'>
>;

export function varietyListUrl(base: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  return `${base}?${params}`;
}

export function useVarieties(query: VarietyListParams) {
  return useQuery({
    queryKey: varietyKeys.list(query),
    queryFn: ({ signal }) => api<VarietyList>(varietyListUrl('/api/varieties', query), { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useVariety(id: string | null) {
  return useQuery({
    queryKey: varietyKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api<Variety>(`/api/varieties/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
    staleTime: 0,
  });
}

/** The variety lists of the option lists (File maintenance), for useOptionLists (lib/option-lists.ts). */
export const varietyListsOf = (lists: OptionLists) => lists.riceVarieties;

export interface SaveVarietyArgs {
  id: string | null;
  values: VarietyInput;
  version?: number;
}

export function useSaveVariety() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values, version }: SaveVarietyArgs) =>
      id
        ? api<Saved<Variety>>(`/api/varieties/${encodeURIComponent(id)}`, { method: 'PUT', body: { ...values, version } })
        : api<Saved<Variety>>('/api/varieties', { method: 'POST', body: values }),
    onSuccess: (saved) => {
      // Sent for review (202): the record stays as published.
      if (sentForReview(saved)) return;
      queryClient.setQueryData(varietyKeys.detail((saved as Variety).id), saved);
      void queryClient.invalidateQueries({ queryKey: varietyKeys.all, predicate: (q) => q.queryKey[1] === 'list' });
    },
  });
}

export function useDeleteVariety() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Saved<void>>(`/api/varieties/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (result, id) => {
      if (sentForReview(result)) return;
      queryClient.removeQueries({ queryKey: varietyKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: varietyKeys.all });
    },
  });
}

export interface ImportRequest {
  file: File;
  mapping: ImportMapping;
  onErrors?: ImportOnErrors;
}

function importForm({ file, mapping, onErrors }: ImportRequest): FormData {
  const form = new FormData();
  form.append('mapping', JSON.stringify(mapping));
  if (onErrors) form.append('onErrors', onErrors);
  // The file goes last: the server reads the fields before it streams the file to disk.
  form.append('file', file, file.name);
  return form;
}

/** The dry run: every row's result, nothing saved. */
export function previewImport(request: ImportRequest, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<ImportPreview> {
  return sendForm<ImportPreview>('/api/varieties/import/preview', importForm(request), onProgress, signal);
}

/** The import itself; the list refreshes by the live event, and here at once. */
export function useRunImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      request,
      onProgress,
      signal,
    }: {
      request: ImportRequest;
      onProgress: (fraction: number) => void;
      signal: AbortSignal;
    }) => sendForm<Saved<ImportReport>>('/api/varieties/import', importForm(request), onProgress, signal),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: varietyKeys.all });
    },
  });
}
