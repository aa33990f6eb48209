import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DISEASE_ENUMS_ID,
  VARIETY_ENUMS_ID,
  type ListKey,
  type MaintenanceDocId,
  type MaintenanceDocument,
  type MaintenanceLists,
  type MaintenanceUsage,
} from '../../../common/schemas/maintenance';
import { api } from '../../lib/api';
import { optionListsKey } from '../../lib/option-lists';
import { sentForReview, type Saved } from '../../lib/review';

/**
 * Query keys start with their live-event topic: 'maintenance' for the lists (refreshed when
 * any browser changes them), the record collection for the usage counts (refreshed when
 * varieties or accounts change).
 */
export const documentKey = (docId: MaintenanceDocId) => ['maintenance', 'document', docId] as const;
const usageTopic = (docId: MaintenanceDocId) =>
  docId === VARIETY_ENUMS_ID ? 'rice_seed_varieties' : docId === DISEASE_ENUMS_ID ? 'rice_local_diseases' : 'accounts';
const documentUrl = (docId: MaintenanceDocId) => `/api/maintenance/documents/${docId}`;

export function useMaintenanceDocument(docId: MaintenanceDocId) {
  return useQuery({ queryKey: documentKey(docId), queryFn: () => api<MaintenanceDocument>(documentUrl(docId)), staleTime: 0 });
}

/** Counts per option; also refetched whenever the document's version changes. */
export function useMaintenanceUsage(docId: MaintenanceDocId, version: number | undefined) {
  return useQuery({
    queryKey: [usageTopic(docId), 'maintenance-usage', docId, version],
    queryFn: () => api<MaintenanceUsage>(`${documentUrl(docId)}/usage`),
    enabled: version !== undefined,
    placeholderData: (previous) => previous,
    staleTime: 0,
  });
}

function useStoreDocument(docId: MaintenanceDocId) {
  const queryClient = useQueryClient();
  return (doc: Saved<MaintenanceDocument>) => {
    // Sent for review (202): the lists stay as published.
    if (sentForReview(doc)) return;
    queryClient.setQueryData(documentKey(docId), doc);
    // The forms' options of this browser follow at once (other browsers hear the live event).
    void queryClient.invalidateQueries({ queryKey: optionListsKey });
  };
}

export function useAddOption(docId: MaintenanceDocId) {
  const store = useStoreDocument(docId);
  return useMutation({
    mutationFn: ({ list, value }: { list: ListKey; value: string }) =>
      api<Saved<MaintenanceDocument>>(`${documentUrl(docId)}/lists/${list}`, { method: 'POST', body: { value } }),
    onSuccess: store,
  });
}

export function useRemoveOption(docId: MaintenanceDocId) {
  const store = useStoreDocument(docId);
  return useMutation({
    mutationFn: ({ list, value }: { list: ListKey; value: string }) =>
      api<Saved<MaintenanceDocument>>(`${documentUrl(docId)}/lists/${list}?value=${encodeURIComponent(value)}`, { method: 'DELETE' }),
    onSuccess: store,
  });
}

export function useSaveLists(docId: MaintenanceDocId) {
  const store = useStoreDocument(docId);
  return useMutation({
    mutationFn: ({ version, lists }: { version: number; lists: MaintenanceLists }) =>
      api<Saved<MaintenanceDocument>>(documentUrl(docId), { method: 'PUT', body: { version, lists } }),
    onSuccess: store,
  });
}
