import { useEffect, useState } from 'react';
import { TIMINGS } from '../../../common/limits';
import { checkAvailability } from './api';

/** idle: nothing to check yet (empty or invalid); unchanged: the edited account's own value. */
export type AvailabilityState = 'idle' | 'checking' | 'available' | 'taken' | 'error' | 'unchanged';

/**
 * The uniqueness check of the admin form (docs/PRODUCT.md section 5): it runs 400 ms after typing
 * stops, on the server, ignoring the account being edited. A newer value cancels an older check.
 */
export function useAvailability(
  field: 'username' | 'email',
  value: string,
  options: { valid: boolean; excludeId?: string | undefined; original?: string | undefined },
) {
  const [state, setState] = useState<AvailabilityState>('idle');
  const trimmed = value.trim();
  const { valid, excludeId, original } = options;

  useEffect(() => {
    if (!valid || !trimmed) {
      setState('idle');
      return;
    }
    if (original !== undefined && trimmed.toLowerCase() === original.trim().toLowerCase()) {
      setState('unchanged');
      return;
    }
    setState('checking');
    const controller = new AbortController();
    const timer = setTimeout(() => {
      checkAvailability(field, trimmed, excludeId, controller.signal)
        .then((r) => {
          if (!controller.signal.aborted) setState(r.available ? 'available' : 'taken');
        })
        .catch(() => {
          if (!controller.signal.aborted) setState('error');
        });
    }, TIMINGS.uniquenessCheckDelayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [field, trimmed, valid, excludeId, original]);

  return { state, passed: state === 'available' || state === 'unchanged', markTaken: () => setState('taken') };
}
