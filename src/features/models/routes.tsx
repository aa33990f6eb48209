import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
// The screens (and their texts) load on the first visit only.
const ModelsScreens = lazy(() => import('./screens').then((m) => ({ default: m.ModelsScreens })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'scanner_models', element: <ModelsScreens /> }],
};
