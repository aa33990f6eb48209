import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import type { CatalogKind } from '../../../common/catalog';
import type { Draft, DraftInput } from '../../../common/schemas/drafts';
import { api } from '../../lib/api';
import { useDraftAutosave as useAutosave } from '../../lib/draft-autosave';
import type { FormValues } from './entry-fields';
import type { UploadBatch } from './upload-batch';

const draftUrl = (kind: CatalogKind) => `/api/${kind.route}/draft`;

/** The account's unsaved add form of this kind, read once when the form opens. */
export function useDraft(kind: CatalogKind, enabled: boolean) {
  return useQuery({
    queryKey: [kind.collection, 'draft'],
    queryFn: ({ signal }) => api<Draft | null>(draftUrl(kind), { signal }),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function dropDraft(kind: CatalogKind): Promise<void> {
  return api<void>(draftUrl(kind), { method: 'DELETE' }).catch(() => undefined);
}

function draftOf(values: FormValues, batch: UploadBatch): DraftInput | null {
  const { imageIds: _ids, ...fields } = values;
  const photos = batch.items
    .filter((i) => i.status !== 'skipped')
    .map((i) => ({
      id: i.status === 'done' ? i.imageId : null,
      name: i.source.name,
      size: i.source.size,
      lastModified: i.source.lastModified,
    }));
  const typed = Object.values(fields).some((v) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' ? v.trim() !== '' : v === true));
  return typed || photos.length > 0 ? { fields, photos } : null;
}

/**
 * Keeps the add form as the account's draft on the server while it changes (fields, chosen
 * photos, uploads finishing), at most every few seconds (lib/draft-autosave.ts).
 */
export function useDraftAutosave({
  kind,
  form,
  batch,
  active,
}: {
  kind: CatalogKind;
  form: UseFormReturn<FormValues>;
  batch: UploadBatch;
  active: boolean;
}) {
  const subscribe = useCallback(
    (changed: () => void) => {
      const fields = form.watch(changed);
      const photos = batch.subscribe(changed);
      return () => {
        fields.unsubscribe();
        photos();
      };
    },
    [batch, form],
  );
  return useAutosave(draftUrl(kind), () => draftOf(form.getValues(), batch), subscribe, active);
}
