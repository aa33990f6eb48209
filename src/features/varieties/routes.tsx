import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
const VarietiesPage = lazy(() => import('./varieties-page').then((m) => ({ default: m.VarietiesPage })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'rice_varieties', element: <VarietiesPage /> }],
};
