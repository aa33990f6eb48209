import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
// The queue, a change's page and their texts load on the first visit only.
const ReviewScreens = lazy(() => import('./screens').then((m) => ({ default: m.ReviewScreens })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'review', element: <ReviewScreens /> }],
};
