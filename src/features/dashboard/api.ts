import { useQuery } from '@tanstack/react-query';
import type { ActivityItem, ContentWeekly, DashboardCounts } from '../../../common/schemas/dashboard';
import type { Detections } from '../../../common/schemas/scan-reports';
import { api } from '../../lib/api';

// Keys start with 'dashboard': the live stream refreshes them after every change.
export function useDashboardCounts() {
  return useQuery({ queryKey: ['dashboard', 'counts'], queryFn: () => api<DashboardCounts>('/api/dashboard/counts') });
}

export function useContentWeekly() {
  return useQuery({ queryKey: ['dashboard', 'content-weekly'], queryFn: () => api<ContentWeekly>('/api/dashboard/content-weekly') });
}

export function useRecentActivities() {
  return useQuery({
    queryKey: ['dashboard', 'recent'],
    queryFn: async () => (await api<{ items: ActivityItem[] }>('/api/dashboard/recent-activities')).items,
  });
}

/** Scanner detections; the key starts with 'scan_reports', so arriving reports refresh it live. */
export function useDetections(diseaseId: string) {
  return useQuery({
    queryKey: ['scan_reports', 'detections', diseaseId],
    queryFn: ({ signal }) => api<Detections>(`/api/dashboard/detections${diseaseId ? `?diseaseId=${encodeURIComponent(diseaseId)}` : ''}`, { signal }),
    placeholderData: (previous) => previous,
  });
}
