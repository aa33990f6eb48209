import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import type { CatalogKind } from '../../../common/catalog';
import type { Draft, DraftInput } from '../../../common/schemas/drafts';
import { api } from '../../lib/api';
import type { FormValues } from './entry-fields';
import type { UploadBatch } from './upload-batch';

/** The draft is sent at most this often while the form or its photos change. */
const SAVE_EVERY_MS = 5000;

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
 * photos, uploads finishing), at most every few seconds. `pause` stops sending (while the form
 * saves), `settle` waits for a draft already on its way, `resume` sends again what changed.
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
  const state = useRef({
    timer: null as ReturnType<typeof setTimeout> | null,
    lastSent: 0,
    inFlight: Promise.resolve() as Promise<unknown>,
    active,
    held: false,
    last: '',
  });
  state.current.active = active;

  const controls = useMemo(() => {
    const s = state.current;
    const send = () => {
      s.timer = null;
      if (!s.active || s.held) return;
      const draft = draftOf(form.getValues(), batch);
      const body = draft ? JSON.stringify(draft) : '';
      if (!draft || body === s.last) return;
      s.last = body;
      s.lastSent = Date.now();
      s.inFlight = s.inFlight
        .then(() => api(draftUrl(kind), { method: 'PUT', body: draft }))
        .catch(() => {
          s.last = '';
        });
    };
    const schedule = () => {
      if (!s.active || s.held || s.timer) return;
      s.timer = setTimeout(send, Math.max(500, s.lastSent + SAVE_EVERY_MS - Date.now()));
    };
    return {
      schedule,
      /** Waits for a draft already on its way. */
      settle: () => s.inFlight.then(() => undefined),
      pause() {
        s.held = true;
        if (s.timer) clearTimeout(s.timer);
        s.timer = null;
      },
      resume() {
        s.held = false;
        schedule();
      },
    };
  }, [batch, form, kind]);

  useEffect(() => {
    if (!active) return;
    const s = state.current;
    const fields = form.watch(() => controls.schedule());
    const photos = batch.subscribe(() => controls.schedule());
    return () => {
      fields.unsubscribe();
      photos();
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
    };
  }, [active, batch, controls, form]);

  return controls;
}
