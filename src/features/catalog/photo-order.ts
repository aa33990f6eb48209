import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { movedInOrder, type CatalogKind } from '../../../common/catalog';
import { PHOTO_ORDER_TEXTS } from '../../../common/catalog-texts';
import type { CatalogEntryDetail, CatalogImage } from '../../../common/schemas/catalog';
import { ApiError } from '../../lib/api';
import { sentForReview } from '../../lib/review';
import { catalogKeys, movePhoto } from './api';

interface QueuedMove {
  photoId: string;
  position: number;
}

/** How long a photo's moves gather before they are sent: pressing an arrow key five times sends one move. */
const GATHER_MS = 300;
const NO_IMAGES: CatalogImage[] = [];

/**
 * The edit dialog's stored photos in the order the user is giving them. A move shows at once
 * and is sent one at a time, each on the edit version the previous one made; the form follows
 * that version (`onVersion`), so its own save is not refused for them. Moves of one photo in a
 * row are sent as one. A refused move (the entry changed meanwhile) drops the moves not yet
 * sent and shows the photos as saved. Where the changes need review the moves wait as one
 * pending change: the order shown stays the one proposed (`onSentForReview` tells the user).
 */
export function usePhotoOrder({
  kind,
  entry,
  version,
  onVersion,
  onSentForReview,
}: {
  kind: CatalogKind;
  /** The entry as saved now (null while adding one). */
  entry: Pick<CatalogEntryDetail, 'id' | 'images'> | null | undefined;
  version: number | undefined;
  onVersion(version: number): void;
  onSentForReview(result: unknown): void;
}) {
  const queryClient = useQueryClient();
  const entryId = entry?.id ?? null;
  const images = entry?.images ?? NO_IMAGES;
  const [local, setLocal] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queue = useRef<QueuedMove[]>([]);
  const inFlight = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const versionRef = useRef(version);
  versionRef.current = version;
  const proposed = useRef(false);
  const callbacks = useRef({ onVersion, onSentForReview });
  callbacks.current = { onVersion, onSentForReview };

  const ordered = useMemo(() => {
    if (!local) return images;
    const place = new Map(local.map((id, i) => [id, i]));
    return [...images].sort((a, b) => (place.get(a.id) ?? Infinity) - (place.get(b.id) ?? Infinity));
  }, [images, local]);
  const orderedRef = useRef(ordered);
  orderedRef.current = ordered;

  const flush = useCallback(async () => {
    if (inFlight.current || !entryId) return;
    const next = queue.current.shift();
    if (!next) {
      setBusy(false);
      // Applied moves are in the cached entry already; proposed ones are shown until the dialog closes.
      if (!proposed.current) setLocal(null);
      return;
    }
    inFlight.current = true;
    try {
      const result = await movePhoto(kind, entryId, { version: versionRef.current ?? 0, ...next });
      if (sentForReview(result)) {
        if (!proposed.current) callbacks.current.onSentForReview(result);
        proposed.current = true;
      } else if ('version' in result) {
        versionRef.current = result.version;
        callbacks.current.onVersion(result.version);
        queryClient.setQueryData<CatalogEntryDetail>(catalogKeys.detail(kind, entryId), (old) => {
          if (!old) return old;
          const ids = movedInOrder(
            old.images.map((i) => i.id),
            result.photoId,
            result.position,
          );
          if (!ids) return old;
          const byId = new Map(old.images.map((i) => [i.id, i]));
          const reordered = ids.map((id, position) => ({ ...byId.get(id)!, position }));
          return { ...old, images: reordered, version: result.version, updatedAt: result.updatedAt, mainImageUrl: result.mainImageUrl };
        });
      }
    } catch (err) {
      queue.current = [];
      proposed.current = false;
      setLocal(null);
      setBusy(false);
      setError(err instanceof ApiError && err.status === 409 ? PHOTO_ORDER_TEXTS.conflict : PHOTO_ORDER_TEXTS.failed);
      void queryClient.invalidateQueries({ queryKey: catalogKeys.detail(kind, entryId) });
      return;
    } finally {
      inFlight.current = false;
    }
    void flush();
  }, [entryId, kind, queryClient]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** Moves the photo to `position` (0: the main photo); false when it is there already. */
  const move = useCallback(
    (photoId: string, position: number): boolean => {
      const ids = orderedRef.current.map((i) => i.id);
      const next = movedInOrder(ids, photoId, position);
      if (!next || ids.indexOf(photoId) === position) return false;
      setError(null);
      setLocal(next);
      const byId = new Map(orderedRef.current.map((i) => [i.id, i]));
      orderedRef.current = next.map((id) => byId.get(id)!);
      const last = queue.current[queue.current.length - 1];
      if (last && last.photoId === photoId) last.position = position;
      else queue.current.push({ photoId, position });
      setBusy(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), GATHER_MS);
      return true;
    },
    [flush],
  );

  return { ordered, move, busy, error, controls: { onMove: move, saving: busy, error } };
}
