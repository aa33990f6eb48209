import { lazy } from 'react';
import type { CatalogKind } from '../../../common/catalog';
import type { FeatureRoutes } from '../../app/feature-routes';
// The kinds' texts (common/catalog.ts) come with the screen, not with the login page's bundle.
const CatalogPage = lazy(() => Promise.all([import('./catalog-page'), import('../../../common/catalog')])
  .then(([page, { CATALOG_KINDS }]) => ({ default: ({ kind }: { kind: 'pest' | 'disease' }) => <page.CatalogPage kind={CATALOG_KINDS[kind]} /> })));

const PEST_ROUTE: CatalogKind['route'] = 'rice_pests';
const DISEASE_ROUTE: CatalogKind['route'] = 'rice_diseases';

export const routes: FeatureRoutes = {
  dashboard: [
    { path: PEST_ROUTE, element: <CatalogPage key="pest" kind="pest" /> },
    { path: DISEASE_ROUTE, element: <CatalogPage key="disease" kind="disease" /> },
  ],
};
