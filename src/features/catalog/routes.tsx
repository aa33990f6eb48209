import { lazy } from 'react';
import { CATALOG_KINDS } from '../../../common/catalog';
import type { FeatureRoutes } from '../../app/feature-routes';
import { WithTrash } from '../../components/trash/with-trash';
const CatalogPage = lazy(() => import('./catalog-page').then((m) => ({ default: m.CatalogPage })));

const { pest, disease } = CATALOG_KINDS;
export const routes: FeatureRoutes = {
  dashboard: [
    { path: pest.route, element: <WithTrash key="pest" collection={pest.collection} title={pest.texts.title}><CatalogPage kind={pest} /></WithTrash> },
    { path: disease.route, element: <WithTrash key="disease" collection={disease.collection} title={disease.texts.title}><CatalogPage kind={disease} /></WithTrash> },
  ],
};
