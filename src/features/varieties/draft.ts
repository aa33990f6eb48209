import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import type { VarietyDraft, VarietyDraftInput } from '../../../common/schemas/drafts';
import type { VarietyFormValues } from '../../../common/schemas/varieties';
import { VARIETY_TOPIC } from '../../../common/varieties';
import { api } from '../../lib/api';
import { useDraftAutosave } from '../../lib/draft-autosave';

const DRAFT_URL = '/api/varieties/draft';

/** The account's unsaved variety form, read once when a form opens. */
export function useVarietyDraft(enabled: boolean) {
  return useQuery({
    queryKey: [VARIETY_TOPIC, 'draft'],
    queryFn: ({ signal }) => api<VarietyDraft | null>(DRAFT_URL, { signal }),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function dropVarietyDraft(): Promise<void> {
  return api<void>(DRAFT_URL, { method: 'DELETE' }).catch(() => undefined);
}

/** The form's values as the draft keeps them: every one as text, the lists and the flag as they are. */
function draftFields(values: VarietyFormValues): VarietyDraftInput['fields'] {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'allowDuplicateName') continue;
    out[key] = Array.isArray(value) || typeof value === 'boolean' ? value : value === null || value === undefined ? '' : String(value);
  }
  return out as VarietyDraftInput['fields'];
}

/**
 * Keeps a changed variety form (a new record's, or an edit's with the version it edits) as the
 * account's draft while it is typed in; `active` once any draft from before was offered.
 */
export function useVarietyDraftAutosave(
  form: UseFormReturn<VarietyFormValues>,
  record: { id: string; version: number } | null,
  active: boolean,
) {
  const subscribe = useCallback(
    (changed: () => void) => {
      const sub = form.watch(changed);
      return () => sub.unsubscribe();
    },
    [form],
  );
  return useDraftAutosave(
    DRAFT_URL,
    () =>
      form.formState.isDirty
        ? ({
            recordId: record?.id ?? null,
            version: record?.version ?? null,
            fields: draftFields(form.getValues()),
          } satisfies VarietyDraftInput)
        : null,
    subscribe,
    active,
  );
}
