import { lazy } from 'react';
import { CATALOG_KINDS } from '../../../common/catalog';
import type { FeatureRoutes } from '../../app/feature-routes';
const CatalogPage = lazy(() => import('./catalog-page').then((m) => ({ default: m.CatalogPage })));

export const routes: FeatureRoutes = {
  dashboard: [
    { path: CATALOG_KINDS.pest.route, element: <CatalogPage key="pest" kind={CATALOG_KINDS.pest} /> },
    { path: CATALOG_KINDS.disease.route, element: <CatalogPage key="disease" kind={CATALOG_KINDS.disease} /> },
  ],
};
