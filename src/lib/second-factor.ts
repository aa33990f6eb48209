import { useQuery } from '@tanstack/react-query';
import type { SecondFactorStatus } from '../../common/schemas/second-factor';
import { api } from './api';

/** The own account's second factor (super admins). Starts with the 'accounts' topic: live events refresh it. */
export const secondFactorKey = ['accounts', 'second-factor'] as const;

export function useSecondFactorStatus(enabled: boolean) {
  return useQuery({
    queryKey: secondFactorKey,
    queryFn: () => api<SecondFactorStatus>('/api/profile/second-factor'),
    enabled,
    staleTime: 0,
  });
}
