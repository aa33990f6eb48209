import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
const HistoryPage = lazy(() => import('./history-page').then((m) => ({ default: m.HistoryPage })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'history_logs', element: <HistoryPage /> }],
};
