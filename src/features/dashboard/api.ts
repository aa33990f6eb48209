import { useQuery } from '@tanstack/react-query';
import type { ActivityItem, DashboardCounts } from '../../../common/schemas/dashboard';
import { api } from '../../lib/api';

// Keys start with 'dashboard': the live stream refreshes them after every change.
export function useDashboardCounts() {
  return useQuery({ queryKey: ['dashboard', 'counts'], queryFn: () => api<DashboardCounts>('/api/dashboard/counts') });
}

export function useRecentActivities() {
  return useQuery({
    queryKey: ['dashboard', 'recent'],
    queryFn: async () => (await api<{ items: ActivityItem[] }>('/api/dashboard/recent-activities')).items,
  });
}
