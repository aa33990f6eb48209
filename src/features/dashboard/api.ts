import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { ActivityItem, ContentWeekly, DashboardCounts } from '../../../common/schemas/dashboard';
import type { Detections } from '../../../common/schemas/scan-reports';
import { DASHBOARD_PATHS } from '../../../common/first-visit';
import { api } from '../../lib/api';

// Keys start with 'dashboard': the live stream refreshes them after every change.
const countsKey = ['dashboard', 'counts'];
const weeklyKey = ['dashboard', 'content-weekly'];
const recentKey = ['dashboard', 'recent'];
const counts = (quiet = false) => api<DashboardCounts>(DASHBOARD_PATHS.counts, { skipAuthHandling: quiet });
const weekly = (quiet = false) => api<ContentWeekly>(DASHBOARD_PATHS.contentWeekly, { skipAuthHandling: quiet });
const recent = async (quiet = false) =>
  (await api<{ items: ActivityItem[] }>(DASHBOARD_PATHS.recentActivities, { skipAuthHandling: quiet })).items;
const detectionsKey = (diseaseId: string) => ['scan_reports', 'detections', diseaseId];
/** Detections of one disease ('' for all), as JSON or as the CSV download. */
export const detectionsPath = (diseaseId: string, csv = false) =>
  `${DASHBOARD_PATHS.detections}${csv ? '.csv' : ''}${diseaseId ? `?diseaseId=${encodeURIComponent(diseaseId)}` : ''}`;
const detections = (diseaseId: string, options: { signal?: AbortSignal; skipAuthHandling?: boolean } = {}) =>
  api<Detections>(detectionsPath(diseaseId), options);

export function useDashboardCounts() {
  return useQuery({ queryKey: countsKey, queryFn: () => counts() });
}

export function useContentWeekly() {
  return useQuery({ queryKey: weeklyKey, queryFn: () => weekly() });
}

export function useRecentActivities() {
  return useQuery({ queryKey: recentKey, queryFn: () => recent() });
}

/**
 * A signed-in visit to /dashboard asks for its data while the session is still being checked
 * (src/app/router.tsx). Quietly: if the session has ended, the session check says so.
 */
export function prefetchDashboard(client: QueryClient): void {
  void client.prefetchQuery({ queryKey: countsKey, queryFn: () => counts(true) });
  void client.prefetchQuery({ queryKey: recentKey, queryFn: () => recent(true) });
  void client.prefetchQuery({ queryKey: weeklyKey, queryFn: () => weekly(true) });
  void client.prefetchQuery({ queryKey: detectionsKey(''), queryFn: () => detections('', { skipAuthHandling: true }) });
}

/** Scanner detections; the key starts with 'scan_reports', so arriving reports refresh it live. */
export function useDetections(diseaseId: string) {
  return useQuery({
    queryKey: detectionsKey(diseaseId),
    queryFn: ({ signal }) => detections(diseaseId, { signal }),
    placeholderData: (previous) => previous,
  });
}
