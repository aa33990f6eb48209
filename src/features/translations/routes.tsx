import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
const TranslationsPage = lazy(() => import('./translations-page').then((m) => ({ default: m.TranslationsPage })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'translations', element: <TranslationsPage /> }],
};
