import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
// The screen, its texts and the Trash tab load on the first visit, not with the login page.
const VarietiesScreen = lazy(() =>
  Promise.all([import('./varieties-page'), import('../../../common/varieties'), import('../../components/trash/with-trash')]).then(
    ([page, { VARIETIES, VARIETY_TOPIC }, { WithTrash }]) => ({
      default: () => (
        <WithTrash collection={VARIETY_TOPIC} title={VARIETIES.title}>
          <page.VarietiesPage />
        </WithTrash>
      ),
    }),
  ),
);

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'rice_varieties', element: <VarietiesScreen /> }],
};
