import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

const ASK_AFTER_MS = 300;

/**
 * Another live record of a collection with this name (trimmed, any case), asked at `url`
 * (GET <list>/name-taken) a moment after the typing stops; null while the answer is for an
 * older spelling. `topic` is the collection's live topic, so a change anywhere asks again.
 */
export function useNameTaken<T>(topic: string, url: string, name: string, exceptId: string | null): T | null {
  const [asked, setAsked] = useState(name.trim());
  useEffect(() => {
    const timer = setTimeout(() => setAsked(name.trim()), ASK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [name]);
  const query = useQuery({
    queryKey: [topic, 'name-taken', asked, exceptId ?? ''] as const,
    queryFn: ({ signal }) =>
      api<{ taken: T | null }>(`${url}?name=${encodeURIComponent(asked)}${exceptId ? `&except=${encodeURIComponent(exceptId)}` : ''}`, {
        signal,
      }),
    enabled: asked !== '',
    staleTime: 0,
  });
  return asked === name.trim() && asked !== '' ? (query.data?.taken ?? null) : null;
}
