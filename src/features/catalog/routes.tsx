import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { RequirePermission } from '../../app/guards';
import type { CatalogKind } from '../../../common/catalog';
import type { FeatureRoutes } from '../../app/feature-routes';
// The kinds' texts (common/catalog.ts) and the Trash tab come with the screen, not with the
// login page's bundle.
const CatalogScreen = lazy(() =>
  Promise.all([import('./catalog-page'), import('../../../common/catalog'), import('../../components/trash/with-trash')]).then(
    ([page, { CATALOG_KINDS }, { WithTrash }]) => ({
      default: ({ kind }: { kind: 'pest' | 'disease' }) => {
        const k = CATALOG_KINDS[kind];
        return (
          <WithTrash collection={k.collection} title={k.texts.title}>
            <page.CatalogPage kind={k} />
          </WithTrash>
        );
      },
    }),
  ),
);

const DatasetHealthScreen = lazy(() => import('./dataset-health-page').then((m) => ({ default: m.DatasetHealthPage })));

const PEST_ROUTE: CatalogKind['route'] = 'rice_pests';
const DISEASE_ROUTE: CatalogKind['route'] = 'rice_diseases';

export const routes: FeatureRoutes = {
  dashboard: [
    { path: PEST_ROUTE, element: <CatalogScreen key="pest" kind="pest" /> },
    {
      path: DISEASE_ROUTE,
      element: (
        <Routes>
          <Route index element={<CatalogScreen key="disease" kind="disease" />} />
          <Route
            path="health"
            element={
              <RequirePermission permission="trainingData.export">
                <DatasetHealthScreen />
              </RequirePermission>
            }
          />
          <Route path="*" element={<Navigate to="." replace />} />
        </Routes>
      ),
    },
  ],
};
