import type { FeatureRoutes } from '../../app/feature-routes';
import { HistoryPage } from './history-page';

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'history_logs', element: <HistoryPage /> }],
};
