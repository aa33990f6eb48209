import { useQuery } from '@tanstack/react-query';
import type { OptionLists } from '../../common/schemas/maintenance';
import { api } from './api';

/** The option lists (File maintenance) the forms read. Starts with the 'maintenance' topic: live events refresh it. */
export const optionListsKey = ['maintenance', 'options'] as const;

/**
 * The part of the option lists a form needs (`select`; give a function defined outside the
 * component so it runs only when the lists change). Never served from a stale cache.
 */
export function useOptionLists<T>(select: (lists: OptionLists) => T, enabled = true) {
  return useQuery({
    queryKey: optionListsKey,
    queryFn: ({ signal }) => api<OptionLists>('/api/maintenance/options', { signal }),
    select,
    enabled,
    staleTime: 0,
  });
}
