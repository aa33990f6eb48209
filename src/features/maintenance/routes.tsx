import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
// The sub-pages' table (and the option-list schemas it names) loads on the first visit only.
const MaintenanceScreens = lazy(() => import('./screens').then((m) => ({ default: m.MaintenanceScreens })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'file_maintenance', element: <MaintenanceScreens /> }],
};
