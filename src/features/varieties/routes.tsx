import type { FeatureRoutes } from '../../app/feature-routes';
import { VarietiesPage } from './varieties-page';

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'rice_varieties', element: <VarietiesPage /> }],
};
